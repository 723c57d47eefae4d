"""Reads of an evening's online tables: which tables are online, the rules they are dealt
with, and the tables of each round with their players and hand-history links."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from drive.core.clock import seconds_left
from drive.events.models import Event
from drive.play.models import PlayTable
from drive.scoring.models import HandResult, OnlineTables, Round
from drive.scoring.rules import event_ruleset, evening_hand_index


def online_setting(event: Event) -> OnlineTables:
    """The event's setting (on paper until the organiser says otherwise; not stored then)."""
    return OnlineTables.objects.filter(event=event).first() or OnlineTables(event=event)


def table_rules(event: Event, round_number: int) -> dict[str, Any] | str:
    """The rules an online table of the round is dealt with: the event's drive ruleset
    (drive.scoring.rules: each hand scored alone, `hands_per_round` hands, the event's
    trump rule), played as a drive whatever the preset (rule D1). A trump rotation runs over
    the whole evening (D2): the table's game starts it where the round's first hand is."""
    rules = replace(event_ruleset(event), scoring="drive")
    if rules.trump == "rotation":
        start = evening_hand_index(event, round_number, 1) % len(rules.rotation)
        rules = replace(rules, rotation=rules.rotation[start:] + rules.rotation[:start])
    return rules.to_json()


def evening_tables(event: Event) -> dict[str, Any]:
    """The setting and every online table of the evening, round by round: its players
    (a person's name, or the robot playing the seat), whether its game is over, the hands
    robots finished, and the links to the table and its hand history."""
    setting = online_setting(event)
    rounds = {r.number: r for r in Round.objects.filter(event=event)}
    flagged: dict[tuple[int, int], list[int]] = {}
    for row in HandResult.objects.filter(round__event=event, change_kind=HandResult.ChangeKind.ROBOTS).values(
            "round__number", "table__number", "hand_number").order_by("hand_number"):
        flagged.setdefault((row["round__number"], row["table__number"]), []).append(row["hand_number"])
    tables = []
    for table in PlayTable.objects.filter(event=event).prefetch_related("seats__user").order_by(
            "round_number", "table_number"):
        round_ = rounds.get(table.round_number)
        tables.append({
            "id": table.pk, "round": table.round_number, "table": table.table_number, "phase": table.phase,
            "over": table.phase == PlayTable.Phase.OVER, "round_closed": table.finished_at is not None,
            "seconds_left": seconds_left(round_) if round_ and round_.state == Round.State.PLAYING else None,
            "seats": [{"seat": s.seat, "name": _name(s), "robot": s.robot, "standin": s.standin}
                      for s in sorted(table.seats.all(), key=lambda s: "NESW".index(s.seat))],
            "finished_by_robots": flagged.get((table.round_number, table.table_number), []),
            "url": f"/play/{table.pk}/", "hands_url": f"/play/{table.pk}/hands/",
        })
    return {"event": event.pk, "mode": setting.mode, "tables": sorted(setting.tables), "robot": setting.robot,
            "online": tables}


def online_table_url(event_id: int, round_number: int, table_number: int) -> str | None:
    """The page of the table's online game in the round, or None: it was played on paper."""
    pk = (PlayTable.objects.filter(event_id=event_id, round_number=round_number, table_number=table_number)
          .values_list("pk", flat=True).first())
    return None if pk is None else f"/play/{pk}/"


def online_table_urls(event_id: int, round_number: int) -> dict[int, str]:
    """The pages of the round's online games, by table number (one query, whatever the
    number of tables); a table missing from it was played on paper."""
    rows = PlayTable.objects.filter(event_id=event_id, round_number=round_number).values_list("table_number", "pk")
    return {number: f"/play/{pk}/" for number, pk in rows}


def _name(seat: Any) -> str:
    if seat.user_id is None:
        return ""
    return seat.user.get_full_name() or seat.user.get_username()


def round_paused(event_id: int, round_number: int | None) -> bool:
    """The organiser has paused the round's clock: its online tables' robots wait."""
    return Round.objects.filter(event_id=event_id, number=round_number, paused_at__isnull=False).exists()


def deadline_tables(now: datetime | None = None) -> list[int]:
    """Ids of the online tables whose round is being played past its deadline with hands
    still to play (beat's sweep has robots finish them)."""
    ids = []
    playing = Round.objects.filter(state=Round.State.PLAYING, deadline__isnull=False, paused_at__isnull=True)
    for round_ in playing.filter(event__play_tables__isnull=False).distinct():
        if seconds_left(round_, now) == 0:
            ids += list(PlayTable.objects.filter(event_id=round_.event_id, round_number=round_.number)
                        .exclude(phase=PlayTable.Phase.OVER).values_list("pk", flat=True))
    return ids



def my_online_table(user: Any, event_id: int) -> str | None:
    """The page of the user's online table of the evening's round in play (a seat of theirs
    at a table of the event not yet finished), or None: their table is on paper, or the
    round is not being played."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    pk = (PlayTable.objects.filter(event_id=event_id, finished_at__isnull=True, seats__user=user)
          .order_by("-round_number").values_list("pk", flat=True).first())
    return None if pk is None else f"/play/{pk}/"
