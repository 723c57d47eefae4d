"""Which round of an evening is current: reads that the services, the phones and the screen share."""
from __future__ import annotations

from drive.events.models import Event

from drive.scoring.models import HandResult, Round, Seat, Table

Status = HandResult.Status


def current_round(event: Event) -> Round | None:
    """The round in play or the last one seated/closed; None before the first."""
    return event.evening_rounds.exclude(state=Round.State.PENDING).order_by("-number").first()


def entry_round(table: Table) -> Round | None:
    """The round a table enters results for: the one in play, or the last closed one while
    the next has not started (a late table finishing off). None when nothing is open."""
    round_ = current_round(table.event)
    if round_ is None:
        return None
    if round_.state == Round.State.SEATED:
        previous = table.event.evening_rounds.filter(number=round_.number - 1).first()
        return previous if previous and previous.state == Round.State.CLOSED else None
    return round_


def table_complete(round_: Round, table: Table) -> bool:
    confirmed = HandResult.objects.filter(round=round_, table=table, status=Status.CONFIRMED).count()
    return confirmed == round_.event.hands_per_round


def tables_out(round_: Round) -> list[int]:
    """Numbers of the tables of the round that have not every hand confirmed."""
    seated = set(Seat.objects.filter(round=round_, table__isnull=False).values_list("table__number", flat=True))
    counts: dict[int | None, int] = {}
    for number in HandResult.objects.filter(round=round_, status=Status.CONFIRMED).values_list("table__number", flat=True):
        counts[number] = counts.get(number, 0) + 1
    return sorted(t for t in seated if counts.get(t, 0) < round_.event.hands_per_round)
