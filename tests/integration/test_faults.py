"""Faults the evening survives, with real processes: Celery workers (and beat)
in subprocesses of their own on the test database, daphne, and Redis.

- A worker killed with SIGKILL while it holds the standings' recomputation: with no later
  result, the standings still come to equal a recompute from the rows (beat's sweep,
  whatever the pending mark says), and publishing gives exactly that.
- Redis stopped for 30 s while phones enter results (a private redis-server started by
  the test, never the shared one): every entry answers 2xx and is stored; once Redis is
  back the standings catch up by themselves and equal a recompute, and so do the
  published ones; the worker lives on.

The waits are bounded (up to two minutes) and only correctness is asserted, never time.
"""
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest
from django.core.cache import cache
from django.utils import timezone

from drive.celery import app as celery_app
from drive.events.models import Event, Player
from drive.movements.models import Entrant
from drive.scoring.services import evening as evenings
from drive.scoring.services import recompute
from drive.scoring.services import ranking
from drive.scoring.selectors import standings as standings_selectors
from drive.scoring.services import results
from drive.scoring.models import HandResult, Round, Seat, Standing, Table
from tests import seats, services
from tests.asgi_server import LOGS, ROOT, AsgiServer, database_url
from tests.private_redis import PrivateRedis

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.worker,
              pytest.mark.django_db(transaction=True)]

WAIT = 120  # seconds any recovery may take before the test says it did not happen
SWEEP_SECONDS = "3"  # beat's period in these tests (a setting: production runs 20)
TABLES, HANDS = 4, 4


# --- processes ---------------------------------------------------------------------------------


