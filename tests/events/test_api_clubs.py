"""Creating a club through the API: the admin's rule (active staff with the add-club
permission), the admin's fields (name, slug, organisers), field messages for bad input."""
import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from rest_framework.authtoken.models import Token

from drive.core.errors import Forbidden
from drive.events.services import events as services
from drive.events.models import AuditEntry, Club

pytestmark = pytest.mark.django_db
URL = "/api/clubs/"


def with_token(api, user):
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return api


def may_add_clubs(user):
    user.user_permissions.add(Permission.objects.get(codename="add_club", content_type__app_label="events"))
    return type(user).objects.get(pk=user.pk)  # permissions are cached on the instance


@pytest.fixture
def club_maker(make_user):
    return may_add_clubs(make_user("staff", is_staff=True))


def test_staff_with_the_permission_creates_a_club(api, club_maker, make_user):
    make_user("vera")
    response = with_token(api, club_maker).post(URL, {"name": "Hall Green Whist", "slug": "hall-green",
                                                      "organisers": ["vera"]}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["name"] == "Hall Green Whist" and body["slug"] == "hall-green"
    assert sorted(body["organisers"]) == ["staff", "vera"]
    club = Club.objects.get(pk=body["id"])
    assert sorted(club.organisers.values_list("username", flat=True)) == ["staff", "vera"]
    entry = AuditEntry.objects.get(action="club.created")
    assert entry.actor == club_maker and entry.after["organisers"] == ["staff", "vera"]
    assert [c["slug"] for c in api.get("/api/me/clubs/").json()] == ["hall-green"]


def test_the_slug_is_made_from_the_name_when_left_out(api, club_maker):
    response = with_token(api, club_maker).post(URL, {"name": "St Anne's Whist Club"}, format="json")
    assert response.status_code == 201 and response.json()["slug"] == "st-annes-whist-club"
    assert response.json()["organisers"] == ["staff"]


def test_a_superuser_creates_a_club(api, make_user):
    admin = make_user("root", is_staff=True, is_superuser=True)
    assert with_token(api, admin).post(URL, {"name": "Root Club"}, format="json").status_code == 201


# --- who may: the admin's rule --------------------------------------------------------------------


def test_anonymous_is_refused(api):
    response = api.post(URL, {"name": "X"}, format="json")
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    assert not Club.objects.exists()


def test_a_bad_token_is_refused(api):
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert api.post(URL, {"name": "X"}, format="json").status_code == 403


@pytest.mark.parametrize("kind", ["player", "organiser", "staff without the permission"])
def test_who_may_not_is_refused_before_the_body_is_read(api, make_user, club, kind):
    user = {"player": lambda: make_user("p"), "organiser": lambda: club.organisers.get(),
            "staff without the permission": lambda: make_user("s", is_staff=True)}[kind]()
    response = with_token(api, user).post(URL, {"name": ""}, format="json")  # a bad body: still 403
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    assert Club.objects.count() == 1


def test_the_service_checks_too(make_user):
    with pytest.raises(Forbidden):
        services.create_club(actor=make_user("s", is_staff=True), name="X", slug="x")
    inactive = may_add_clubs(make_user("gone", is_staff=True, is_active=False))
    with pytest.raises(Forbidden):
        services.create_club(actor=inactive, name="X", slug="x")
    assert not Club.objects.exists()


@pytest.mark.parametrize("kind", ["player", "staff", "staff with the permission", "inactive staff with the permission",
                                  "superuser"])
def test_the_api_and_the_admin_agree_on_who_may_create_a_club(api, make_user, kind):
    user = make_user("u", is_staff=kind != "player", is_superuser=kind == "superuser",
                     is_active=not kind.startswith("inactive"))
    if "with the permission" in kind:
        user = may_add_clubs(user)
    browser = Client()
    browser.force_login(user)
    admin_allows = browser.get("/admin/events/club/add/").status_code == 200
    api.force_authenticate(user)
    api_allows = api.post(URL, {"name": f"Club {kind}"}, format="json").status_code == 201
    assert api_allows == admin_allows == (kind in ("staff with the permission", "superuser"))


# --- bad input: 400 with the field's message ------------------------------------------------------


@pytest.mark.parametrize("body, field", [
    ({}, "name"),
    ({"name": ""}, "name"),
    ({"name": "x" * 121}, "name"),
    ({"name": "Zero\u200bwidth"}, "name"),
    ({"name": "Club", "slug": "not a slug!"}, "slug"),
    ({"name": "Club", "slug": "x" * 61}, "slug"),
    ({"name": "Вистовый клуб"}, "slug"),  # nothing of the name makes a slug: ask for one
    ({"name": "Club", "organisers": ["nobody-has-this"]}, "organisers"),
    ({"name": "Club", "organisers": "staff"}, "organisers"),
])
def test_bad_input_is_a_field_message(api, club_maker, body, field):
    response = with_token(api, club_maker).post(URL, body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json() and response.json()[field]
    assert not Club.objects.exists()


def test_a_taken_slug_is_a_field_message(api, club_maker, club):
    response = with_token(api, club_maker).post(URL, {"name": "Another", "slug": club.slug}, format="json")
    assert response.status_code == 400 and "slug" in response.json()
    assert Club.objects.count() == 1


def test_the_schema_documents_club_creation(api):
    operation = api.get("/api/schema/?format=json").json()["paths"]["/api/clubs/"]["post"]
    assert {"201", "400", "403"} <= set(operation["responses"])
    assert "ClubCreate" in str(operation["requestBody"])
