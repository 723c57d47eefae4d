"""Celery tasks of the seasons: take ids, call a service, safe to run twice."""
from celery import shared_task

from drive.seasons.services import grades, table


@shared_task(ignore_result=True, name=table.RECOMPUTE_SEASON_TASK)
def recompute_season(season_id):
    return table.recompute_season(season_id=season_id)


@shared_task(ignore_result=True, name=grades.UPDATE_GRADES_TASK)
def update_grades():
    return grades.update_grades()
