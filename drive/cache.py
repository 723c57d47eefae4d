"""Django's Redis cache, degrading instead of failing while Redis is away.

The cache only ever holds what can be lost (rate-limit counters, the standings-pending
mark, the screen's chart), so an outage must not turn a request, least of all a result
already saved, into a 500: a read answers "not there", a write is dropped, an `add` says
"added" (one task too many beats none), each outage logged once in a while.
"""
import logging
import time

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
OUTAGE = (RedisConnectionError, RedisTimeoutError)
LOG_EVERY_SECONDS = 10
_last_logged = [0.0]


def _outage(operation, exc):
    now = time.monotonic()
    if now - _last_logged[0] >= LOG_EVERY_SECONDS:
        _last_logged[0] = now
        log.warning("cache unavailable (%s: %s): carrying on without it", operation, exc)


def _tolerant(operation, fallback):
    method = getattr(RedisCacheClient, operation)

    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except OUTAGE as exc:
            _outage(operation, exc)
            return fallback(*args) if callable(fallback) else fallback

    call.__name__ = operation
    return call


class TolerantRedisCacheClient(RedisCacheClient):
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
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = TolerantRedisCacheClient
