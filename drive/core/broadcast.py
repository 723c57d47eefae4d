"""Publish "something changed" on the channel layer.

The lowest floor of the project: services and tasks of every app call `publish`, the
live pages and consumers listen on the group of the event. Sent after commit, so a
listener that re-reads the database sees the change.
"""
from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from enum import StrEnum
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.db import transaction

log = logging.getLogger(__name__)


class Held:
    """A thread's collection of things to send later, open only inside `collecting()`: a
    table's socket that runs an action in a thread answers its player first and sends what
    the action set going (announcements, robots' moves) afterwards, from its event loop."""

    def __init__(self) -> None:
        self._local = threading.local()

    @property
    def items(self) -> list[Any] | None:
        """The open collection of this thread, or None (send now)."""
        return getattr(self._local, "items", None)

    @contextmanager
    def collecting(self) -> Iterator[list[Any]]:
        held: list[Any] = []
        self._local.items = held
        try:
            yield held
        finally:
            self._local.items = None


class Change(StrEnum):
    """What changed, as the pages hear it (`kind` of a message). The scripts get the same
    names from the page (templates/base.html: the "change-kinds" JSON)."""
    ANNOUNCEMENTS = "announcements"
    ARRIVALS = "arrivals"
    CLAIMS = "claims"
    CLOCK = "clock"
    EVENING = "evening"
    EVENT = "event"
    MOVEMENT = "movement"
    REGISTRATIONS = "registrations"
    RESULTS = "results"
    RESYNC = "resync"  # the live feed was away from the layer a while: anything may have changed
    ROUND = "round"
    SCREEN = "screen"
    SEATING = "seating"
    STANDINGS = "standings"


def event_group(event_id: int) -> str:
    return f"event.{event_id}"


def publish(event_id: int, kind: Change, **data: Any) -> None:
    """Announce `kind` for an event once the transaction commits."""
    transaction.on_commit(lambda: send_now(event_id, kind, **data), robust=True)


SLOW_FAILURE_SECONDS = 0.5  # a layer that took this long to fail hangs rather than refuses
PAUSE_SECONDS = 15  # longer than the timeouts of one failed call
_down_until = [0.0]  # per process: monotonic time until which the layer is left alone


def send_now(event_id: int, kind: Change, **data: Any) -> None:
    layer = get_channel_layer()
    if layer is None or time.monotonic() < _down_until[0]:
        return  # it hung a moment ago: a Redis that hangs must not hold every request
    message = {"type": "event.changed", "kind": str(Change(kind)), "event": event_id, "data": data}
    began = time.monotonic()
    try:
        group_send_from_sync(layer, event_group(event_id), message)
    except Exception as exc:  # a broken channel layer (Redis away) must never undo a saved change
        if time.monotonic() - began >= SLOW_FAILURE_SECONDS:
            _down_until[0] = time.monotonic() + PAUSE_SECONDS
        log.warning("broadcast of %s for event %s failed (%r); pages poll meanwhile", kind, event_id, exc)


# --- online tables (drive.games) ----------------------------------------------------------

def table_group(table_id: int) -> str:
    return f"play.{table_id}"


def publish_table(table_id: int, version: int, change: str | None = None) -> None:
    """Announce a change of an online table once the transaction commits: each listener
    re-reads its own seat's view (the message carries no cards). `change` names the
    announcement (a new name if none is given)."""
    change = change or new_change()
    transaction.on_commit(lambda: send_table_now(table_id, version, change), robust=True)


def new_change() -> str:
    return uuid.uuid4().hex


def send_table_now(table_id: int, version: int, change: str | None = None) -> None:
    # `change` names this one announcement: the sockets of a server that hear it read the table once.
    message = {"type": "play.changed", "table": table_id, "version": version, "change": change or new_change()}
    held = _messages_held.items
    if held is not None:  # a table's socket sends it itself, once its answer is out
        held.append(message)
        return
    layer = get_channel_layer()
    if layer is None or time.monotonic() < _down_until[0]:
        return
    began = time.monotonic()
    try:
        group_send_from_sync(layer, table_group(table_id), message)
    except Exception as exc:  # a broken channel layer must never undo a saved action
        _failed(began, message, exc)


