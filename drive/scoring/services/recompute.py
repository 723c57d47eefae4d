"""Keeping the standings up with the results: every change raises their version and asks
for a recomputation once it commits.

The standings never wait on Redis for good: a change's enqueue happens after commit and
cannot fail the change (logged instead), the pending mark expires within a minute, and
beat's sweep recomputes every event whose standings are behind, whatever the mark says.
"""
from __future__ import annotations

import logging
import time

from django.core.cache import cache
from django.db import transaction

from drive.core import jobs
from drive.scoring.selectors.standings import stale_event_ids
from drive.scoring.services import ranking, versions

RECOMPUTE_TASK = "drive.scoring.tasks.recompute_standings"
log = logging.getLogger(__name__)
PENDING_SECONDS = 30  # a lost task's mark expires: later changes and reads then ask again
SLOW_FAILURE_SECONDS = 0.5  # a broker that took this long to fail hangs rather than refuses
BROKER_PAUSE_SECONDS = 15  # longer than the timeouts of one failed publish
_broker_down_until = [0.0]  # per process: monotonic time until which the broker is left alone


def pending_key(*, event_id: int) -> str:
    return f"standings-pending:{event_id}"


def standings_changed(*, event_id: int) -> None:
    """Inside the transaction of a change that moves the standings: their version goes up
    with it, and once it commits a recomputation is asked for."""
    versions.bump(event_id=event_id)
    recompute_standings_soon(event_id=event_id)


def recompute_standings_soon(*, event_id: int) -> None:
    """Once this transaction commits, have the standings recomputed, with at most one task
    waiting per event: a burst of 600 results costs a few recomputations, not 600. The
    task clears the mark before it reads the rows, so a change it may not see asks again.

    Robust: the change is committed by then, so a broker or cache outage is logged, never
    raised (the answer stays 2xx); the sweep recomputes once Redis is back."""
    transaction.on_commit(lambda: _enqueue(event_id), robust=True)


def _enqueue(event_id: int) -> None:
    if not _mark(event_id):
        return  # a task is waiting and will read this change too
    if _broker_paused():
        _forget_mark(event_id)
        return  # it failed a moment ago: no request waits for it again, the sweep will do it
    began = time.monotonic()
    try:
        jobs.task(RECOMPUTE_TASK).delay(event_id)
    except Exception as exc:  # noqa: BLE001 - the broker is down: the sweep will do it
        if time.monotonic() - began >= SLOW_FAILURE_SECONDS:
            _broker_down_until[0] = time.monotonic() + BROKER_PAUSE_SECONDS
        log.warning("standings of event %s not queued (%s); the sweep will recompute them", event_id, exc)
        _forget_mark(event_id)  # nothing waits after all: the next change asks again


def _broker_paused() -> bool:
    """A broker that took long to fail a moment ago is not asked again yet: a Redis that
    hangs (rather than refuses) would otherwise hold every entry for its timeouts."""
    return time.monotonic() < _broker_down_until[0]


def _mark(event_id: int) -> bool:
    """True when no task waits yet. A cache that cannot answer says True: better one
    task too many than none."""
    try:
        return bool(cache.add(pending_key(event_id=event_id), True, PENDING_SECONDS))
    except Exception as exc:  # noqa: BLE001
        log.warning("standings-pending mark of event %s unavailable (%s)", event_id, exc)
        return True


def _forget_mark(event_id: int) -> None:
    try:
        cache.delete(pending_key(event_id=event_id))
    except Exception as exc:  # noqa: BLE001 - the mark expires by itself
        log.warning("standings-pending mark of event %s not cleared (%s)", event_id, exc)


def recompute_waiting(*, event_id: int) -> int | None:
    """The task's work: clear the mark before reading, so a change from now on asks again."""
    _forget_mark(event_id)
    return ranking.recompute_standings(event_id=event_id, only_if_stale=True)


def sweep_stale_standings() -> list[int]:
    """Recompute every event whose standings are behind its results.

    It ignores the pending mark, so a task lost with a killed worker or a broker outage
    (its mark still set, or never sent) is made good within one period."""
    done = []
    for event_id in stale_event_ids():
        try:
            ranking.recompute_standings(event_id=event_id, only_if_stale=True)
            done.append(event_id)
        except Exception:  # noqa: BLE001 - one broken event must not starve the others
            log.exception("sweep: standings of event %s failed", event_id)
    return done
