"""The REST API: status codes, field messages and permissions (negative tests)."""
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token


from drive.events.services import arrivals as arrival_services

from drive.events.services import registration as registration_services
from drive.events.models import Registration

pytestmark = pytest.mark.django_db


def login(api, user):
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return api


def test_public_sees_published_events_with_places(api, make_event, make_user):
    event = make_event(capacity=2)
    make_event(title="Draft", published=False)
    for _ in range(3):
        registration_services.register(actor=make_user(), event=event)
    body = api.get("/api/events/").json()
    assert [e["title"] for e in body] == ["Friday Drive"]
    assert body[0]["places_taken"] == 2 and body[0]["capacity"] == 2 and body[0]["waitlisted"] == 1


def test_the_list_is_in_order_of_start(api, make_event):
    """A client gets the same order every time: the earliest start first."""
    now = timezone.now()
    for title, days in (("Spring", 90), ("Autumn", -60), ("Christmas", 14), ("Harvest", -80)):
        make_event(title=title, starts_at=now + timedelta(days=days))
    assert [e["title"] for e in api.get("/api/events/").json()] == ["Harvest", "Autumn", "Christmas", "Spring"]


def test_unpublished_event_is_404_for_public_and_visible_to_organiser(api, make_event, organiser):
    draft = make_event(published=False)
    assert api.get(f"/api/events/{draft.pk}/").status_code == 404
    assert login(api, organiser).get(f"/api/events/{draft.pk}/").status_code == 200


