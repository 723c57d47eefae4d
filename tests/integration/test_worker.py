"""A cancellation promotes the waitlist through a real Celery worker on Redis."""
import time
from datetime import timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone


from drive.events.services import registration as registration_services
from drive.events.models import Registration

Status = Registration.Status


def wait_for(condition, seconds=60):  # generous: a loaded machine is slow, not wrong
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.redis
@pytest.mark.worker
def test_cancellation_promotes_via_worker(celery_worker, make_event, make_user):
    event = make_event(capacity=1, starts_at=timezone.now() + timedelta(days=1))
    first = registration_services.register(actor=make_user(), event=event)
    waiting = registration_services.register(actor=make_user(), event=event)
    with transaction.atomic():
        registration_services.cancel_registration(actor=first.player.user, registration=first)
        # Enqueued on commit only: the worker cannot run before the cancellation is saved.
        assert Registration.objects.get(pk=waiting.pk).status == Status.WAITLISTED
    assert wait_for(lambda: Registration.objects.get(pk=waiting.pk).status == Status.REGISTERED)
    assert wait_for(lambda: len(mail.outbox) == 1)
    assert mail.outbox[0].to == [waiting.player.user.email]


@pytest.mark.redis
@pytest.mark.worker
def test_task_runs_twice_without_double_promotion(celery_worker, make_event, make_user):
    from drive.events.tasks import promote_waitlist

    event = make_event(capacity=1)
    first = registration_services.register(actor=make_user(), event=event)
    second = registration_services.register(actor=make_user(), event=event)
    third = registration_services.register(actor=make_user(), event=event)
    Registration.objects.filter(pk=first.pk).update(status=Status.CANCELLED)
    results = [promote_waitlist.delay(event.pk).get(timeout=60) for _ in range(2)]
    assert results == [[second.pk], []]
    assert Registration.objects.get(pk=third.pk).status == Status.WAITLISTED
