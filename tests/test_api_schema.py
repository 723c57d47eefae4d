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


from drive.events.services import arrivals as arrival_services
from tests import contract_build

from drive.events.services import registration as registration_services
from drive.events.models import Club, Event
from drive.seasons.services import seasons as season_services

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
contract_build.install()  # each operation's test built in the worker that runs it (tests/contract_build.py)


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
    registrations = [registration_services.register(actor=user, event=friday) for user in players]  # 4 places + 1 waiting
    registrations += [registration_services.register(actor=user, event=tonight) for user in [*players[:3], organiser]]
    arrival_services.check_in(actor=organiser, registration=registrations[0])
    season = season_services.create_season(actor=organiser, club=club, name="Winter", starts_on=now.date(),
                                           ends_on=now.date() + timedelta(days=90), score="placing_points",
                                           placing_points=[10, 8, 6], best_of=6, min_evenings=2)
    # Players whose history the organiser may read: the registered ones (a history, a grade).
    player_ids = sorted({registration.player_id for registration in registrations})
    return {
        "token": Token.objects.create(user=organiser).key,
        "club_id": club.pk,
        "season_ids": [season.pk],
        "player_ids": player_ids,
        "event_ids": [tonight.pk, friday.pk, draft.pk],
        "registration_ids": [r.pk for r in registrations],
        "door_code": tonight.door_code,
    }


def aim_at_real_rows(case, world):
    """Point most generated ids at rows that exist, so the views do more than 404.

    One integer in seven is left as generated, to keep the "no such row" paths covered.
    """
    params = case.path_parameters or {}
    for name, ids in (("event_id", world["event_ids"]), ("registration_id", world["registration_ids"]),
                      ("club_id", [world["club_id"]]), ("season_id", world["season_ids"]),
                      ("player_id", world["player_ids"])):
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


@pytest.mark.contract
@schema.parametrize()
@HYPOTHESIS
def test_api_anonymous(case, api_world):
    aim_at_real_rows(case, api_world)
    case.call_and_validate(checks=CHECKS)


@pytest.mark.contract
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
    registration_services.register(actor=organiser, event=event)
    api.force_authenticate(organiser)
    refused = api.patch(f"/api/events/{event.pk}/", {"starts_at": "0001-01-01T01:00:00Z"}, format="json")
    assert refused.status_code == 400 and "starts_at" in refused.json()
    type(event).objects.filter(pk=event.pk).update(starts_at=datetime(1, 1, 1, 1, tzinfo=dt_timezone.utc))  # e.g. admin
    response = api.post(f"/api/events/{event.pk}/check-in/", {"door_code": event.door_code}, format="json")
    assert response.status_code == 200  # the event "started" long ago: the door is open


# --- bodies no client should send: nested deeply, or too large -----------
# Ten thousand nested `[` gave a 500 on every JSON endpoint, the login included. Every
# operation that takes a body gets them, anonymously and as the organiser: never a server
# error, always a JSON answer; past the limits a 400 with `detail` and `code`.

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from drive.core.limits import JSON_MAX_DEPTH  # noqa: E402
from tests.scoring.conftest import evening, table1  # noqa: E402,F401  (fixtures: a running evening)


def body_operations():
    for path, operations in schema.raw_schema["paths"].items():
        for method, operation in operations.items():
            if method in {"post", "put", "patch"}:
                yield method, path, operation


@pytest.fixture
def callers(organiser, evening, table1):  # noqa: F811
    """Every body operation's URL, with ids of rows that exist, and who calls it."""
    ids = {"{event_id}": str(evening.pk), "{registration_id}": "1", "{token}": table1.token}
    urls = []
    for method, path, _operation in body_operations():
        for placeholder, value in ids.items():
            path = path.replace(placeholder, value)
        urls.append((method.upper(), path))
    assert len(urls) >= 15
    organiser_token = Token.objects.create(user=organiser).key
    return urls, [{}, {"HTTP_AUTHORIZATION": f"Token {organiser_token}"}]


def nested(depth, kind):
    """JSON nested `depth` levels: lists, objects, or both in turn, with a value at the bottom."""
    opening = {"list": "[", "object": '{"a":', "mixed": '[{"a":'}[kind]
    closing = {"list": "]", "object": "}", "mixed": "}]"}[kind]
    repeat = depth if kind != "mixed" else max(1, depth // 2)
    return opening * repeat + "1" + closing * repeat


@pytest.mark.contract
@given(depth=st.one_of(st.integers(JSON_MAX_DEPTH - 2, JSON_MAX_DEPTH + 2), st.integers(33, 20_000)),
       kind=st.sampled_from(["list", "object", "mixed"]))
@hypothesis_settings(max_examples=12, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck))
def test_deeply_nested_bodies_are_never_a_server_error(client, callers, depth, kind):
    urls, identities = callers
    body = nested(depth, kind)
    for headers in identities:
        for method, url in urls:
            cache.clear()  # the rate limits count in the cache: this is not about them
            response = client.generic(method, url, body, content_type="application/json", **headers)
            assert response.status_code < 500, (method, url, depth, kind)
            assert response["Content-Type"].startswith("application/json"), (method, url)
            if response.status_code == 400 and depth > JSON_MAX_DEPTH + 1:
                assert response.json().get("code") in {"too_deep", None}, response.json()


def test_oversized_bodies_are_a_json_400_everywhere(client, callers, settings):
    urls, identities = callers
    body = '{"a": "' + "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE + '"}'
    for headers in identities:
        for method, url in urls:
            response = client.generic(method, url, body, content_type="application/json", **headers)
            assert response.status_code == 400, (method, url)
            assert response.json() == {"detail": "The request is too large.", "code": "too_large"}, (method, url)


def test_the_deepest_allowed_body_is_read_and_one_more_level_is_refused(client, callers):
    urls, _identities = callers
    allowed = client.post("/api/auth/token/", '{"username": ' + nested(JSON_MAX_DEPTH - 1, "list") + "}",
                          content_type="application/json")
    assert allowed.status_code == 400 and "code" not in allowed.json()  # read: a field message
    refused = client.post("/api/auth/token/", '{"username": ' + nested(JSON_MAX_DEPTH, "list") + "}",
                          content_type="application/json")
    assert refused.status_code == 400 and refused.json()["code"] == "too_deep"
