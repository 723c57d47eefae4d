"""A redis-server of a test's own, on a port of its own: the outage tests stop it and
start it again (empty, as a restarted Redis is) without touching the Redis that the other
tests and xdist workers share."""
import shutil
import socket
import subprocess
import time

import pytest

from tests import services
from tests.asgi_server import LOGS, free_port


class PrivateRedis:
    def __init__(self):
        if not shutil.which("redis-server"):
            services._missing("redis-server (to stop a Redis of the test's own)")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self):
        LOGS.mkdir(parents=True, exist_ok=True)  # this may be the run's first test to log there
        with open(LOGS / f"redis-{self.port}.log", "ab") as log:
            self.process = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                                             "--save", "", "--appendonly", "no"],
                                            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while not self.answers():
            assert time.monotonic() < deadline and self.process.poll() is None, "redis-server did not start"
            time.sleep(0.1)
        return self

    def answers(self):
        """PONG to a PING: listening and serving, not just bound."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as link:
                link.sendall(b"PING\r\n")
                return link.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture
def private_redis():
    """A started PrivateRedis, stopped after the test (needs Redis: the run's REDIS_URL)."""
    services.require_redis()
    redis = PrivateRedis().start()
    yield redis
    redis.stop()
