"""Fifty registrations at the same instant for 32 places, on real PostgreSQL."""
import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone


from drive.events.services import registration as registration_services

from drive.events.services import accounts as account_services
from drive.events.models import Club, Event, Registration
from tests.services import require_postgres

Status = Registration.Status


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_fifty_at_once_for_thirty_two_places():
    require_postgres()
    club = Club.objects.create(name="C", slug="c")
    event = Event.objects.create(club=club, title="Busy", starts_at=timezone.now() + timedelta(days=2),
                                 capacity=32, published=True)
    users = [get_user_model().objects.create_user(username=f"p{i}", password="x") for i in range(50)]
    for user in users:
        account_services.player_for_user(user=user)
    barrier, errors = threading.Barrier(50), []

    def register(user):
        try:
            barrier.wait()
            registration_services.register(actor=user, event=event)
        except Exception as exc:  # collected and asserted below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=register, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    rows = list(Registration.objects.filter(event=event).order_by("registered_at", "id"))
    assert len(rows) == 50 and len({r.player_id for r in rows}) == 50  # no duplicates
    assert sum(r.status == Status.REGISTERED for r in rows) == 32
    waiting = [r for r in rows if r.status == Status.WAITLISTED]
    assert len(waiting) == 18
    # In arrival order: the 32 first through the lock have places, the waitlist numbers follow on.
    assert all(r.status == Status.REGISTERED for r in rows[:32])
    assert [r.waitlist_position for r in waiting] == list(range(1, 19))
