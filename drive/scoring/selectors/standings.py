"""Reads behind the standings: the rows they are computed from, a computation without
storing it, and the version the stored standings were computed from."""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F

from drive.events.models import Event
from drive.movements.models import Entrant
from drive.scoring import standings
from drive.scoring.models import HandResult, Seat, StandingsState
from drive.scoring.rules import event_ruleset


Results = dict[tuple[int, int], dict[int, int]]  # {(round, table): {hand: ns_tricks}}


def load_results(event: Event) -> Results:
    """{(round, table): {hand: ns_tricks}} of the hands that count (see `counted_results`)."""
    return counted_results(event)[0]


def counted_results(event: Event) -> tuple[Results, int]:
    """The hands that count, as `load_results` gives them, and how many entered hands wait
    for the other side's confirmation, read together.

    While the evening is in progress only confirmed hands count: the standings the room
    sees never carry a hand one side entered and the other has not confirmed (single entry
    confirms at once), and they say how many wait. Once the evening has finished, an
    entered hand nobody disputed counts: it is the table's word. A disputed hand waits for
    the organiser either way."""
    Status = HandResult.Status
    live = event.phase == Event.Phase.IN_PROGRESS
    results: Results = {}
    awaiting = 0
    rows = HandResult.objects.filter(round__event=event).exclude(status=Status.DISPUTED)
    for round_number, table, hand, ns, status in rows.values_list(
            "round__number", "table__number", "hand_number", "ns_tricks", "status"):
        if live and status != Status.CONFIRMED:
            awaiting += 1
            continue
        results.setdefault((round_number, table), {})[hand] = ns
    return results, awaiting


def left_out_hands(event: Event, awaiting: int) -> bool:
    """Standings computed live left out `awaiting` unconfirmed hands, which a finished
    evening counts (`counted_results`): they are behind, whatever their version says."""
    return bool(awaiting) and event.phase != Event.Phase.IN_PROGRESS


def load_seats(event: Event) -> list[tuple[int, int, int | None, str]]:
    rows = Seat.objects.filter(round__event=event).values_list("round__number", "entrant_id", "table__number", "position")
    return [(r, e, t, "NS" if p in ("N", "S") else "EW") for r, e, t, p in rows]


def fixed_partners(event: Event) -> dict[int, int]:
    """{entrant: partner} of a fixed-partner drive (from where they sat together), else {}."""
    if event.movement_kind != Event.MovementKind.PAIRS:
        return {}
    sides: dict[tuple[int, int | None, str], list[int]] = {}
    rows = Seat.objects.filter(round__event=event, table__isnull=False).values_list(
        "round_id", "table_id", "position", "entrant_id")
    for round_id, table, position, entrant in rows:
        sides.setdefault((round_id, table, "NS" if position in "NS" else "EW"), []).append(entrant)
    return {a: b for pair in sides.values() if len(pair) == 2 for a, b in (pair, pair[::-1])}


def compute_for(event: Event, results: Results | None = None) -> list[tuple[int, bool, standings.Line]]:
    """The event's standings lines (standings.compute), from `results` if already read."""
    return standings.compute(
        partners=fixed_partners(event),
        entrants=list(Entrant.objects.filter(event=event).values_list("id", flat=True)),
        seats=load_seats(event),
        results=load_results(event) if results is None else results,
        rules=event_ruleset(event),
        hands_per_round=event.hands_per_round,
        half_after_round=event.rounds // 2,
        sit_out_method=event.sit_out_score,
        tie_break=event.tie_break_rule,
        lot_seed=event.pk,
        missed_rounds=event.missed_rounds,
    )


def state_of(event_id: int) -> StandingsState | None:
    return StandingsState.objects.filter(event_id=event_id).first()


def is_stale(state: StandingsState | None) -> bool:
    """No state yet (standings never computed since versions exist) counts as stale."""
    return state is None or state.stale


def stale_event_ids() -> list[int]:
    return list(StandingsState.objects.filter(computed_version__lt=F("results_version"))
                .order_by("event_id").values_list("event_id", flat=True))


@dataclass
class Freshness:
    """What the standings about to be shown are (services.freshness makes one)."""
    version: int  # the results version the shown standings were computed from
    updating: bool  # behind the results: a recomputation is on its way
    state: StandingsState | None = None  # as read by the freshness check
