"""The channel layer: channels_redis's, with a receive that outlives a slow Redis answer and
still stops when it is cancelled.

channels_redis receives with BZPOPMIN, blocking `brpop_timeout` seconds (5 by default) on
the server; redis-py 8 reads every answer within `socket_timeout` (5 s by default). With the
two equal, an answer a moment late (a loaded machine, a busy event loop) raised a timeout
out of the receive and Channels closed the socket (1011). Here the block is well under the
read timeout (BLOCK_SECONDS against at least BLOCK_SECONDS + MARGIN_SECONDS), and an answer
later still costs the receive a new connection, not the socket: it waits again (once; a
second timeout in a row is a Redis that does not answer, and is raised).

A receive also stops when it is cancelled, even where the cancellation was lost on the way:
Python 3.11's asyncio.wait_for (which redis-py wraps around every write) returns the result
of a write that finished in the same instant instead of raising the cancellation, so the
receive went on blocking, again and again, in a task that was being cancelled (a live
feed's shutdown hung for as long as Redis answered). A receive whose task is being
cancelled raises CancelledError before and after each wait (a message it had just taken
stays in channels_redis's backup queue, and goes back to its channel at the next receive).

A receive that fails for good (LAYER_DOWN: Redis stopped, a connection reset, timeouts in a
row) is raised: a table's socket then closes with "try again" (drive.games.consumers) and the
live feed joins again (drive.live.hub); neither lets it become Channels' 1011.
"""
from __future__ import annotations

import asyncio
import contextvars
import logging
from typing import Any

from channels_redis import core
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
BLOCK_SECONDS = 2  # BZPOPMIN's block (whole seconds: channels_redis passes an int)
MARGIN_SECONDS = 3  # how late an answer may come before the read gives up on it
READ_SECONDS = BLOCK_SECONDS + MARGIN_SECONDS  # the read timeout given when a host names none
LATE_TRIES = 2  # answers later than the read timeout, in a row, before the receive fails
_elsewhere = contextvars.ContextVar("elsewhere", default=False)


def _stop_if_cancelled() -> None:
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError()


class RedisChannelLayer(core.RedisChannelLayer):
    """channels_redis's RedisChannelLayer (its name kept: /healthz shows it) with the short
    block, the tolerant read and the sure stop above."""

    brpop_timeout = BLOCK_SECONDS

    def __init__(self, hosts: list[Any] | None = None, **config: Any) -> None:
        super().__init__(hosts=hosts, **config)
        self.hosts: list[dict[str, Any]] = [dict(host) for host in self.hosts]  # the settings' own dicts stay as they are
        for host in self.hosts:
            read = host.setdefault("socket_timeout", READ_SECONDS)
            if read is not None and read < self.brpop_timeout + MARGIN_SECONDS:
                raise ValueError(f"the channel layer's socket_timeout ({read} s) must be at least "
                                 f"{self.brpop_timeout + MARGIN_SECONDS} s: BZPOPMIN blocks {self.brpop_timeout} s")

    async def _brpop_with_clean(self, index: int, channel: str, timeout: int) -> Any:
        for attempt in range(1, LATE_TRIES + 1):
            _stop_if_cancelled()
            try:
                member = await super()._brpop_with_clean(index, channel, timeout)
            except RedisTimeoutError as late:
                if attempt == LATE_TRIES:
                    raise
                log.warning("the channel layer's Redis answered a receive too late (%s); waiting again", late)
                continue
            _stop_if_cancelled()
            return member
        raise AssertionError("unreachable")  # pragma: no cover

    async def group_send_elsewhere(self, group: str, message: dict[str, Any]) -> None:
        """group_send to the group's channels of other processes only: this process has handed
        the message to its own sockets already (an online table's change made here)."""
        token = _elsewhere.set(True)
        try:
            await self.group_send(group, message)
        finally:
            _elsewhere.reset(token)

    def _map_channel_keys_to_connection(self, channel_names: list[str], message: dict[str, Any]) -> Any:
        if _elsewhere.get():
            own = f".{self.client_prefix}!"
            channel_names = [name for name in channel_names if own not in name]
        return super()._map_channel_keys_to_connection(channel_names, message)


# What a layer that is down (Redis stopped, restarted, unreachable, not answering) raises:
# redis-py's errors, and the OS's for a connection refused or reset.
LAYER_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)
