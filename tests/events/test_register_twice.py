"""Registering twice answers 201 once: the second request, at the same instant or later,
gets 200 with the one registration there is (API)."""
import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient


from drive.events.services import accounts as account_services

from drive.events.services import registration as registration_services
from drive.events.models import Registration
from tests.services import require_postgres


@pytest.mark.django_db
def test_register_again_answers_200_with_the_same_registration(api, event, make_user):
    api.force_authenticate(make_user())
    first = api.post(f"/api/events/{event.pk}/registration/")
    again = api.post(f"/api/events/{event.pk}/registration/")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["id"] == first.json()["id"] and again.json()["status"] == "registered"
    assert Registration.objects.filter(event=event).count() == 1


@pytest.mark.django_db
def test_register_again_from_the_waitlist_answers_200(api, make_event, make_user):
    event = make_event(capacity=1)
    registration_services.register(actor=make_user(), event=event)
    api.force_authenticate(make_user())
    first = api.post(f"/api/events/{event.pk}/registration/")
    again = api.post(f"/api/events/{event.pk}/registration/")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["status"] == "waitlisted" and again.json()["waitlist_position"] == 1


@pytest.mark.django_db
def test_register_after_cancelling_is_a_new_place(api, event, make_user):
    api.force_authenticate(make_user())
    api.post(f"/api/events/{event.pk}/registration/")
    api.delete(f"/api/events/{event.pk}/registration/")
    assert api.post(f"/api/events/{event.pk}/registration/").status_code == 201


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_registrations_at_the_same_instant_answer_201_and_200(event, make_user, monkeypatch):
    """Both requests are let on only once both have read whatever they read before the
    service's lock: the old API decided 201 there, from a read made before the lock."""
    require_postgres()
    user = make_user()
    account_services.player_for_user(user=user)
    both_in = threading.Barrier(2, timeout=30)
    found = account_services.player_for_user

    def player_for_user(**kwargs):
        player = found(**kwargs)
        both_in.wait()
        return player

    monkeypatch.setattr(registration_services, "player_for_user", player_for_user)  # as registering calls it
    answers, errors = [], []

    def register():
        try:
            client = APIClient()
            client.force_authenticate(user)
            response = client.post(f"/api/events/{event.pk}/registration/")
            answers.append((response.status_code, response.json()))
        except Exception as exc:  # collected and asserted below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=register) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert sorted(code for code, _ in answers) == [200, 201]
    registration = Registration.objects.get(event=event)  # one, not two
    assert {body["id"] for _, body in answers} == {registration.pk}
    assert {body["status"] for _, body in answers} == {"registered"}
