"""Reads of an event's online tables by their place in the evening (event, round, table
number): the pages they are played on, and the tables a round still plays."""
from __future__ import annotations

from drive.core.accounts import User
from drive.games.models import PlayTable


def table_url(table_id: int) -> str:
    return f"/play/{table_id}/"


def online_table_url(*, event_id: int, round_number: int, table_number: int) -> str | None:
    """The page of the table's online game in the round, or None: it was played on paper."""
    pk = (PlayTable.objects.filter(event_id=event_id, round_number=round_number, table_number=table_number)
          .values_list("pk", flat=True).first())
    return None if pk is None else table_url(pk)


def online_table_urls(*, event_id: int, round_number: int) -> dict[int, str]:
    """The pages of the round's online games, by table number (one query, whatever the
    number of tables); a table missing from it was played on paper."""
    rows = PlayTable.objects.filter(event_id=event_id, round_number=round_number).values_list("table_number", "pk")
    return {number: table_url(pk) for number, pk in rows if number is not None}  # an evening's table has one


def unfinished_tables(*, event_id: int, round_number: int) -> list[int]:
    """Ids of the round's online tables with hands still to play."""
    return list(PlayTable.objects.filter(event_id=event_id, round_number=round_number)
                .exclude(phase=PlayTable.Phase.OVER).values_list("pk", flat=True))


def rounds_with_tables() -> list[tuple[int, int]]:
    """(event id, round number) of every round with an online table still being played."""
    rows = (PlayTable.objects.filter(event__isnull=False, finished_at__isnull=True)
            .values_list("event_id", "round_number").distinct())
    return [(event_id, number) for event_id, number in rows if event_id is not None and number is not None]


def my_online_table(*, user: User | None, event_id: int) -> str | None:
    """The page of the user's online table of the evening's round in play (a seat of theirs
    at a table of the event not yet finished), or None: their table is on paper, or the
    round is not being played."""
    if user is None or not user.is_authenticated:
        return None
    pk = (PlayTable.objects.filter(event_id=event_id, finished_at__isnull=True, seats__user=user)
          .order_by("-round_number").values_list("pk", flat=True).first())
    return None if pk is None else table_url(pk)
