"""A real Celery beat in a process of its own, sending to the test Redis, as in production
(docker-compose's `beat`). The in-process test worker runs what it sends."""
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.asgi_server import LOGS, ROOT, environment


class CeleryBeat:
    def __init__(self, sweep_seconds: float):
        LOGS.mkdir(parents=True, exist_ok=True)
        self.directory = tempfile.TemporaryDirectory(prefix="whist-beat-")
        self.log_path = LOGS / f"beat-{Path(self.directory.name).name}.log"
        self.env = {**environment(), "STANDINGS_SWEEP_SECONDS": str(sweep_seconds),
                    "CELERY_BEAT_SCHEDULE_FILENAME": str(Path(self.directory.name) / "schedule")}
        self.process = None

    def start(self):
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "drive", "beat", "--loglevel", "INFO"],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        return self

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.directory.cleanup()
