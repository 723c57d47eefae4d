"""Stores the standings: read every seat and confirmed result, compute, replace the rows.

Never incremented in place, so running it twice, or out of order, gives the same table.
Each run records the results version it read (`versions`), so a reader knows whether
the stored standings are behind the rows.
"""
from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from django.db import connection, transaction
from django.db.models import F, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from drive.core import broadcast
from drive.events.models import Event

from drive.scoring.models import Standing, StandingsState
from drive.scoring.selectors.standings import compute_for, counted_results, left_out_hands


# Transaction-scoped advisory lock (PostgreSQL): recomputations of one event queue
# behind each other, so a later reading is never overwritten by an earlier one, without
# locking the event row that result entry and the organiser's actions also use.
ADVISORY_LOCK_CLASS = 0x5744  # "WD"
COMPARED_FIELDS = ["place", "shared", "total", "hands_played", "hands_won", "sit_out_hands", "first_half",
                   "second_half", "average", "missed_rounds"]
STORED_FIELDS = [*COMPARED_FIELDS, "computed_at"]


def hold_recomputations(*, event_id: int) -> None:
    """Until this transaction ends, no recomputation of the event runs (a running one is
    waited for). Take it before locking the event's row: a recomputation that stores a new
    line needs to read that row (its foreign key), so the other order could deadlock."""
    _one_recomputation_at_a_time(event_id)


def _one_recomputation_at_a_time(event_id: int) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [ADVISORY_LOCK_CLASS, event_id % 2**31])
    elif connection.vendor != "sqlite":  # SQLite: the IMMEDIATE transaction already holds the write lock
        Event.objects.select_for_update().filter(pk=event_id).exists()


def _event_row_kept(event_id: int) -> None:
    """Take now the lock the new lines' foreign key takes at commit (FOR KEY SHARE on the
    event's row: Django's foreign keys are deferred on PostgreSQL). Taken at commit, after
    the state row is updated, it deadlocked with an organiser's action that locks the event
    row first and then raises the results version (end_round); taken first, the
    recomputation waits for that action before it holds anything the action needs. KEY
    SHARE waits only for FOR UPDATE: result entry and reads go on."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT 1 FROM {connection.ops.quote_name(Event._meta.db_table)} "
                           "WHERE id = %s FOR KEY SHARE", [event_id])


@transaction.atomic
def recompute_standings(*, event_id: int, only_if_stale: bool = False) -> int | None:
    """Recompute and store the standings; returns the number of lines, or None when
    `only_if_stale` and they are already computed from the latest results."""
    _one_recomputation_at_a_time(event_id)
    _event_row_kept(event_id)
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
    broadcast.publish(event.pk, broadcast.Change.STANDINGS)
    return len(rows)


def _record_version(event_id: int, version: int, now: datetime, awaiting: int = 0) -> None:
    """Last, so the state row (which result entry also updates) is held only briefly.
    `awaiting`: the hands these standings leave out until they are confirmed."""
    if not StandingsState.objects.filter(event_id=event_id).update(
            computed_version=Greatest(F("computed_version"), Value(version)), computed_at=now,
            awaiting_confirmation=awaiting):
        StandingsState.objects.get_or_create(event_id=event_id,
                                             defaults={"computed_at": now, "awaiting_confirmation": awaiting})
