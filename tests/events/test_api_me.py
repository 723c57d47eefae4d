"""The caller's own lists (/api/me/...): a login is needed, and without one the answer is
the API's usual refusal (403 "Please log in first."), never an empty list."""
import pytest
from rest_framework.authtoken.models import Token


from drive.events.services import registration as registration_services

pytestmark = pytest.mark.django_db
MINE = ["/api/me/registrations/", "/api/me/clubs/"]


def anonymous_refusal(api, event):
    """What the rest of the API answers a caller with no login (registering, here)."""
    response = api.post(f"/api/events/{event.pk}/registration/")
    assert response.status_code == 403
    return response.json()


@pytest.mark.parametrize("url", MINE)
def test_anonymous_is_refused_as_elsewhere_in_the_api(api, event, url):
    response = api.get(url)
    assert response.status_code == 403, response.content
    assert response.json() == anonymous_refusal(api, event) == {"detail": "Please log in first.", "code": "forbidden"}


@pytest.mark.parametrize("url", MINE)
def test_a_bad_token_is_refused(api, url):
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert api.get(url).status_code == 403


def test_a_player_gets_their_registrations(api, event, make_user):
    player = make_user("vera")
    registration_services.register(actor=player, event=event)
    registration_services.register(actor=make_user("ivan"), event=event)
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=player).key}")
    body = api.get("/api/me/registrations/").json()
    assert [(r["event"], r["player"]["display_name"]) for r in body] == [(event.pk, "vera")]
    assert api.get("/api/me/clubs/").json() == []


def test_an_organiser_gets_their_clubs(api, club, organiser):
    api.force_authenticate(organiser)
    assert [c["slug"] for c in api.get("/api/me/clubs/").json()] == [club.slug]


@pytest.mark.parametrize("url", MINE)
def test_the_schema_documents_the_refusal(api, url):
    operation = api.get("/api/schema/?format=json").json()["paths"][url]["get"]
    assert {"200", "403"} <= set(operation["responses"])
