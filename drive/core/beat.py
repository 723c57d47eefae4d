"""Beat's periodic tasks inside the web process, for the embedded default only.

With no Redis there is no worker and no beat: Celery runs tasks eagerly, but nothing runs
the sweeps of settings.CELERY_BEAT_SCHEDULE (a silent seat's stand-in robot, robots
finishing a round past its deadline, standings behind their results, idle tables closed).
`bin/serve` sets EMBEDDED_BEAT, and the server process then runs them from one thread at
their periods, eagerly. Production runs `celery beat` instead and never this.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)
TICK_SECONDS = 1.0
_started: threading.Thread | None = None


def periods() -> dict[str, float]:
    """Each scheduled task's name and period in seconds."""
    schedule: dict[str, dict[str, Any]] = settings.CELERY_BEAT_SCHEDULE
    return {entry["task"]: float(entry["schedule"]) for entry in schedule.values()}


def tick(due: dict[str, float], now: float, run: Callable[[str], None]) -> list[str]:
    """Run the tasks due at `now` and set when each is due next; answers those it ran."""
    ran = []
    for name, period in periods().items():
        if now >= due.get(name, 0.0):
            due[name] = now + period
            run(name)
            ran.append(name)
    return ran


def run_task(name: str) -> None:
    try:
        current_app.tasks[name].apply()
    except Exception:  # noqa: BLE001 - a sweep that fails is tried again at its next period
        log.exception("the embedded beat's task %s failed", name)
    finally:
        close_old_connections()


def start() -> threading.Thread | None:
    """Start the thread once, if asked and Celery is eager (else None)."""
    global _started
    if not (settings.EMBEDDED_BEAT and settings.CELERY_TASK_ALWAYS_EAGER) or _started is not None:
        return None
    _started = threading.Thread(target=_forever, name="embedded-beat", daemon=True)
    _started.start()
    log.warning("no Redis: this process runs beat's sweeps itself (%s)", ", ".join(periods()))
    return _started


def _forever() -> None:
    due: dict[str, float] = {}
    while True:
        tick(due, time.monotonic(), run_task)
        time.sleep(TICK_SECONDS)
