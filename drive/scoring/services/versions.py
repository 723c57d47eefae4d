"""The version of the results an event's standings are computed from.

Every change that can move the standings (a hand result or its correction, seats,
entrants) calls `bump` inside its own transaction, so the change and the new version
commit together. A recomputation records the version it read (`ranking`); standings
whose recorded version is behind are stale.
"""
from django.db import IntegrityError, transaction
from django.db.models import F

from drive.scoring.models import StandingsState


def bump(*, event_id: int) -> None:
    """The stored standings of the event no longer match its rows (call inside the change's
    transaction: the row stays locked until it commits, a few statements later)."""
    if StandingsState.objects.filter(event_id=event_id).update(results_version=F("results_version") + 1):
        return
    try:
        with transaction.atomic():
            StandingsState.objects.create(event_id=event_id, results_version=1)
    except IntegrityError:  # another change created the row meanwhile
        StandingsState.objects.filter(event_id=event_id).update(results_version=F("results_version") + 1)


