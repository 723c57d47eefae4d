import os
import random
import threading
import time
import uuid
from datetime import timedelta
from types import SimpleNamespace

import pytest
from celery.contrib.testing.worker import start_worker
from channels import DEFAULT_CHANNEL_LAYER
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from drive.core import rendercache
from drive.celery import app as celery_app
from drive.events.models import Club, Event
from drive.games.services import actions, robots, tables
from engine import new_rng
from tests import chromium, flush

# Playwright's sync API runs an event loop in the test thread; the ORM calls of the
# test itself are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
flush.install()  # transactional tests end with DELETE on PostgreSQL, not TRUNCATE (tests/flush.py)


def pytest_runtest_setup(item):
    """A test that does not use the shared Chromium runs without it (tests/chromium.py):
    its driver's event loop would otherwise sit in this thread."""
    if "browser" not in item.fixturenames:
        chromium.stop()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item):
    """Before the test database is flushed, the live server's requests are over: a request
    still running (robots playing on after the test's last click) held row locks the flush
    waited on while it waited on the flush's (a deadlock in the teardown). The
    browser's pages go first, so no poll starts another."""
    if "live_server" not in item.fixturenames:
        return
    if "browser" in item.fixturenames:
        chromium.close_contexts()
    deadline = time.monotonic() + 60  # a hang bound: a robot's turn takes 2 s at most
    while time.monotonic() < deadline and any(
            thread.name.endswith("(process_request_thread)") and thread.is_alive() for thread in threading.enumerate()):
        time.sleep(0.05)


def pytest_sessionfinish(session):
    chromium.stop()


def pytest_configure(config):
    """xdist workers sharing one Redis database would take each other's tasks and messages."""
    if (os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get("REDIS_URL")
            and os.environ.get("WHIST_WORKER_ISOLATED") != os.environ["REDIS_URL"]):
        raise pytest.UsageError("xdist workers on Redis need `-p tests.worker_services` (bin/test gives it)")


@pytest.fixture(autouse=True)
def celery_eager(request):
    """Unit tests run tasks in-process; tests marked `worker` use a real worker."""
    if request.node.get_closest_marker("worker"):
        yield
        return
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


@pytest.fixture
def celery_worker(transactional_db):
    """A real Celery worker consuming from Redis, in a thread of this process."""
    from tests.services import require_redis

    require_redis()
    celery_app.conf.task_always_eager = False
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=30) as worker:
        yield worker


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the site's default language (a test or task that activates
    another must not leave it behind for the next)."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """Each test gets a channel layer of its own. A server process has one event loop, and
    the Redis layer binds its receive lock to the loop that first receives; pytest-asyncio
    gives every test a new loop, so a layer kept from an earlier test fails its receives."""
    from channels.layers import channel_layers

    channel_layers.backends.pop(DEFAULT_CHANNEL_LAYER, None)
    yield
    channel_layers.backends.pop(DEFAULT_CHANNEL_LAYER, None)


@pytest.fixture(autouse=True)
def _fresh_renderings():
    """No rendering kept in this process's memory from an earlier test (the cache is fresh too)."""
    rendercache.forget_local()
    yield


@pytest.fixture(autouse=True)
def _fresh_throttles(monkeypatch):
    """Each test starts with empty rate-limit counters (the Redis cache outlives a run)."""
    from django.core.cache.backends.locmem import LocMemCache
    from rest_framework.throttling import SimpleRateThrottle

    # LocMemCache instances of one name share their store: a new name is a new store.
    monkeypatch.setattr(SimpleRateThrottle, "cache", LocMemCache(f"throttle-{uuid.uuid4()}", {}))


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Small searches (steps, so the same on any machine): tests check that movements are
    # valid, tests/movements and bench/ check their quality with the real budgets.
    settings.MOVEMENT_WORK_BUDGET = 5_000
    settings.REPLAN_WORK_BUDGET = 1_000


@pytest.fixture
def seeded_deals(monkeypatch):
    """`seeded_deals(seed)`: from then on the tables' deals and the robots' draws come from
    one generator of that seed, so a test plays the same game every run, one picked short
    (whole games of random deals ran from one deal to 23, 12 s to two minutes in the
    browser). The service still deals through engine.new_rng; only its seed's source changes."""
    def seed(first):
        draws = random.Random(first)

        def rng():
            return new_rng(draws.getrandbits(64))

        monkeypatch.setattr(tables, "new_rng", rng)
        monkeypatch.setattr(actions, "new_rng", rng)
        monkeypatch.setattr(robots, "secrets", SimpleNamespace(randbits=draws.getrandbits))

    return seed


@pytest.fixture
def make_user(db):
    counter = iter(range(1, 100000))

    def make(username=None, **extra):
        name = username or f"user{next(counter)}"
        return get_user_model().objects.create_user(username=name, password="pw-Whist-2026", email=f"{name}@example.org", **extra)

    return make


@pytest.fixture
def organiser(make_user):
    return make_user("organiser")


@pytest.fixture
def club(organiser):
    club = Club.objects.create(name="St Mary's", slug="st-marys")
    club.organisers.add(organiser)
    return club


@pytest.fixture
def other_club(make_user):
    club = Club.objects.create(name="Rival Club", slug="rival")
    club.organisers.add(make_user("rival-organiser"))
    return club


@pytest.fixture
def make_event(club):
    def make(**fields):
        defaults = dict(club=club, title="Friday Drive", venue="Hall", starts_at=timezone.now() + timedelta(days=7),
                        capacity=32, published=True)
        return Event.objects.create(**{**defaults, **fields})

    return make


@pytest.fixture
def event(make_event):
    return make_event()


@pytest.fixture
def api():
    return APIClient()