class WorkerProcess:
    """`celery -A drive worker --pool solo` (with `-B`: beat inside) in a session of its own,
    so SIGKILL takes the worker and its beat at once, as a crash would."""

    def __init__(self, redis_url, beat, name):
        self.name = f"{name}-{uuid.uuid4().hex[:6]}"
        LOGS.mkdir(parents=True, exist_ok=True)
        self.log_path = LOGS / f"celery-{self.name}.log"
        self.schedule = Path(LOGS) / f"beat-{self.name}"
        celery = Path(sys.executable).with_name("celery")
        self.command = [str(celery), "-A", "drive", "worker", "--pool", "solo", "--loglevel", "INFO",
                        "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"{self.name}@%h"]
        if beat:
            self.command += ["-B", "-s", str(self.schedule)]
        self.env = {**os.environ, "DATABASE_URL": database_url(), "REDIS_URL": redis_url, "DJANGO_DEBUG": "true",
                    "DJANGO_SETTINGS_MODULE": "drive.settings", "STANDINGS_SWEEP_SECONDS": SWEEP_SECONDS,
                    "DATABASE_POOL_MIN": "1", "DATABASE_POOL_MAX": "4"}
        self.process = None

    def start(self):
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(self.command, cwd=ROOT, env=self.env, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        return self

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def kill(self):
        """SIGKILL to the worker's whole session (the worker and its beat), no goodbye."""
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait(10)

    def stop(self):
        if self.alive():
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
        self.kill()  # whatever is left of the session (an embedded beat)


def _wait_for(condition, seconds=WAIT, pause=0.2):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(pause)
    return condition()


# --- the evening -------------------------------------------------------------------------------


def build_evening(make_event):
    """16 players at 4 tables, round 1 playing, 4 hands a round, 2 rounds."""
    event = make_event(title="Faults Drive", hands_per_round=HANDS, rounds=2, phase=Event.Phase.IN_PROGRESS,
                       movement_kind="individual", prizes=["First", "Booby prize"])
    entrants = [Entrant.objects.create(event=event, player=Player.objects.create(display_name=f"F{n}"), number=n)
                for n in range(1, 4 * TABLES + 1)]
    tables = [Table.objects.create(event=event, number=n) for n in range(1, TABLES + 1)]
    first = Round.objects.create(event=event, number=1, state=Round.State.PLAYING, started_at=timezone.now(),
                                 deadline=timezone.now() + timedelta(minutes=20))
    Round.objects.create(event=event, number=2)
    for t, table in enumerate(tables):
        for p, position in enumerate("NESW"):
            Seat.objects.create(round=first, table=table, position=position, entrant=entrants[4 * t + p])
    return event, tables


def ns_tricks(table, hand):
    return (table.number * 3 + hand * 5) % 14  # 0..13, different at every table and hand


def stored_lines(event):
    return {s.entrant_id: (s.place, s.shared, s.total, s.hands_played, s.hands_won, s.sit_out_hands)
            for s in Standing.objects.filter(event=event)}


def recomputed_lines(event):
    return {line.entrant: (place, shared, line.total, len(line.scores), line.won,
                           len(line.sat_out_rounds) * event.hands_per_round)
            for place, shared, line in standings_selectors.compute_for(event)}


def caught_up(event):
    """The stored standings are those of every row, and say so."""
    state = standings_selectors.state_of(event.pk)
    return state is not None and not state.stale and stored_lines(event) == recomputed_lines(event)


# --- a worker killed mid-recompute -----------------------------------------------------------------


def advisory_waiters(event):
    """Sessions waiting for the event's recomputation lock (ranking's advisory lock)."""
    return advisory_sessions(event, "AND NOT granted")


def advisory_sessions(event, condition=""):
    return psycopg_scalar(
        f"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s AND objid = %s {condition}",
        (ranking.ADVISORY_LOCK_CLASS, event.pk % 2**31))


def psycopg_scalar(sql, params):
    with psycopg.connect(database_url(), autocommit=True) as conn:
        return conn.execute(sql, params).fetchone()[0]


def enter_in_process(table, hand, tricks):
    """Both sides of a table enter the hand, through the services (committed at once)."""
    for seat in ("N", "E"):
        seats.enter(table=table, seat=seat, hand_number=hand, ns_tricks=tricks, trump="H")


def test_a_worker_killed_mid_recompute_is_made_good_by_the_sweep(make_event, organiser):
    services.require_postgres()
    services.require_redis()
    from django.conf import settings

    celery_app.control.purge()
    event, tables = build_evening(make_event)
    for table in tables:
        enter_in_process(table, 1, ns_tricks(table, 1))
    ranking.recompute_standings(event_id=event.pk)  # the standings of hand 1: stored, current
    for table in tables:
        for hand in range(2, HANDS + 1):
            enter_in_process(table, hand, ns_tricks(table, hand))  # one task queued (the pending mark)
    assert standings_selectors.state_of(event.pk).stale

    # The organiser's hold on the event's lock stands for a slow recomputation: the
    # worker takes the task (acks_late: unacknowledged) and waits inside it.
    lock = psycopg.connect(database_url())
    lock.execute("SELECT pg_advisory_xact_lock(%s, %s)", (ranking.ADVISORY_LOCK_CLASS, event.pk % 2**31))
    first = WorkerProcess(settings.REDIS_URL, beat=False, name="killed").start()
    second = None
    try:
        assert _wait_for(lambda: advisory_waiters(event) == 1), f"the worker never took the task: {first.log_path}"
        first.kill()  # kill -9 while it holds the task
        lock.rollback()
        # The killed worker's database session notices it is alone once it gets the lock.
        assert _wait_for(lambda: advisory_sessions(event) == 0), "the killed worker's session stayed"
        assert standings_selectors.state_of(event.pk).stale and stored_lines(event) != recomputed_lines(event)
        # A mark that would block every later ask for an hour, as it once did.
        cache.set(recompute.pending_key(event_id=event.pk), True, 3600)

        # No later result: a new worker with beat, and nothing else happens.
        second = WorkerProcess(settings.REDIS_URL, beat=True, name="after-kill").start()
        assert _wait_for(lambda: caught_up(event)), f"the standings never caught up: {second.log_path}"
    finally:
        lock.close()
        first.kill()
        if second is not None:
            second.stop()
        cache.delete(recompute.pending_key(event_id=event.pk))

    # Publishing: a correction nobody recomputes (no worker now), then publish.
    results.correct_result(actor=organiser, table=tables[0], round_number=1, hand_number=1,
                           ns_tricks=13 - ns_tricks(tables[0], 1), reason="The E-W card was right")
    Standing.objects.filter(event=event).update(total=0)  # and stored standings as wrong as can be
    finish_and_publish(event, organiser)
    assert caught_up(event)
    assert HandResult.objects.filter(round__event=event, status=HandResult.Status.CONFIRMED).count() == TABLES * HANDS
    celery_app.control.purge()


# --- Redis stopped for 30 s during entry --------------------------------------------------------------


def post(base, path, body, headers=None):
    """(status, JSON body) of a POST; status 0 when no answer came."""
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Accept": "application/json",
                                              **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")
    except OSError as error:
        return 0, repr(error)


def claim(base, table, seat):
    status, content = post(base, f"/api/tables/{table.token}/claims/", {"seat": seat})
    assert status in (200, 201), content
    return content["claim"]


OUTAGE_SECONDS = 30


def test_redis_stopped_for_30_s_during_entry(make_event, organiser):
    services.require_postgres()
    services.require_redis()
    redis = PrivateRedis().start()
    server = AsgiServer("faults-redis")
    server.env.update(REDIS_URL=redis.url, DATABASE_POOL_MIN="1", DATABASE_POOL_MAX="4")
    worker = WorkerProcess(redis.url, beat=True, name="outage")
    try:
        server.start()
        worker.start()
        event, tables = build_evening(make_event)
        claims = {(t.number, seat): claim(server.url, t, seat) for t in tables for seat in ("N", "E")}
        answers = []

        def enter(table, hand):
            for seat in ("N", "E"):
                began = time.perf_counter()
                status, content = post(server.url, f"/api/tables/{table.token}/results/",
                                       {"hand_number": hand, "ns_tricks": ns_tricks(table, hand), "trump": "H"},
                                       headers={"X-Seat-Claim": claims[(table.number, seat)]})
                answers.append((table.number, hand, seat, status, content, time.perf_counter() - began))

        for table in tables:
            enter(table, 1)
        assert _wait_for(lambda: caught_up(event)), f"no recomputation with Redis up: {worker.log_path}"

        redis.stop()
        stopped = time.monotonic()
        later = [(table, hand) for hand in range(2, HANDS) for table in tables]  # the last hand after it
        for i, (table, hand) in enumerate(later):  # spread over the outage, as a room enters
            time.sleep(max(0.0, stopped + i * OUTAGE_SECONDS / len(later) - time.monotonic()))
            enter(table, hand)
        time.sleep(max(0.0, stopped + OUTAGE_SECONDS - time.monotonic()))
        assert standings_selectors.state_of(event.pk).stale  # nothing could be recomputed meanwhile
        redis.start()  # empty: whatever was queued is gone with it

        refused = [a for a in answers if not 200 <= a[3] < 300]
        assert refused == [], refused
        print(f"entries during the outage: {len(answers) - 2 * TABLES}, slowest answer "  # a figure, never a bound
              f"{max(a[5] for a in answers[2 * TABLES:]):.2f} s (Redis up: {max(a[5] for a in answers[:2 * TABLES]):.2f} s)")
        # No later result: the sweep alone brings the standings up to the rows.
        assert _wait_for(lambda: caught_up(event)), f"the standings never caught up: {worker.log_path}"
        assert worker.alive(), f"the worker exited during the outage: {worker.log_path}"

        # Redis is back for the web side too: the last hand's entries are queued again.
        not_queued = server.log_path.read_text(errors="replace").count("not queued")
        for table in tables:
            enter(table, HANDS)
        assert [a for a in answers if not 200 <= a[3] < 300] == []
        assert _wait_for(lambda: caught_up(event)), f"the last hand never counted: {worker.log_path}"
        assert server.log_path.read_text(errors="replace").count("not queued") == not_queued
        for table in tables:
            for hand in range(1, HANDS + 1):
                stored = HandResult.objects.get(round__event=event, table=table, hand_number=hand)
                assert (stored.ns_tricks, stored.status) == (ns_tricks(table, hand), HandResult.Status.CONFIRMED)
        assert server.process.poll() is None
    finally:
        worker.stop()
        server.stop()
        redis.stop()
    finish_and_publish(event, organiser)
    assert caught_up(event)


def finish_and_publish(event, organiser):
    Round.objects.filter(event=event, number=1).update(state=Round.State.CLOSED, closed_at=timezone.now())
    Event.objects.filter(pk=event.pk).update(phase=Event.Phase.FINISHED)
    event.refresh_from_db()
    evenings.publish_results(actor=organiser, event=event)
    assert Event.objects.get(pk=event.pk).phase == Event.Phase.RESULTS_PUBLISHED
