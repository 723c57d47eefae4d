"""Compute, store and re-plan an evening's movement (the algorithms are pure modules here)."""
from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from drive.core import broadcast
from drive.events.models import Event

from drive.movements.algorithms.build import Budget, build_movement, quality_report
from drive.movements.models import Entrant, Movement



def request_movement(*, event: Event, players: int) -> Movement:
    """A pending movement for `players`; the caller enqueues its computation."""
    movement, created = Movement.objects.get_or_create(
        event=event, defaults={"kind": event.movement_kind, "players": players, "rounds": event.rounds}
    )
    if not created:
        Movement.objects.filter(pk=movement.pk).update(
            kind=event.movement_kind, players=players, rounds=event.rounds, status=Movement.Status.PENDING,
            error="", version=F("version") + 1,
        )
        movement.refresh_from_db()
    return movement


def pinned_tables(*, event: Event) -> dict[int, int]:
    pins = Entrant.objects.filter(event=event, pinned_table__isnull=False).values_list("number", "pinned_table")
    return {number: table for number, table in pins if table is not None}


@transaction.atomic
def compute_movement(*, event_id: int, work_budget: int | None = None) -> Movement:
    """Build the whole plan of a designed movement and store it with its quality report.

    A progressive movement is only planned a round at a time (it follows the results),
    so its first round is laid out here and the rest when each round closes. The search
    spends a number of steps, not seconds: the same request gives the same plan on any
    machine (quality["search"] says if the safety net in seconds cut it short).
    """
    movement = Movement.objects.select_for_update().get(event_id=event_id)
    event = Event.objects.get(pk=event_id)
    budget = Budget(work_budget or settings.MOVEMENT_WORK_BUDGET, settings.MOVEMENT_SAFETY_SECONDS)
    built = build_movement(players=movement.players, kind=movement.kind, rounds=movement.rounds,
                           budget=budget, pinned=pinned_tables(event=event))
    movement.plan = built.to_json()
    movement.quality = quality_report(built)
    movement.source = built.source[:80]
    movement.status, movement.computed_at = Movement.Status.READY, timezone.now()
    movement.save()
    broadcast.publish(event_id, broadcast.Change.MOVEMENT)
    return movement


def mark_failed(*, event_id: int, error: str) -> None:
    Movement.objects.filter(event_id=event_id).update(status=Movement.Status.FAILED, error=error[:2000])
    broadcast.send_now(event_id, broadcast.Change.MOVEMENT)
