"""What a read of the standings does when it finds them behind the results.

Final standings (the evening finished or published) are recomputed before they are shown,
under the event's recomputation lock, so what is shown as final is never stale. Live ones
are shown as they are, marked "updating", and a recomputation is asked for (the pending
mark keeps a room of polling phones to one task).
"""
from __future__ import annotations

from drive.events.models import Event
from drive.scoring.models import StandingsState
from drive.scoring.selectors.standings import Freshness, is_stale, left_out_hands, state_of
from drive.scoring.services import ranking, recompute

_UNREAD = object()


def fresh_standings(*, event: Event, state: StandingsState | None | object = _UNREAD) -> Freshness:
    """`state`: the event's StandingsState (or None) when the caller has just read it."""
    read = state_of(event.pk) if state is _UNREAD else state
    current = read if isinstance(read, StandingsState) else None
    if current is not None and not is_stale(current) and not left_out_hands(event, current.awaiting_confirmation):
        return Freshness(current.computed_version, False, current)
    if event.is_over:
        ranking.recompute_standings(event_id=event.pk, only_if_stale=True)
        current = state_of(event.pk)  # the recomputation stores one
        return Freshness(current.computed_version if current else 0, False, current)
    if event.phase == Event.Phase.IN_PROGRESS and current is not None:
        recompute.recompute_standings_soon(event_id=event.pk)
        return Freshness(current.computed_version, True, current)
    return Freshness(0, False, current)  # no result recorded yet: nothing to compute
