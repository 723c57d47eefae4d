"""Celery tasks of online tables: take ids, call a service, safe to run twice."""
from celery import shared_task

from drive.games.services import reviews, robots
from drive.games.services.actions import ROBOT_PENDING_SECONDS, ROBOT_TASK


@shared_task(ignore_result=True, name=ROBOT_TASK, expires=ROBOT_PENDING_SECONDS)
def robot_move(table_id, version):
    """The robot to act at `version` plays (the caller's countdown is its human-like pause).
    Queued in settings.PLAY_ROBOT_QUEUE or PLAY_ROBOT_SLOW_QUEUE, one a table at most;
    not run within ROBOT_PENDING_SECONDS it expires, and beat's sweep asks again."""
    return robots.play_robot(table_id=table_id, version=version)


@shared_task(ignore_result=True, name="drive.games.tasks.sweep_silent_seats")
def sweep_silent_seats():
    """Beat's periodic task (settings.CELERY_BEAT_SCHEDULE)."""
    return robots.sweep_silent_seats()


@shared_task(ignore_result=True, name=reviews.REVIEW_TASK)
def review_hand(table_id, hand):
    """A finished hand's double-dummy review, computed once and stored (the default queue:
    seconds of solving must not hold the robots' moves back)."""
    return reviews.store_review(table_id=table_id, hand=hand)


@shared_task(ignore_result=True, name="drive.games.tasks.close_idle_tables")
def close_idle_tables():
    """Beat's periodic task: casual tables nobody has come to for long are closed."""
    return robots.close_idle_tables()
