"""Limits on what one user's websockets may take: frames each socket may send, actions a
user may send over all their sockets, and sockets a user holds open at once.

A socket's own pace is kept in the process (a socket lives in one). A user's actions and
sockets are counted in the rate limits' cache (DRF's throttle cache: Redis in production),
so every server process sees the same counts. The cache only limits: when it is away the
counts are not known and nothing is refused (fail open), nothing crashes.

Sockets are counted by leases, not by a counter a crash would leave high: each socket
counts itself in the user's count of the current minute and, a few seconds before the
minute ends, in the next one's; a server killed with its sockets open leaves counts that
end with their minute.
"""
from __future__ import annotations

import asyncio
import collections
import logging
import time
from typing import Any

from asgiref.sync import sync_to_async
from rest_framework.throttling import SimpleRateThrottle

log = logging.getLogger(__name__)
LEASE_SECONDS = 60  # a socket's count lasts its minute
LEAD_SECONDS = 5  # counted in the next minute this long before it starts (clocks of servers differ)
PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """"10/second" -> (10, 1): as DRF's throttles read their rates."""
    number, period = rate.split("/")
    return int(number), PERIODS[period.strip()[0]]


def _cache() -> Any:
    return SimpleRateThrottle.cache  # the rate limits' own (tests give each a fresh one)


def _counted(key: str, seconds: float) -> int | None:
    """Count one more under `key` (kept `seconds`); the count now, None if the cache is away."""
    cache = _cache()
    try:
        cache.add(key, 0, seconds)
        return cache.incr(key)
    except Exception as exc:  # noqa: BLE001 - the cache only limits: without it nothing is refused
        log.debug("socket limit not counted (%r)", exc)
        return None


def _uncounted(key: str) -> None:
    try:
        _cache().decr(key)
    except Exception:  # noqa: BLE001 - gone with its minute, or the cache is away
        log.debug("socket count %s not lowered", key, exc_info=True)


class Pace:
    """One socket's frames over the last period, in the process (a sliding window)."""

    def __init__(self, rate: str) -> None:
        self.limit, self.seconds = parse_rate(rate)
        self.times: collections.deque[float] = collections.deque()

    def allows(self) -> bool:
        now = time.monotonic()
        while self.times and self.times[0] <= now - self.seconds:
            self.times.popleft()
        if len(self.times) >= self.limit:
            return False
        self.times.append(now)
        return True


def user_may_act(user_id: int, rate: str) -> bool:
    """One more action of the user across every server (a fixed window in the cache):
    False past the rate. Blocking (the cache): call it from a thread."""
    limit, seconds = parse_rate(rate)
    window = int(time.time() // seconds)
    count = _counted(f"play_actions_{user_id}_{window}", seconds * 2)
    return count is None or count <= limit


def _minute(moment: float) -> int:
    return int(moment // LEASE_SECONDS)


class SocketLease:
    """A socket's place among its user's open sockets (`take` on connect, `release` on
    disconnect)."""

    def __init__(self, user_id: int, limit: int) -> None:
        self.user_id, self.limit = user_id, limit
        self.counted: list[int] = []  # the minutes this socket is counted in
        self.renewal: asyncio.TimerHandle | None = None
        self.renewing: asyncio.Future | None = None

    def _key(self, minute: int) -> str:
        return f"play_sockets_{self.user_id}_{minute}"

    def _count(self, minute: int) -> int | None:
        count = _counted(self._key(minute), LEASE_SECONDS * 2 + LEAD_SECONDS)
        if count is not None:
            self.counted.append(minute)
        return count

    def _take(self) -> bool:
        now = time.time()
        count = self._count(_minute(now))
        if count is not None and count > self.limit:
            self._release()
            return False
        if _minute(now + LEAD_SECONDS) != _minute(now):
            self._count(_minute(now + LEAD_SECONDS))
        return True

    def _renew(self) -> None:
        coming = _minute(time.time() + LEAD_SECONDS)
        if coming not in self.counted:
            self._count(coming)

    def _release(self) -> None:
        now = _minute(time.time())
        for minute in self.counted:
            if minute >= now:  # an older minute is no longer read
                _uncounted(self._key(minute))
        self.counted = []

    async def take(self) -> bool:
        """False if the user holds as many sockets as allowed already."""
        taken = await sync_to_async(self._take, thread_sensitive=False)()
        if taken:
            self._plan_renewal()
        return taken

    def _plan_renewal(self) -> None:
        now = time.time()
        due = (_minute(now) + 1) * LEASE_SECONDS - LEAD_SECONDS
        loop = asyncio.get_running_loop()
        self.renewal = loop.call_later(max(0.0, due - now) + 0.1, self._renew_now)

    def _renew_now(self) -> None:
        self.renewing = asyncio.ensure_future(sync_to_async(self._renew, thread_sensitive=False)())
        self._plan_renewal()

    async def release(self) -> None:
        if self.renewal is not None:
            self.renewal.cancel()
        if self.renewing is not None:
            await asyncio.gather(self.renewing, return_exceptions=True)
        await sync_to_async(self._release, thread_sensitive=False)()
