"""Celery tasks of the seasons: take ids, call a service, safe to run twice."""
from celery import shared_task

from drive.seasons.services import table


@shared_task(ignore_result=True, name=table.RECOMPUTE_SEASON_TASK)
def recompute_season(season_id):
    return table.recompute_season(season_id=season_id)
