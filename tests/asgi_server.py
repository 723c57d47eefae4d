"""A real ASGI server (daphne) in a process of its own, on the test database and the test
Redis: websockets, the Redis channel layer and HTTP as in production. It can be killed
and started again on the same port, as a server restart in the room would be."""
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "test-artifacts" / "logs"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url():
    """The database this test run uses (pytest-django's test database)."""
    db = connection.settings_dict
    assert connection.vendor == "postgresql", "the ASGI server needs the PostgreSQL test database"
    user, host, port = db.get("USER") or "postgres", db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
    return f"postgres://{user}@{quote(host, safe='')}:{port}/{db['NAME']}"  # a socket's directory: encoded


def environment():
    """A server process's environment: this test run's database and Redis."""
    return {**os.environ, "DATABASE_URL": database_url(), "REDIS_URL": settings.REDIS_URL,
            "DJANGO_DEBUG": "true", "DJANGO_SETTINGS_MODULE": "drive.settings"}


class AsgiServer:
    def __init__(self, name="daphne"):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None
        LOGS.mkdir(parents=True, exist_ok=True)
        self.log_path = LOGS / f"{name}-{self.port}.log"
        self.env = environment()

    def start(self, timeout=60):  # generous: daphne starts slowly on a loaded laptop
        daphne = Path(sys.executable).with_name("daphne")
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [str(daphne), "-b", "127.0.0.1", "-p", str(self.port), "drive.asgi:application"],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited with {self.process.returncode}: see {self.log_path}")
            # /livez touches nothing, so a service down cannot hide a server that runs; and
            # the probe waits its turn: restarted under a room of phones retrying, the
            # server answers them first, and a probe given up after 2 s never got its turn.
            try:
                wait = max(2.0, deadline - time.monotonic())
                urllib.request.urlopen(self.url + "/livez", timeout=wait).close()
                return self
            except urllib.error.HTTPError:
                return self  # it answers
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"daphne did not answer within {timeout} s: see {self.log_path}")

    def kill(self):
        """As a crash would: no goodbye to the open websockets."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
