"""The rounds of the movement as they are seated: a round of the plan (a progressive one
from the last round's winners, rule D4b), fitted to who is present (re-planned when players
arrived or left), written as seats; the quality report of the rounds as played. Called in
the evening's transactions (drive.scoring.services.evening), never on their own."""
from __future__ import annotations

from typing import Any

from django.conf import settings
from engine import SEATS
from drive.core import broadcast
from drive.events.models import Event
from drive.movements.algorithms.build import Budget, replan
from drive.movements.models import Entrant, Movement
from drive.movements.algorithms.progressive import next_progressive_round
from drive.movements.algorithms.quality import report
from drive.movements.algorithms.schedule import Movement as Plan
from drive.movements.algorithms.schedule import Round as PlanRound
from drive.movements.algorithms.schedule import as_table
from drive.scoring.services.recompute import standings_changed
from drive.scoring.models import HandResult, Round, Seat
from drive.scoring.services.seating import seat_round

State = Round.State


def plan_round(*, event: Event, movement: Movement, number: int) -> dict[str, Any]:
    """Round `number` of the plan; a progressive movement's later rounds follow the results."""
    if event.movement_kind == Event.MovementKind.PROGRESSIVE and number > 1:
        return progressive_round(event=event, number=number)
    return movement.plan["rounds"][number - 1]


def progressive_round(*, event: Event, number: int) -> dict[str, Any]:
    """Rule D4b: round `number` from the seats and winners of round `number - 1`."""
    previous = event.evening_rounds.get(number=number - 1)
    seats = list(previous.seats.select_related("table", "entrant"))
    by_table: dict[int, dict[str, int]] = {}
    for seat in seats:
        if seat.table is not None:
            by_table.setdefault(seat.table.number, {})[seat.position] = seat.entrant.number
    tables = [as_table(by_table[t][p] for p in SEATS) for t in sorted(by_table)]
    sit_out = tuple(seat.entrant.number for seat in seats if not seat.table_id)
    winners = [round_winner(round_=previous, table_number=t) for t in sorted(by_table)]
    counts: dict[int, int] = {}
    for seat in Seat.objects.filter(round__event=event, round__number__lt=number, table__isnull=True):
        counts[seat.entrant.number] = counts.get(seat.entrant.number, 0) + 1
    following = next_progressive_round(PlanRound(tuple(tables), sit_out), winners, event.progressive_convention,
                                       sit_out_counts=counts)
    return Plan(len(seats), "progressive", [following]).to_json()["rounds"][0]


def round_winner(*, round_: Round, table_number: int) -> str:
    """The side with more tricks over the round's hands; a tie goes to the winners of the
    last hand, and a table with no result yet to N-S (it is flagged as late anyway)."""
    hands = list(round_.results.filter(table__number=table_number).exclude(status="disputed").order_by("hand_number"))
    ns = sum(h.ns_tricks for h in hands)
    ew = sum(h.ew_tricks for h in hands)
    if ns != ew:
        return "NS" if ns > ew else "EW"
    return "EW" if hands and hands[-1].ew_tricks > hands[-1].ns_tricks else "NS"


def store_played_quality(*, event: Event) -> None:
    """The quality report of the rounds as played: a progressive movement (which follows
    the results) or a re-planned one gets the same report as a designed one."""
    movement = getattr(event, "movement", None)
    played = played_rounds(event=event, before=event.rounds + 1)
    if movement is None or not played:
        return
    players = Entrant.objects.filter(event=event).order_by("-number").values_list("number", flat=True).first()
    if players is None:  # rounds played with no entrant left (all withdrawn): nothing to report on
        return
    movement.quality = {**report(played, players), "source": movement.source, "as_played": True}
    movement.save(update_fields=["quality"])


def standings_moved(*, event: Event) -> None:
    """Seats, entrants and rounds move the standings once a hand counts (before the first
    result there are none to move): their version goes up in this transaction."""
    if HandResult.objects.filter(round__event=event).exists():
        standings_changed(event_id=event.pk)


def seat_next_round(*, event: Event, round_number: int, plan_round: dict[str, Any]) -> Round:
    """Apply one round of the movement: seats written, the round marked seated."""
    round_ = event.evening_rounds.get(number=round_number)
    if round_.state != State.PENDING:
        return round_
    fitted = fit_to_present(event=event, round_number=round_number, plan_round=plan_round)
    seat_round(round_=round_, plan_round=fitted)
    standings_moved(event=event)
    round_.state = State.SEATED
    round_.save(update_fields=["state"])
    broadcast.publish(event.pk, broadcast.Change.SEATING, round=round_number)
    return round_


def played_rounds(*, event: Event, before: int) -> list[PlanRound]:
    """Rounds before `before` as the movement algorithms see them (from the stored seats)."""
    rounds = []
    for round_ in event.evening_rounds.filter(number__lt=before).exclude(state=State.PENDING).order_by("number"):
        rounds.append(seats_as_planned(round_=round_))
    return rounds


def seats_as_planned(*, round_: Round) -> PlanRound:
    tables: dict[int, dict[str, int]] = {}
    sit_out: list[int] = []
    for seat in round_.seats.select_related("table", "entrant"):
        if seat.table is not None:
            tables.setdefault(seat.table.number, {})[seat.position] = seat.entrant.number
        else:
            sit_out.append(seat.entrant.number)
    return PlanRound(tuple(as_table(tables[t][p] for p in SEATS) for t in sorted(tables)), tuple(sit_out))


def _from_json(plan_round: dict[str, Any]) -> PlanRound:
    tables = tuple(tuple(row[p] for p in SEATS) for row in sorted(plan_round["tables"], key=lambda r: r["table"]))
    return PlanRound(tables, tuple(plan_round["sit_out"]))


def fit_to_present(*, event: Event, round_number: int, plan_round: dict[str, Any]) -> dict[str, Any]:
    """The planned round, re-planned if players arrived or left since it was planned.

    Rounds already played stay as they were; whoever the plan seats and is still here
    keeps their seat. A designed movement stores its new remaining rounds.
    """
    present = sorted(e.number for e in Entrant.objects.filter(event=event) if e.plays_in(round_number))
    planned = _from_json(plan_round)
    if set(present) == set(planned.players()):
        return plan_round
    progressive = event.movement_kind == Event.MovementKind.PROGRESSIVE
    movement = event.movement
    later = [] if progressive else [_from_json(r) for r in movement.plan["rounds"][round_number:]]
    rounds_left = 1 if progressive else event.rounds - round_number + 1
    new = replan(played_rounds(event=event, before=round_number), present, rounds_left, current=planned,
                 seated={p for table in planned.tables for p in table} & set(present), planned=[planned, *later],
                 budget=Budget(settings.REPLAN_WORK_BUDGET, settings.REPLAN_SAFETY_SECONDS))
    new_json = Plan(max(present), event.movement_kind, new).to_json()["rounds"]
    if not progressive:
        movement.plan["rounds"][round_number - 1:] = new_json
        movement.version += 1
        movement.save(update_fields=["plan", "version"])
        broadcast.publish(event.pk, broadcast.Change.MOVEMENT)
    return new_json[0]
