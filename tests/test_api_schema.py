"""Property-based tests of the REST API against its own OpenAPI schema (schemathesis).

Every operation of /api/schema/ is called with generated data (schemathesis' examples,
coverage and fuzzing phases), once anonymously and once as an organiser with a token,
against a database with a club, three events (starting in an hour, in a week, and an
unpublished draft) and registrations. No response may be a server error and every
status code must be one the schema documents.
"""
import re
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
import schemathesis
from django.contrib.staticfiles import finders
from django.core import signals
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from django.utils import timezone
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import status_code_conformance

from drive.events import services
from drive.events.models import Club, Event

# The acceptance bar: no 5xx, no status code the schema does not list. (Not checked
# here: 404s of the URL resolver for a malformed id are Django's HTML page, not JSON.)
CHECKS = [not_a_server_error, status_code_conformance]

HYPOTHESIS = hypothesis_settings(
    max_examples=30,  # per operation, fuzzing phase; examples and coverage phases come on top
    deadline=None,
    derandomize=True,  # the same cases every run, so a failure reproduces
    database=None,
    suppress_health_check=list(HealthCheck),  # function-scoped fixtures, slow-ish data
)


class DjangoWSGIApp:
    """Django's WSGI handler, minus closing the database connection after each request.

    A plain WSGIHandler closes the connection when a response ends, which would drop the
    test's transaction; Django's own test client unhooks the same signal handler.
    """

    def __init__(self):
        self.handler = WSGIHandler()

    def __call__(self, environ, start_response):
        signals.request_started.disconnect(close_old_connections)
        signals.request_finished.disconnect(close_old_connections)
        try:
            response = self.handler(environ, start_response)
            try:
                return [b"".join(response)]
            finally:
                response.close()
        finally:
            signals.request_started.connect(close_old_connections)
            signals.request_finished.connect(close_old_connections)


# Loaded at collection, giving one test item per operation. (schemathesis.pytest.from_fixture
# would load it inside the test, but schemathesis 4.32 sets `Node._nodeid` there, which
# pytest 9 no longer has.) Building the schema does not touch the database.
schema = schemathesis.openapi.from_wsgi("/api/schema/", DjangoWSGIApp())


@pytest.fixture
def api_world(db, make_user):
    """A club run by an organiser, its events and some registered players."""
    cache.clear()  # the sign-up and door throttles count in the cache
    organiser = make_user("organiser")
    club = Club.objects.create(name="St Mary's", slug="st-marys")
    club.organisers.add(organiser)
    now = timezone.now()
    tonight = Event.objects.create(club=club, title="Tonight", venue="Hall", starts_at=now + timedelta(hours=1),
                                   capacity=8, published=True)
    friday = Event.objects.create(club=club, title="Friday Drive", venue="Hall", starts_at=now + timedelta(days=7),
                                  capacity=4, published=True)
    draft = Event.objects.create(club=club, title="Draft", starts_at=now + timedelta(days=30), capacity=32)
    players = [make_user(f"player{i}") for i in range(5)]
    registrations = [services.register(actor=user, event=friday) for user in players]  # 4 places + 1 waiting
    registrations += [services.register(actor=user, event=tonight) for user in [*players[:3], organiser]]
    services.check_in(actor=organiser, registration=registrations[0])
    return {
        "token": Token.objects.create(user=organiser).key,
        "club_id": club.pk,
        "event_ids": [tonight.pk, friday.pk, draft.pk],
        "registration_ids": [r.pk for r in registrations],
        "door_code": tonight.door_code,
    }


def aim_at_real_rows(case, world):
    """Point most generated ids at rows that exist, so the views do more than 404.

    One integer in seven is left as generated, to keep the "no such row" paths covered.
    """
    params = case.path_parameters or {}
    for name, ids in (("event_id", world["event_ids"]), ("registration_id", world["registration_ids"])):
        value = params.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value % 7 != 3:
            params[name] = ids[value % len(ids)]
    body = case.body
    if isinstance(body, dict):
        club = body.get("club")
        if isinstance(club, int) and not isinstance(club, bool) and club % 7 != 3:
            body["club"] = world["club_id"]
        door_code = body.get("door_code")
        if isinstance(door_code, str) and len(door_code) % 2:
            body["door_code"] = world["door_code"]


