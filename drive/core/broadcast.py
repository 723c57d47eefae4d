"""Publish "something changed" on the channel layer.

The lowest floor of the project: services and tasks of every app call `publish`, the
live pages and consumers listen on the group of the event. Sent after commit, so a
listener that re-reads the database sees the change.
"""
from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from enum import StrEnum
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
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
        async_to_sync(layer.group_send)(event_group(event_id), message)
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
        async_to_sync(layer.group_send)(table_group(table_id), message)
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
