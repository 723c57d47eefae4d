"""Celery tasks of the evening: take ids, call a service, safe to run twice."""
from celery import shared_task

from . import ranking


@shared_task
def recompute_standings(event_id):
    return ranking.recompute_standings(event_id=event_id)


@shared_task
def plan_evening(event_id):
    """Compute the movement and seat round 1."""
    from .evening import plan_and_seat_first_round

    return plan_and_seat_first_round(event_id=event_id)
