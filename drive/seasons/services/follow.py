"""The season tables follow the evenings: the evening (a floor down) signals when its
published results go out or change (drive.scoring.signals), and every season the evening
counts in has its table recomputed by a task."""
from __future__ import annotations

from typing import Any

from drive.events.models import Event
from drive.seasons.selectors import seasons as selectors
from drive.seasons.services.table import table_changed


def evening_results_changed(*, sender: type, event_id: int, **kwargs: Any) -> list[int]:
    """The receiver of `results_changed` (sent after commit): ask for a recomputation of the
    tables of the event's seasons; their ids."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return []
    seasons = selectors.seasons_counting(event)
    for season_id in seasons:
        table_changed(season_id=season_id)
    return seasons
