"""Stores the standings: read every seat and confirmed result, compute, replace the rows.

Never incremented in place, so running it twice, or out of order, gives the same table.
Each run records the results version it read (`versions`), so a reader knows whether
the stored standings are behind the rows.
"""
from decimal import Decimal

from django.db import connection, transaction
from django.db.models import F, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from drive import broadcast
from drive.events.models import Event
from drive.movements.models import Entrant

from . import standings
from .models import HandResult, Seat, Standing, StandingsState
from .rules import event_ruleset


def load_results(event):
    """{(round, table): {hand: ns_tricks}} of the hands that count (see `counted_results`)."""
    return counted_results(event)[0]


def counted_results(event):
    """The hands that count, as `load_results` gives them, and how many entered hands wait
    for the other side's confirmation, read together.

    While the evening is in progress only confirmed hands count: the standings the room
    sees never carry a hand one side entered and the other has not confirmed (single entry
    confirms at once), and they say how many wait. Once the evening has finished, an
    entered hand nobody disputed counts: it is the table's word. A disputed hand waits for
    the organiser either way."""
    Status = HandResult.Status
    live = event.phase == Event.Phase.IN_PROGRESS
    results, awaiting = {}, 0
    rows = HandResult.objects.filter(round__event=event).exclude(status=Status.DISPUTED)
    for round_number, table, hand, ns, status in rows.values_list(
            "round__number", "table__number", "hand_number", "ns_tricks", "status"):
        if live and status != Status.CONFIRMED:
            awaiting += 1
            continue
        results.setdefault((round_number, table), {})[hand] = ns
    return results, awaiting


def load_seats(event):
    rows = Seat.objects.filter(round__event=event).values_list("round__number", "entrant_id", "table__number", "position")
    return [(r, e, t, "NS" if p in ("N", "S") else "EW") for r, e, t, p in rows]


def fixed_partners(event):
    """{entrant: partner} of a fixed-partner drive (from where they sat together), else {}."""
    if event.movement_kind != Event.MovementKind.PAIRS:
        return {}
    sides = {}
    rows = Seat.objects.filter(round__event=event, table__isnull=False).values_list(
        "round_id", "table_id", "position", "entrant_id")
    for round_id, table, position, entrant in rows:
        sides.setdefault((round_id, table, "NS" if position in "NS" else "EW"), []).append(entrant)
    return {a: b for pair in sides.values() if len(pair) == 2 for a, b in (pair, pair[::-1])}


def compute_for(event, results=None):
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


# Transaction-scoped advisory lock (PostgreSQL): recomputations of one event queue
# behind each other, so a later reading is never overwritten by an earlier one, without
# locking the event row that result entry and the organiser's actions also use.
ADVISORY_LOCK_CLASS = 0x5744  # "WD"
COMPARED_FIELDS = ["place", "shared", "total", "hands_played", "hands_won", "sit_out_hands", "first_half",
                   "second_half", "average", "missed_rounds"]
STORED_FIELDS = [*COMPARED_FIELDS, "computed_at"]


def hold_recomputations(event_id):
    """Until this transaction ends, no recomputation of the event runs (a running one is
    waited for). Take it before locking the event's row: a recomputation that stores a new
    line needs to read that row (its foreign key), so the other order could deadlock."""
    _one_recomputation_at_a_time(event_id)


def _one_recomputation_at_a_time(event_id):
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [ADVISORY_LOCK_CLASS, event_id % 2**31])
    elif connection.vendor != "sqlite":  # SQLite: the IMMEDIATE transaction already holds the write lock
        Event.objects.select_for_update().filter(pk=event_id).exists()


@transaction.atomic
def recompute_standings(*, event_id, only_if_stale=False):
    """Recompute and store the standings; returns the number of lines, or None when
    `only_if_stale` and they are already computed from the latest results."""
    _one_recomputation_at_a_time(event_id)
    # Read the version before the rows (each statement sees what is committed when it
    # starts): every change up to it is in the rows read below, so it is safe to record.
    state = StandingsState.objects.filter(event_id=event_id).values_list(
        "results_version", "computed_version", "awaiting_confirmation").first()
    event = Event.objects.get(pk=event_id)
    if only_if_stale and state is not None and state[1] >= state[0] and not left_out_hands(event, state[2]):
        return None  # another run (the sweep, a read, an earlier task) got there first
    version = state[0] if state else 0
    now = timezone.now()
    results, awaiting = counted_results(event)
    rows = [
        Standing(event=event, entrant_id=line.entrant, place=place, shared=shared, total=line.total,
                 hands_played=len(line.scores), hands_won=line.won,
                 sit_out_hands=len(line.sat_out_rounds) * event.hands_per_round,
                 first_half=Decimal(line.first_half), second_half=Decimal(line.second_half),
                 average=line.average_shown, missed_rounds=line.missed_rounds, computed_at=now)
        for place, shared, line in compute_for(event, results)
    ]
    # Every line is computed whole (never incremented); only the lines whose values differ
    # from the stored ones are written (one upsert), then all are stamped with this time.
    stored = {values[0]: values[1:] for values in
              Standing.objects.filter(event=event).values_list("entrant_id", *COMPARED_FIELDS)}
    changed = [row for row in rows if stored.get(row.entrant_id) != tuple(getattr(row, f) for f in COMPARED_FIELDS)]
    if changed:
        Standing.objects.bulk_create(changed, update_conflicts=True, unique_fields=["entrant"],
                                     update_fields=STORED_FIELDS)
    gone = set(stored) - {row.entrant_id for row in rows}
    if gone:
        Standing.objects.filter(event=event, entrant_id__in=gone).delete()
    Standing.objects.filter(event=event).update(computed_at=now)
    _record_version(event_id, version, now, awaiting)
    broadcast.publish(event.pk, "standings")
    return len(rows)


def left_out_hands(event, awaiting: int) -> bool:
    """Standings computed live left out `awaiting` unconfirmed hands, which a finished
    evening counts (`counted_results`): they are behind, whatever their version says."""
    return bool(awaiting) and event.phase != Event.Phase.IN_PROGRESS


def _record_version(event_id, version, now, awaiting=0):
    """Last, so the state row (which result entry also updates) is held only briefly.
    `awaiting`: the hands these standings leave out until they are confirmed."""
    if not StandingsState.objects.filter(event_id=event_id).update(
            computed_version=Greatest(F("computed_version"), Value(version)), computed_at=now,
            awaiting_confirmation=awaiting):
        StandingsState.objects.get_or_create(event_id=event_id,
                                             defaults={"computed_at": now, "awaiting_confirmation": awaiting})
