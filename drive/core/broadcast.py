"""Publish "something changed" on the channel layer.

The lowest floor of the project: services and tasks of every app call `publish`, the
live pages and consumers listen on the group of the event. Sent after commit, so a
listener that re-reads the database sees the change.
"""
from __future__ import annotations

import logging
import time
import uuid
from enum import StrEnum
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)


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


# --- online tables (drive.play) ----------------------------------------------------------

def table_group(table_id: int) -> str:
    return f"play.{table_id}"


def publish_table(table_id: int, version: int) -> None:
    """Announce a change of an online table once the transaction commits: each listener
    re-reads its own seat's view (the message carries no cards)."""
    transaction.on_commit(lambda: send_table_now(table_id, version), robust=True)


def send_table_now(table_id: int, version: int) -> None:
    layer = get_channel_layer()
    if layer is None or time.monotonic() < _down_until[0]:
        return
    # `change` names this one announcement: the sockets of a server that hear it read the table once.
    message = {"type": "play.changed", "table": table_id, "version": version, "change": uuid.uuid4().hex}
    began = time.monotonic()
    try:
        async_to_sync(layer.group_send)(table_group(table_id), message)
    except Exception as exc:  # a broken channel layer must never undo a saved action
        if time.monotonic() - began >= SLOW_FAILURE_SECONDS:
            _down_until[0] = time.monotonic() + PAUSE_SECONDS
        log.warning("broadcast of table %s version %s failed (%r); pages poll meanwhile", table_id, version, exc)
