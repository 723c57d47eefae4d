"""Celery tasks of the evening: take ids, call a service, safe to run twice."""
from celery import shared_task

from drive.scoring.services import evening, online_tables, recompute


@shared_task(ignore_result=True, name=recompute.RECOMPUTE_TASK)
def recompute_standings(event_id):
    return recompute.recompute_waiting(event_id=event_id)


@shared_task(ignore_result=True)
def sweep_stale_standings():
    """Beat's periodic task (settings.CELERY_BEAT_SCHEDULE)."""
    return recompute.sweep_stale_standings()


@shared_task(name=evening.PLAN_EVENING_TASK)
def plan_evening(event_id):
    """Compute the movement and seat round 1."""
    return evening.plan_and_seat_first_round(event_id=event_id)


@shared_task(ignore_result=True, name="drive.scoring.tasks.finish_late_tables")
def finish_late_tables():
    """Beat's periodic task: robots finish the online hands of rounds past their deadline."""
    return online_tables.finish_late_tables()
