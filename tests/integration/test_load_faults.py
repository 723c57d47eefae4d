"""The evening under load and faults, through a real daphne on PostgreSQL with Redis and a
real Celery worker:

- 100 tables enter the same hand at once: 0 errors, every entry answered 2xx is stored,
  the server's PostgreSQL connections stay within its pool (PostgreSQL counts them), and
  the published standings equal a recompute from the rows (rules D3-D5);
- daphne killed (SIGKILL) and started again on the same port mid-round: the phones retry,
  every entry answered 2xx is stored, the standings equal a recompute (a kill between an
  entry's pending mark and its task leaves the mark for 30 s: beat's sweep makes that good,
  so a real beat runs here, as in production);
- Redis stopped under the live feed (a private redis-server, never the shared one): the
  open sockets are closed (pages fall back to polling), and once Redis is back a new
  socket gets updates.

Correctness only: how long it all takes is bench/evening_load.py's business.
"""
import random
import threading
import time
from decimal import Decimal

import psycopg
import pytest
from asgiref.sync import async_to_sync
from channels_redis.core import RedisChannelLayer
from django.db import connection

from drive.core.broadcast import event_group
from drive.movements.models import Entrant
from drive.scoring.models import HandResult, Table
from tests import table_phones as phones
from tests.asgi_server import AsgiServer
from tests.celery_beat import CeleryBeat
from tests.integration.test_evening_load import (HANDS, ROUNDS, TABLES, _wait_for, build_evening, expected_lines,
                                                 ns_tricks, stored_lines)
from tests.private_redis import private_redis  # noqa: F401 - a fixture
from tests.services import require_postgres, require_redis

SWEEP_SECONDS = 3  # beat's period here (production runs 20)
SERVER_POOL = 4  # the server's DATABASE_POOL_MAX: small, so that 100 tables must queue for it
APP_NAME = "whist-load-faults"  # how PostgreSQL tells the server's connections from the others


@pytest.fixture
def evening(celery_worker):
    """400 players at 100 tables, rounds 1-7 stored, round 8 playing; a daphne of its own
    with a small pool; a real worker recomputing the standings and a real beat sweeping."""
    require_postgres()
    require_redis()
    from drive.celery import app

    app.control.purge()
    event, playing = build_evening(played_rounds=ROUNDS - 1, title="Load Drive")
    server = AsgiServer("load-faults")
    server.env.update(DATABASE_URL=server.env["DATABASE_URL"] + f"?application_name={APP_NAME}",
                      DATABASE_POOL_MIN="1", DATABASE_POOL_MAX=str(SERVER_POOL), DJANGO_LOG_LEVEL="WARNING")
    server.start()
    beat = CeleryBeat(SWEEP_SECONDS).start()
    tokens = {t.number: t.token for t in Table.objects.filter(event=event)}
    yield event, playing, server, tokens
    beat.stop()
    server.stop()
    app.control.purge()


class ConnectionCount(threading.Thread):
    """Samples PostgreSQL's own count of the server's connections (and of all connections
    to the test database) from a connection to another database."""

    def __init__(self):
        super().__init__(daemon=True)
        db = connection.settings_dict
        self.dsn = (f"host={db.get('HOST') or '127.0.0.1'} port={db.get('PORT') or 5432} "
                    f"user={db.get('USER') or 'postgres'} dbname=postgres")
        self.name_, self.server_most, self.database_most = db["NAME"], 0, 0
        self.done = threading.Event()

    def run(self):
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            while not self.done.is_set():
                server, total = conn.execute(
                    "SELECT count(*) FILTER (WHERE application_name = %s), count(*) FROM pg_stat_activity "
                    "WHERE datname = %s", (APP_NAME, self.name_)).fetchone()
                self.server_most, self.database_most = max(self.server_most, server), max(self.database_most, total)
                time.sleep(0.02)

    def stop(self):
        self.done.set()
        self.join(10)


def claim_both_sides(base, tokens):
    """N (who enters) and E (who confirms) of every table claim their seats."""
    secrets, errors = {}, []
    for number, token in tokens.items():
        for seat in ("N", "E"):
            status, secret = phones.claim(base, token, seat)
            if status != 201:
                errors.append((number, seat, status, secret))
            secrets[number, seat] = secret
    assert errors == []
    return secrets