def test_register_then_again_then_cancel(api, event, make_user):
    login(api, make_user())
    first = api.post(f"/api/events/{event.pk}/registration/")
    assert first.status_code == 201 and first.json()["status"] == "registered"
    assert api.post(f"/api/events/{event.pk}/registration/").status_code == 200
    assert api.get(f"/api/events/{event.pk}/registration/").json()["status"] == "registered"
    cancelled = api.delete(f"/api/events/{event.pk}/registration/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert [r["status"] for r in api.get("/api/me/registrations/").json()] == ["cancelled"]


def test_anonymous_register_is_403(api, event):
    assert api.post(f"/api/events/{event.pk}/registration/").status_code == 403


def test_closed_registration_is_409_with_reason(api, make_event, make_user):
    event = make_event(registration_closes_at=timezone.now() - timedelta(hours=1))
    response = login(api, make_user()).post(f"/api/events/{event.pk}/registration/")
    assert response.status_code == 409 and "closed" in response.json()["detail"]


def test_create_event_field_errors(api, club, organiser):
    login(api, organiser)
    response = api.post("/api/events/", {"club": club.pk, "title": "", "capacity": 2, "starts_at": "soon"}, format="json")
    assert response.status_code == 400
    assert {"title", "capacity", "starts_at"} <= set(response.json())
    ok = api.post("/api/events/", {"club": club.pk, "title": "Spring Drive", "capacity": 40,
                                   "starts_at": (timezone.now() + timedelta(days=9)).isoformat()}, format="json")
    assert ok.status_code == 201 and ok.json()["places_taken"] == 0


def test_business_rule_error_names_the_field(api, club, organiser):
    starts = timezone.now() + timedelta(days=9)
    response = login(api, organiser).post("/api/events/", {
        "club": club.pk, "title": "X", "capacity": 8, "starts_at": starts.isoformat(),
        "registration_closes_at": (starts + timedelta(days=1)).isoformat()}, format="json")
    assert response.status_code == 400 and "registration_closes_at" in response.json()


def test_player_cannot_create_edit_or_list_registrations(api, club, event, make_user):
    login(api, make_user())
    starts = (timezone.now() + timedelta(days=9)).isoformat()
    assert api.post("/api/events/", {"club": club.pk, "title": "X", "capacity": 8, "starts_at": starts}, format="json").status_code == 403
    assert api.patch(f"/api/events/{event.pk}/", {"capacity": 8}, format="json").status_code == 403
    assert api.get(f"/api/events/{event.pk}/registrations/").status_code == 403
    assert api.post(f"/api/events/{event.pk}/walk-ins/", {"display_name": "X"}, format="json").status_code == 403
    assert api.post(f"/api/events/{event.pk}/no-shows/").status_code == 403


def test_other_clubs_organiser_is_refused(api, event, other_club):
    login(api, other_club.organisers.get())
    assert api.patch(f"/api/events/{event.pk}/", {"capacity": 8}, format="json").status_code == 403
    assert api.get(f"/api/events/{event.pk}/registrations/").status_code == 403


def test_organiser_checks_in_walk_in_and_no_show(api, event, organiser, make_user):
    registration = registration_services.register(actor=make_user(), event=event)
    login(api, organiser)
    walk_in = api.post(f"/api/events/{event.pk}/walk-ins/", {"display_name": "Vera"}, format="json")
    assert walk_in.status_code == 201 and walk_in.json()["status"] == "checked_in"
    assert api.post(f"/api/events/{event.pk}/walk-ins/", {"display_name": ""}, format="json").status_code == 400
    assert api.post(f"/api/registrations/{registration.pk}/no-show/").json()["status"] == "no_show"
    assert api.post(f"/api/registrations/{registration.pk}/check-in/").json()["status"] == "checked_in"
    assert api.post(f"/api/registrations/{registration.pk}/no-show/").status_code == 409
    listing = api.get(f"/api/events/{event.pk}/registrations/").json()
    assert [r["status"] for r in listing] == ["checked_in", "checked_in"]  # nobody left to expect


def test_player_cannot_check_in_others(api, event, make_user):
    registration = registration_services.register(actor=make_user(), event=event)
    login(api, make_user())
    assert api.post(f"/api/registrations/{registration.pk}/check-in/").status_code == 403
    assert api.post(f"/api/registrations/{registration.pk}/cancel/").status_code == 403
    assert Registration.objects.get(pk=registration.pk).status == "registered"


def test_registration_of_unpublished_event_is_hidden(api, make_event, organiser, make_user):
    draft = make_event(published=False)
    registration = arrival_services.add_walk_in(actor=organiser, event=draft, display_name="Vera")
    login(api, make_user())
    assert api.post(f"/api/registrations/{registration.pk}/check-in/").status_code == 403
    assert api.post("/api/registrations/999999/check-in/").status_code == 404


def test_self_check_in_api(api, make_event, make_user):
    event = make_event(starts_at=timezone.now() + timedelta(minutes=30))
    user = make_user()
    registration_services.register(actor=user, event=event)
    login(api, user)
    assert api.post(f"/api/events/{event.pk}/check-in/", {"door_code": "nope"}, format="json").status_code == 404
    first = api.post(f"/api/events/{event.pk}/check-in/", {"door_code": event.door_code}, format="json").json()
    again = api.post(f"/api/events/{event.pk}/check-in/", {"door_code": event.door_code}, format="json").json()
    assert first["already_checked_in"] is False and again["already_checked_in"] is True


def test_signup_gives_a_token_and_a_player(api):
    response = api.post("/api/auth/signup/", {"username": "vera", "password": "pw-Whist-2026", "display_name": "Vera"}, format="json")
    assert response.status_code == 201 and response.json()["player"]["display_name"] == "Vera"
    weak = api.post("/api/auth/signup/", {"username": "ivan", "password": "123", "display_name": "Ivan"}, format="json")
    assert weak.status_code == 400 and "password" in weak.json()
    taken = api.post("/api/auth/signup/", {"username": "VERA", "password": "pw-Whist-2026", "display_name": "V"}, format="json")
    assert taken.status_code == 400 and "username" in taken.json()


def test_malformed_json_is_400_not_500(api, organiser):
    response = login(api, organiser).generic("POST", "/api/events/", "{not json", content_type="application/json")
    assert response.status_code == 400


def test_unknown_api_path_is_json_404(api):
    response = api.get("/api/events/not-a-number/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_far_dates_are_refused(api, club, organiser):
    response = login(api, organiser).post("/api/events/", {"club": club.pk, "title": "X", "capacity": 8,
                                                           "starts_at": "0001-01-01T01:00:00Z"}, format="json")
    assert response.status_code == 400 and "starts_at" in response.json()


def test_token_endpoint_is_rate_limited(api, make_user):
    make_user("guessme")
    codes = [api.post("/api/auth/token/", {"username": "guessme", "password": f"wrong{i}"}).status_code for i in range(25)]
    assert codes[0] == 400 and codes[-1] == 429


def test_publish_and_close_registration_api(api, make_event, organiser, make_user):
    draft = make_event(published=False)
    assert login(api, make_user()).post(f"/api/events/{draft.pk}/publish/").status_code == 404  # unseen draft
    login(api, organiser)
    assert api.post(f"/api/events/{draft.pk}/publish/").json()["published"] is True
    assert api.post(f"/api/events/{draft.pk}/close-registration/").status_code == 200
    assert api.post(f"/api/events/{draft.pk}/close-registration/").status_code == 409
