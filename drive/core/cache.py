"""Django's Redis cache, degrading instead of failing while Redis is away.

The cache only ever holds what can be lost (rate-limit counters, the standings-pending
mark, renderings), so an outage must not turn a request, least of all a result already
saved, into a 500: a read answers "not there", a write is dropped, an `add` says "added"
(one task too many beats none). A server that took long to fail (it hangs rather than
refuses) is then left alone for a few seconds (every call answers at once), so it costs
one timeout per process now and then, not one per call; outages are logged once a while.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
OUTAGE = (RedisConnectionError, RedisTimeoutError)
SLOW_FAILURE_SECONDS = 0.5
PAUSE_SECONDS = 15  # after a slow failure, calls to that server answer the fallback at once
LOG_EVERY_SECONDS = 10
_down_until: dict[str, float] = {}  # server location -> monotonic time until which it is left alone
_last_logged = [0.0]


def _outage(location: str, operation: str, exc: Exception, took: float) -> None:
    now = time.monotonic()
    if took >= SLOW_FAILURE_SECONDS:
        _down_until[location] = now + PAUSE_SECONDS
    if now - _last_logged[0] >= LOG_EVERY_SECONDS:
        _last_logged[0] = now
        log.warning("cache unavailable (%s: %s): carrying on without it", operation, exc)


def _tolerant(operation: str, fallback: Any) -> Callable[..., Any]:
    method = getattr(RedisCacheClient, operation)

    def call(self: TolerantRedisCacheClient, *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() < _down_until.get(self.location, 0):
            return fallback(*args) if callable(fallback) else fallback
        began = time.monotonic()
        try:
            return method(self, *args, **kwargs)
        except OUTAGE as exc:
            _outage(self.location, operation, exc, time.monotonic() - began)
            return fallback(*args) if callable(fallback) else fallback

    call.__name__ = operation
    return call


class TolerantRedisCacheClient(RedisCacheClient):
    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self.location = ",".join(servers)

    add = _tolerant("add", True)
    get = _tolerant("get", lambda key, default: default)
    set = _tolerant("set", None)
    touch = _tolerant("touch", False)
    delete = _tolerant("delete", False)
    get_many = _tolerant("get_many", lambda keys: {})
    has_key = _tolerant("has_key", False)
    set_many = _tolerant("set_many", lambda data, timeout: [])
    delete_many = _tolerant("delete_many", None)
    # incr and clear raise: their callers must know the value or that it is gone.


class TolerantRedisCache(RedisCache):
    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = TolerantRedisCacheClient
