"""Celery tasks of the evening: take ids, call a service, safe to run twice."""
from celery import shared_task
from django.core.cache import cache
from django.db import transaction

from . import ranking

PENDING_SECONDS = 60  # a lost task's mark expires: later changes then ask again


def pending_key(event_id):
    return f"standings-pending:{event_id}"


def recompute_standings_soon(event_id):
    """Once this transaction commits, have the standings recomputed, with at most one task
    waiting per event: a burst of 600 results costs a few recomputations, not 600. The
    task clears the mark before it reads the rows, so a change it may not see asks again."""

    def enqueue():
        if not cache.add(pending_key(event_id), True, PENDING_SECONDS):
            return  # a task is waiting and will read this change too
        try:
            recompute_standings.delay(event_id)
        except Exception:
            cache.delete(pending_key(event_id))  # nothing waits after all: the next change asks again
            raise

    transaction.on_commit(enqueue)


@shared_task
def recompute_standings(event_id):
    cache.delete(pending_key(event_id))  # before reading: a change from now on asks again
    return ranking.recompute_standings(event_id=event_id)


@shared_task
def plan_evening(event_id):
    """Compute the movement and seat round 1."""
    from .evening import plan_and_seat_first_round

    return plan_and_seat_first_round(event_id=event_id)
