"""Seats of a round from one round of the movement's plan."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from engine import SEATS
from drive.core.errors import Conflict
from drive.movements.models import Entrant

from drive.scoring.models import Round, Seat, Table


def tables_needed(*, players: int) -> int:
    """Full tables only: whoever is left over sits out the round (rule D5)."""
    return players // 4


def seat_round(*, round_: Round, plan_round: dict[str, Any]) -> None:
    """Write the seats of `plan_round` ({"tables": [{"table", "N", "E", "S", "W"}], "sit_out": [...]})."""
    event = round_.event
    entrants = {e.number: e for e in Entrant.objects.filter(event=event)}
    tables = {t.number: t for t in Table.objects.filter(event=event)}
    seats = []
    for row in plan_round["tables"]:
        table = tables.get(row["table"]) or Table.objects.create(event=event, number=row["table"])
        seats += [Seat(round=round_, table=table, position=p, entrant=entrants[row[p]]) for p in SEATS]
    seats += [Seat(round=round_, table=None, position="", entrant=entrants[n]) for n in plan_round["sit_out"]]
    seated = {seat.entrant.number for seat in seats}
    expected = {n for n, e in entrants.items() if e.plays_in(round_.number)}
    if seated != expected:
        raise Conflict(_("The movement's round %(n)s does not seat exactly the players of the evening.")
                       % {"n": round_.number})
    Seat.objects.bulk_create(seats)
