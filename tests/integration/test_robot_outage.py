"""Redis stopped for 30 s while six casual tables play (issue 19, "A Redis outage stops
nothing for long"), with every process as production runs it: daphne, and the Celery
workers and beat started with docker-compose.yml's own command lines (the default
queue's worker, the `robots` and `robots-slow` workers, beat), on the test's PostgreSQL
database and a redis-server of the test's own that it stops and starts.

At each table a person (a REST client with a token) plays N and three rules robots the
rest. Each person also keeps the table's websocket open as its page does: closed by the server,
it opens it again after a second. Asserted: no 5xx to the people (an action answers 2xx,
or the game's own 409/400; a read 2xx); every worker and beat alive afterwards, never
restarted; every table moving again once Redis is back (robots' moves in PlayAction after
its return: the sweep asks again for the moves lost with Redis), within a bounded wait;
the sockets closed only with "try again" (4013), never 1011 nor a refused handshake, and
each hearing its table again after Redis' return. Never a speed."""
import json
import os
import subprocess
import threading
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml
from django.contrib.auth import get_user_model
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidMessage
from websockets.sync.client import connect
from django.utils import timezone
from rest_framework.authtoken.models import Token

from drive.games.models import PlayAction, PlayTable
from tests import services
from tests.asgi_server import LOGS, ROOT, AsgiServer, database_url
from tests.integration.test_faults import _wait_for
from tests.private_redis import PrivateRedis
from tests.play.test_websocket import session_cookie

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.worker,
              pytest.mark.django_db(transaction=True)]

TABLES = 6
OUTAGE_SECONDS = 30
BACK_WITHIN = 40  # seconds after Redis' return by which every table has moved again (the issue's bound)
ROBOTS = {"E": "rules", "S": "rules", "W": "rules"}
SETTINGS = {"PLAY_SWEEP_SECONDS": "2", "PLAY_ROBOT_DELAY_MIN": "0.1", "PLAY_ROBOT_DELAY_MAX": "0.3",
            "DATABASE_POOL_MIN": "1", "DATABASE_POOL_MAX": "3", "DJANGO_LOG_LEVEL": "INFO"}


class Production:
    """The compose services' Celery command lines (worker, robots, robots-slow, beat), each a
    subprocess on this test's database and Redis."""

    NAMES = ("worker", "robots", "robots-slow", "beat")

    def __init__(self, redis_url):
        compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
        self.commands = {name: compose[name]["command"] for name in self.NAMES}
        self.env = {**services_env(redis_url), "CELERY_BEAT_SCHEDULE_FILENAME": str(LOGS / f"beat-{id(self)}")}
        self.processes = {}

    def start(self):
        for name, command in self.commands.items():
            log = open(LOGS / f"outage-{name}.log", "wb")
            binary = str(Path(sys.executable).with_name(command[0]))  # this venv's celery
            self.processes[name] = subprocess.Popen([binary, *command[1:]], cwd=ROOT, env=self.env, stdout=log,
                                                    stderr=subprocess.STDOUT, start_new_session=True)
        return self

    def dead(self):
        return {name: p.returncode for name, p in self.processes.items() if p.poll() is not None}

    def stop(self):
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(20)
            except Exception:  # noqa: BLE001 - whatever hangs is killed
                process.kill()


def services_env(redis_url):
    return {**os.environ, "DATABASE_URL": database_url(), "REDIS_URL": redis_url, "DJANGO_DEBUG": "true",
            "DJANGO_SETTINGS_MODULE": "drive.settings", **SETTINGS}


