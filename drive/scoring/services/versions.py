"""The version of the results an event's standings are computed from.

Every change that can move the standings (a hand result or its correction, seats,
entrants) calls `bump` inside its own transaction, so the change and the new version
commit together. A recomputation records the version it read (`ranking`); standings
whose recorded version is behind are stale.
"""
from django.db import IntegrityError, transaction
from django.db.models import F

from drive.scoring.models import StandingsState


def bump(event_id: int) -> None:
    """The stored standings of the event no longer match its rows (call inside the change's
    transaction: the row stays locked until it commits, a few statements later)."""
    if StandingsState.objects.filter(event_id=event_id).update(results_version=F("results_version") + 1):
        return
    try:
        with transaction.atomic():
            StandingsState.objects.create(event_id=event_id, results_version=1)
    except IntegrityError:  # another change created the row meanwhile
        StandingsState.objects.filter(event_id=event_id).update(results_version=F("results_version") + 1)


def state_of(event_id: int) -> StandingsState | None:
    return StandingsState.objects.filter(event_id=event_id).first()


def is_stale(state: StandingsState | None) -> bool:
    """No state yet (standings never computed since versions exist) counts as stale."""
    return state is None or state.stale


def stale_event_ids() -> list[int]:
    return list(StandingsState.objects.filter(computed_version__lt=F("results_version"))
                .order_by("event_id").values_list("event_id", flat=True))