@schema.parametrize()
@HYPOTHESIS
def test_api_anonymous(case, api_world):
    aim_at_real_rows(case, api_world)
    case.call_and_validate(checks=CHECKS)


@schema.parametrize()
@HYPOTHESIS
def test_api_as_organiser(case, api_world):
    aim_at_real_rows(case, api_world)
    case.call_and_validate(headers={"Authorization": f"Token {api_world['token']}"}, checks=CHECKS)


def test_a_bad_token_gets_a_documented_status_everywhere(client, api_world):
    """A stale or mistyped token is refused (403) and the schema says so, on every operation."""
    event_id, registration_id = api_world["event_ids"][0], api_world["registration_ids"][0]
    checked, undocumented = 0, []
    for path, operations in schema.raw_schema["paths"].items():
        url = path.replace("{event_id}", str(event_id)).replace("{registration_id}", str(registration_id))
        for method, operation in operations.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            response = client.generic(method.upper(), url, HTTP_AUTHORIZATION="Token not-a-real-token")
            if str(response.status_code) not in operation["responses"]:
                undocumented.append(f"{method.upper()} {path}: {response.status_code}")
            checked += 1
    assert checked >= 15
    assert not undocumented, undocumented


def test_swagger_ui_is_served_from_local_static_files(client, settings):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html.lower()
    # Nothing from a CDN (drf-spectacular's default is cdn.jsdelivr.net), nor any other host.
    assert not re.search(r"cdn\.jsdelivr|unpkg\.com|cdnjs|https?://|(?:src|href)=\"//", html), "loads from the internet"
    assets = [url for url in re.findall(r'(?:src|href)="([^"]+)"', html) if "swagger" in url.lower()]
    assert any(url.endswith(".js") for url in assets) and any(url.endswith(".css") for url in assets), assets
    static_url = "/" + settings.STATIC_URL.lstrip("/")
    for url in assets:
        assert url.startswith(static_url), url
        # The files ship with the app (drf-spectacular-sidecar): the hall may have no internet.
        assert finders.find(url.removeprefix(static_url)), f"{url} is not among the static files"


# --- regressions: server errors found by probing past what the generator reached --------------


@pytest.mark.parametrize(
    "username",
    [
        "\ufdfa" * 10,  # NFKC turns each into 18 characters, spaces among them
        "\ufb01" * 100,  # "ﬁ" becomes "fi": 200 characters, over the 150 of the column (500 on PostgreSQL)
        "ＡLICE",  # full-width: stored as "ALICE", which "alice" already has (500: unique constraint)
    ],
)
def test_sign_up_checks_the_username_as_it_will_be_stored(api, make_user, username):
    make_user("alice")
    response = api.post("/api/auth/signup/", {"username": username, "password": "Whist-drive-2026!",
                                              "display_name": "X"}, format="json")
    assert response.status_code == 400, response.content
    assert "username" in response.json()


def test_door_check_in_of_an_event_dated_in_year_one_is_no_server_error(api, make_event, organiser):
    event = make_event(starts_at=timezone.now() + timedelta(hours=1))
    services.register(actor=organiser, event=event)
    api.force_authenticate(organiser)
    refused = api.patch(f"/api/events/{event.pk}/", {"starts_at": "0001-01-01T01:00:00Z"}, format="json")
    assert refused.status_code == 400 and "starts_at" in refused.json()
    type(event).objects.filter(pk=event.pk).update(starts_at=datetime(1, 1, 1, 1, tzinfo=dt_timezone.utc))  # e.g. admin
    response = api.post(f"/api/events/{event.pk}/check-in/", {"door_code": event.door_code}, format="json")
    assert response.status_code == 200  # the event "started" long ago: the door is open