class Person:
    """A person at one table, playing through the REST API from a thread of their own."""

    def __init__(self, base, token):
        self.base, self.token = base, token
        self.answers = []  # (method, status)
        self.table_id = None

    def call(self, method, path, body=None):
        request = urllib.request.Request(self.base + path, method=method,
                                         data=json.dumps(body).encode() if body is not None else None,
                                         headers={"Content-Type": "application/json", "Accept": "application/json",
                                                  "Authorization": f"Token {self.token}"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status, content = answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            status, content = error.code, error.read().decode(errors="replace")
        except OSError as error:
            status, content = 0, repr(error)
        self.answers.append((method, status, content if status >= 500 or status == 0 else None))
        return status, content

    def create(self):
        status, content = self.call("POST", "/api/play/tables/",
                                    {"rules": "short10", "robots": ROBOTS, "seat": "N", "timeout_seconds": 10})
        assert status == 201, content
        self.table_id = content["id"]

    def play(self, stop):
        while not stop.is_set():
            status, view = self.call("GET", f"/api/play/tables/{self.table_id}/")
            if status == 200 and view.get("legal") and view.get("to_act") == "N":
                self.call("POST", f"/api/play/tables/{self.table_id}/actions/",
                          {"action": view["legal"][0], "version": view["version"]})
            stop.wait(0.5)

    def server_errors(self):
        return [a for a in self.answers if a[1] >= 500 or a[1] == 0]

    def refused(self):
        """Answers neither 2xx nor the game's own 409 (moved on) / 400 (the rules)."""
        return [a for a in self.answers if not (200 <= a[1] < 300 or (a[0] == "POST" and a[1] in (400, 409)))]


class Page:
    """A person's table page: its websocket, opened again a second after the server closes it
    (the page polls the REST view meanwhile: Person does)."""

    TRY_AGAIN = 4013

    def __init__(self, base, cookie, table_id):
        self.base, self.cookie, self.table_id = base, cookie, table_id
        self.closes = []  # the codes the server closed the socket with
        self.refused = []  # handshakes answered with a refusal (a 403 would be one), or failed otherwise
        # Handshakes the server closed before sending any HTTP status line. Daphne drops a
        # handshake it has not completed within 5 s (autobahn's openHandshakeTimeout): seen
        # once in a loaded run, 15 s into the outage, on one of about 180 reconnections, and
        # never logged by daphne as begun. The page takes it as any dropped connection and
        # tries again; what it must never get is an answer that refuses it.
        self.unanswered = []
        self.heard = []  # (monotonic time, version) of every view received

    def run(self, stop):
        url = self.base.replace("http://", "ws://") + f"/ws/play/{self.table_id}/"
        while not stop.is_set():
            try:
                with connect(url, origin=self.base, additional_headers={"Cookie": f"sessionid={self.cookie}"},
                             open_timeout=10, proxy=None, ping_interval=None) as socket:
                    self._listen(socket, stop)
            except ConnectionClosed as closed:
                self.closes.append(closed.rcvd.code if closed.rcvd is not None else None)
            except (InvalidHandshake, OSError) as failed:
                seen = (round(time.monotonic(), 1), repr(failed), repr(failed.__cause__))
                if isinstance(failed, InvalidMessage) and isinstance(failed.__cause__, EOFError):
                    self.unanswered.append(seen)  # closed before any status line: see the class
                else:
                    self.refused.append(seen)
            stop.wait(1.0)

    def _listen(self, socket, stop):
        while not stop.is_set():
            try:
                frame = json.loads(socket.recv(timeout=1))
            except TimeoutError:
                continue
            if "version" in frame:
                self.heard.append((time.monotonic(), frame["version"]))

    def heard_since(self, moment):
        return [version for at, version in self.heard if at > moment]


def robot_moves_since(table_id, moment):
    return PlayAction.objects.filter(table_id=table_id, by_robot=True, created_at__gt=moment).count()


def test_redis_stopped_for_30_s_while_six_tables_play(make_user):
    services.require_postgres()
    services.require_redis()
    redis = PrivateRedis().start()
    server = AsgiServer("robot-outage")
    server.env.update(services_env(redis.url))
    production = Production(redis.url)
    stop = threading.Event()
    users = [make_user(f"outage-{n}") for n in range(TABLES)]
    people = [Person(server.url, Token.objects.create(user=user).key) for user in users]
    threads, pages = [], []
    moments = {}  # monotonic times of the test's steps, to place a failed handshake among them
    try:
        server.start()
        production.start()
        for person in people:
            person.create()
        pages = [Page(server.url, session_cookie(user), p.table_id) for user, p in zip(users, people)]
        threads = [threading.Thread(target=p.play, args=(stop,), daemon=True) for p in people]
        threads += [threading.Thread(target=page.run, args=(stop,), daemon=True) for page in pages]
        for thread in threads:
            thread.start()
        began, moments["playing"] = timezone.now(), round(time.monotonic(), 1)
        assert _wait_for(lambda: all(robot_moves_since(p.table_id, began) >= 3 for p in people), 120), \
            f"robots did not play with Redis up: {LOGS}/outage-robots.log"

        moments["redis stopped"] = round(time.monotonic(), 1)
        redis.stop()
        time.sleep(OUTAGE_SECONDS)  # the people play on, or wait for robots that cannot be asked
        redis.start()  # empty: whatever was queued or pending is gone with it
        back, back_here = timezone.now(), time.monotonic()
        moments["redis back"] = round(back_here, 1)

        def moving_again():
            return [p.table_id for p in people if robot_moves_since(p.table_id, back) == 0
                    and PlayTable.objects.get(pk=p.table_id).finished_at is None]

        assert _wait_for(lambda: not moving_again(), BACK_WITHIN), \
            f"tables {moving_again()} never moved again: {LOGS}/outage-robots.log"
        assert _wait_for(lambda: all(page.heard_since(back_here) for page in pages), BACK_WITHIN), \
            f"sockets that never heard their table again: {[p.table_id for p in pages if not p.heard_since(back_here)]}"
        assert production.dead() == {}, f"exited: {production.dead()} (logs in {LOGS}/outage-*.log)"
        assert server.process.poll() is None
    finally:
        moments["stopping"] = round(time.monotonic(), 1)
        stop.set()
        for thread in threads:
            thread.join(40)
        production.stop()
        moments["joined"] = round(time.monotonic(), 1)
        server.stop()
        redis.stop()
    for person in people:
        assert person.server_errors() == [], person.server_errors()[:5]
        assert person.refused() == [], person.refused()[:5]
        assert any(a[0] == "POST" and a[1] == 200 for a in person.answers)  # they played
    for page in pages:
        assert page.refused == [], (page.refused[:3], moments)  # never a handshake refused (a 403 the page cannot read)
        if page.unanswered:
            print(f"table {page.table_id}: handshakes closed unanswered {page.unanswered} ({moments})")
        # a dropped handshake is the odd one: most were answered (accepted, then closed "try again")
        assert len(page.unanswered) < len(page.closes), (page.unanswered[:3], len(page.closes), moments)
        assert set(page.closes) <= {Page.TRY_AGAIN}, page.closes  # never 1011, never 4403
        assert Page.TRY_AGAIN in page.closes  # the outage closed it ("try again"), and it was opened again
    assert get_user_model().objects.filter(username__startswith="outage-").count() == TABLES