def play_tables(base, tokens, secrets, round_number, *, retry_until=None, answered=None):
    """Every table in a thread of its own: after a barrier (all tables at once), N enters
    each hand and E confirms it. With `retry_until`, an entry not answered (or answered
    5xx) is sent again, as a phone would. Returns {(table, seat, hand): final status} and
    the answers that were not 2xx."""
    finals, failures, lock = {}, [], threading.Lock()
    barrier = threading.Barrier(len(tokens))

    def table(number):
        barrier.wait()
        for hand in range(1, HANDS + 1):
            for seat in ("N", "E"):
                def send():
                    return phones.enter(base, tokens[number], secrets[number, seat], hand,
                                        ns_tricks(round_number, number, hand))
                if retry_until:
                    (status, content, _), _tries = phones.with_retries(send, until=retry_until)
                else:
                    status, content, _ = send()
                with lock:
                    finals[number, seat, hand] = status
                    if not 200 <= status < 300:
                        failures.append((number, seat, hand, status, content))
                    if answered is not None and 200 <= status < 300:
                        answered.append(1)

    threads = [threading.Thread(target=table, args=(number,)) for number in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    return finals, failures


def assert_stored(event, playing, finals):
    """Every entry answered 2xx is stored: the hand with its tricks, confirmed once E's
    confirmation was answered 2xx."""
    stored = {(r.table.number, r.hand_number): r for r in HandResult.objects.filter(round=playing).select_related("table")}
    for (number, seat, hand), status in finals.items():
        if 200 <= status < 300:
            result = stored.get((number, hand))
            assert result is not None, f"table {number} hand {hand}: answered {status} to {seat}, not stored"
            assert result.ns_tricks == ns_tricks(playing.number, number, hand)
            if seat == "E":
                assert result.status == HandResult.Status.CONFIRMED


def assert_standings_exact(event, server):
    """The worker's stored standings, and the ones the server publishes, are a recompute
    from the rows (rules D3-D5)."""
    expected = expected_lines(event)
    assert len(expected) == TABLES * 4
    assert _wait_for(lambda: stored_lines(event) == expected, 60), "the stored standings differ from a recompute"
    assert all(line[3] == ROUNDS * HANDS for line in expected.values())  # rule D4: all 24 hands count
    numbers = dict(Entrant.objects.filter(event=event).values_list("id", "number"))
    want = {numbers[entrant]: (line[0], line[2]) for entrant, line in expected.items()}  # place, total
    status, published, _ = phones.request(server.url, "GET", f"/api/events/{event.pk}/standings/")
    assert status == 200
    got = {line["number"]: (line["place"], Decimal(line["total"])) for line in published["lines"]}
    assert got == want


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.worker
@pytest.mark.timeout(300)
def test_a_hundred_tables_enter_the_same_hand_at_once(evening):
    event, playing, server, tokens = evening
    secrets = claim_both_sides(server.url, tokens)
    count = ConnectionCount()
    count.start()
    try:
        finals, failures = play_tables(server.url, tokens, secrets, playing.number)
    finally:
        count.stop()
    assert failures == []  # 600 entries from 100 tables at once: no 500, no "too many clients"
    assert len(finals) == TABLES * HANDS * 2
    stored = HandResult.objects.filter(round=playing)
    assert stored.count() == TABLES * HANDS and not stored.exclude(status=HandResult.Status.CONFIRMED).exists()
    assert_stored(event, playing, finals)
    # The server's connections stay within its pool; the whole test database within the
    # server's pool and this process's (the test and its worker thread).
    print(f"\nPostgreSQL connections at most: the server {count.server_most} (pool {SERVER_POOL}), "
          f"the test database {count.database_most}")
    assert 1 <= count.server_most <= SERVER_POOL
    assert count.database_most <= SERVER_POOL + connection.settings_dict["OPTIONS"]["pool"]["max_size"]
    assert_standings_exact(event, server)


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.worker
@pytest.mark.timeout(300)
def test_daphne_killed_and_restarted_mid_round_loses_no_answered_entry(evening):
    event, playing, server, tokens = evening
    secrets = claim_both_sides(server.url, tokens)
    answered, outcome = [], {}

    def phones_at_work():
        outcome["finals"], outcome["failures"] = play_tables(
            server.url, tokens, secrets, playing.number, retry_until=time.monotonic() + 180, answered=answered)

    tables = threading.Thread(target=phones_at_work)
    tables.start()
    assert _wait_for(lambda: len(answered) >= 150, 120), "the tables did not get going"
    server.kill()  # mid-round: about a quarter of the entries answered, requests in flight
    killed_at = len(answered)
    time.sleep(random.uniform(0.5, 1.5))
    server.start()
    tables.join(300)
    assert killed_at < TABLES * HANDS * 2, "every entry was in before the kill: nothing was tested"
    assert outcome["failures"] == []  # after retries every entry is answered 2xx (a repeat is "unchanged")
    assert_stored(event, playing, outcome["finals"])
    assert HandResult.objects.filter(round=playing, status=HandResult.Status.CONFIRMED).count() == TABLES * HANDS
    assert_standings_exact(event, server)


# --- Redis stopped under the live feed ----------------------------------------------------


def socket_url(server, event_id):
    from drive.core.tickets import issue_ticket

    return server.url.replace("http://", "ws://") + f"/ws/events/{event_id}/?ticket={issue_ticket(event_id)}"


def publish(redis_url, event_id, seq):
    async def send():
        layer = RedisChannelLayer(hosts=[redis_url])
        try:
            await layer.group_send(event_group(event_id), {"type": "event.changed", "kind": "results",
                                                           "event": event_id, "data": {"seq": seq}})
        finally:
            await layer.close_pools()

    async_to_sync(send)()


def listen(server, event_id):
    from websockets.sync.client import connect

    return connect(socket_url(server, event_id), origin=server.url, open_timeout=10, proxy=None)


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.timeout(180)
def test_redis_stopped_keeps_the_live_sockets_open_and_they_hear_again_once_it_is_back(
        transactional_db, make_event, private_redis):
    require_postgres()
    event = make_event(title="Live Drive")
    server = AsgiServer("feed-redis")
    server.env["REDIS_URL"] = private_redis.url
    server.start()
    try:
        with listen(server, event.pk) as page:
            publish(private_redis.url, event.pk, 1)
            assert '"seq": 1' in page.recv(timeout=10)
            private_redis.stop()
            # the feed notices and joins again by itself: the page's socket stays open (a room's
            # sockets closed at once all reconnected at once), and a page that comes is taken
            with pytest.raises(TimeoutError):
                page.recv(timeout=8)
            with listen(server, event.pk) as late:
                private_redis.start()  # back, and empty
                for socket in (page, late):  # they may have missed changes: they read afresh
                    assert '"kind": "resync"' in socket.recv(timeout=30)
                publish(private_redis.url, event.pk, 2)
                for socket in (page, late):
                    assert '"seq": 2' in socket.recv(timeout=10)
    finally:
        server.stop()
