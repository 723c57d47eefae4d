"""Publish "something changed" on the channel layer.

The lowest floor of the project: services and tasks of every app call `publish`, the
live pages and consumers listen on the group of the event. Sent after commit, so a
listener that re-reads the database sees the change.
"""
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)


def event_group(event_id):
    return f"event.{event_id}"


def publish(event_id, kind, **data):
    """Announce `kind` (e.g. "registrations") for an event once the transaction commits."""
    transaction.on_commit(lambda: send_now(event_id, kind, **data), robust=True)


def send_now(event_id, kind, **data):
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "event.changed", "kind": kind, "event": event_id, "data": data}
    try:
        async_to_sync(layer.group_send)(event_group(event_id), message)
    except Exception as exc:  # a broken channel layer (Redis away) must never undo a saved change
        log.warning("broadcast of %s for event %s failed (%r)", kind, event_id, exc)
