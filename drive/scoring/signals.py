"""What the evening tells the floors above it, without knowing them (DESIGN: a lower floor
learns nothing of a higher one; the higher one listens).

`results_changed` is sent once the change has committed, with the event's id and why:
"published" (the results went out) or "corrected" (a hand of published results changed).
Its standings may still be recomputing then: a listener that reads them makes sure they
are fresh first (services.freshness). A receiver's failure is logged, never raised.
"""
from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import Signal

from drive.events.models import Event

log = logging.getLogger(__name__)

PUBLISHED = "published"
CORRECTED = "corrected"

# Sent with sender=Event, event_id=<int>, reason=PUBLISHED | CORRECTED.
results_changed = Signal()


def results_changed_on_commit(event_id: int, reason: str) -> None:
    """Inside the change's transaction: `results_changed` goes out once it commits."""
    transaction.on_commit(lambda: send_results_changed(event_id, reason), robust=True)


def send_results_changed(event_id: int, reason: str) -> None:
    for receiver, answer in results_changed.send_robust(sender=Event, event_id=event_id, reason=reason):
        if isinstance(answer, Exception):
            log.error("results_changed of event %s: %r failed: %r", event_id, receiver, answer,
                      exc_info=(type(answer), answer, answer.__traceback__))
