"""Property-based tests of the REST API against its own OpenAPI schema (schemathesis).

Every operation of /api/schema/ is called with generated data, once anonymously and
once as an organiser with a token, against a database with a club, events (one
starting soon, one in a week, one unpublished) and registrations. A response must
never be a server error and its status code must be one the schema documents.
"""
import re
from datetime import timedelta

import pytest
import schemathesis
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.utils import timezone
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import status_code_conformance

from drive.events import services
from drive.events.models import Club, Event

CHECKS = [not_a_server_error, status_code_conformance]
HYPOTHESIS = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,  # the same cases every run: a failure here is reproducible
    suppress_health_check=list(HealthCheck),
    database=None,
)


@pytest.fixture
def api_world(db, make_user):
    """A club run by an organiser, its events and some registered players."""
    cache.clear()  # the sign-up and door throttles count in the cache
    organiser = make_user("organiser")
    club = Club.objects.create(name="St Mary's", slug="st-marys")
    club.organisers.add(organiser)
    now = timezone.now()
    soon = Event.objects.create(club=club, title="Tonight", venue="Hall", starts_at=now + timedelta(hours=1),
                                capacity=8, published=True)
    week = Event.objects.create(club=club, title="Friday Drive", venue="Hall", starts_at=now + timedelta(days=7),
                                capacity=4, published=True)
    draft = Event.objects.create(club=club, title="Draft", starts_at=now + timedelta(days=30), capacity=32)
    players = [make_user(f"player{i}") for i in range(6)]
    registrations = []
    for user in players[:5]:  # 4 places and one on the waitlist
        registrations.append(services.register(actor=user, event=week))
    for user in players[:3]:
        registrations.append(services.register(actor=user, event=soon))
    registrations.append(services.register(actor=organiser, event=soon))
    services.check_in(actor=organiser, registration=registrations[0])
    return {
        "token": Token.objects.create(user=organiser).key,
        "event_ids": [soon.pk, week.pk, draft.pk],
        "registration_ids": [r.pk for r in registrations],
        "door_code": soon.door_code,
    }


# Loaded at collection: one test item per operation. (`schemathesis.pytest.from_fixture`
# would load it per test, but it touches `Node._nodeid`, which pytest 9 no longer has.)
schema = schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())


def aim_at_real_rows(case, world):
    """Point most generated ids at rows that exist, so the views do more than 404."""
    params = case.path_parameters or {}
    for name, ids in (("event_id", world["event_ids"]), ("registration_id", world["registration_ids"])):
        value = params.get(name)
        if isinstance(value, int) and value % 5:
            params[name] = ids[value % len(ids)]
    if isinstance(case.body, dict) and isinstance(case.body.get("door_code"), str) and len(case.body["door_code"]) % 2:
        case.body["door_code"] = world["door_code"]


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


def test_swagger_ui_is_served_from_local_static_files(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html.lower()
    assert not re.search(r"cdn\.jsdelivr|unpkg\.com|cdnjs|googleapis", html), "Swagger UI must not load from a CDN"
    scripts = re.findall(r'(?:src|href)="([^"]+)"', html)
    assets = [url for url in scripts if "swagger" in url.lower()]
    assert assets, "no Swagger UI assets found in the page"
    for url in assets:
        assert url.startswith("/static/"), url
    # The bundle itself is there: the hall may have no internet.
    bundle = next(url for url in assets if url.endswith(".js"))
    assert client.get(bundle).status_code == 200