async def send_table_message(message: dict[str, Any], elsewhere: bool = False) -> None:
    """Send a held announcement (table_changes_held) from the event loop; `elsewhere`: to
    the table's sockets on other servers only, where the layer can tell (this server's
    own have been handed the change)."""
    layer = get_channel_layer()
    if layer is None or time.monotonic() < _down_until[0]:
        return
    send = getattr(layer, "group_send_elsewhere", layer.group_send) if elsewhere else layer.group_send
    began = time.monotonic()
    try:
        await send(table_group(message["table"]), message)
    except Exception as exc:  # a broken channel layer must never undo a saved action
        _failed(began, message, exc)


def _failed(began: float, message: dict[str, Any], exc: Exception) -> None:
    if time.monotonic() - began >= SLOW_FAILURE_SECONDS:
        _down_until[0] = time.monotonic() + PAUSE_SECONDS
    log.warning("broadcast of table %s version %s failed (%r); pages poll meanwhile",
                message["table"], message["version"], exc)


_messages_held = Held()


def table_changes_held() -> AbstractContextManager[list[dict[str, Any]]]:
    """Within it (in this thread), the announcements of online tables are collected instead
    of sent: a table's socket that runs an action in a thread answers first, hands the
    change to its server's own sockets of the table, then sends the announcement for the
    other servers from its event loop (send_table_message) without holding the thread."""
    return _messages_held.collecting()


# --- sending from sync code ---------------------------------------------------------------
# `async_to_sync` in a thread without an event loop (a Celery task such as a robot's move, a
# WSGI request, beat's sweeps) runs each call in a loop of its own, and channels_redis keeps
# its connections by loop: every broadcast opened a Redis connection and closed it again,
# about 2.1 ms of CPU a send against 0.3 ms over one loop (docs/benchmarks.md). So sends to
# the Redis layer from sync code run in one loop, in a daemon thread of the process, and the
# layer's connections last as long as the process; a forked child (Celery's prefork pool)
# starts a loop of its own. Any other layer (the in-memory one of the embedded default, whose
# queues belong to the loop of the server that made them) is sent to as before.

SEND_SECONDS = 10.0  # longer is a layer that hangs: the caller is told (a TimeoutError)
_sends_lock = threading.Lock()
_sends: list[Any] = [None, 0]  # the loop of the sends, and the process that started it
_last_layer: list[Any] = [None]  # the layer sent through last (only that loop's thread uses it)


def group_send_from_sync(layer: Any, group: str, message: dict[str, Any]) -> None:
    """`await layer.group_send(group, message)` from sync code; raises what it raises."""
    if not isinstance(layer, RedisChannelLayer):
        async_to_sync(layer.group_send)(group, message)
        return
    loop = sends_loop()
    future = asyncio.run_coroutine_threadsafe(_group_send(layer, group, message), loop)
    try:
        future.result(SEND_SECONDS)
    except TimeoutError:
        future.cancel()
        raise


def sends_loop() -> asyncio.AbstractEventLoop:
    """This process's loop of the sends from sync code, started on first use."""
    with _sends_lock:
        loop, pid = _sends
        if loop is None or pid != os.getpid():  # none yet, or the parent's (its thread is not here)
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="channel-layer-sends", daemon=True).start()
            _sends[:] = [loop, os.getpid()]
        return loop


async def _group_send(layer: RedisChannelLayer, group: str, message: dict[str, Any]) -> None:
    previous = _last_layer[0]
    if previous is not layer:
        _last_layer[0] = layer
        if previous is not None:
            await _let_go(previous)
    await layer.group_send(group, message)


async def _let_go(layer: RedisChannelLayer) -> None:
    """A layer replaced (Channels' `channel_layers` made a new one: the tests do, for each
    test) gives back the connections it held in this loop."""
    held = layer._layers.pop(asyncio.get_running_loop(), None)
    if held is not None:
        await held.flush()
