"""What a read of the standings does when it finds them behind the results.

Final standings (the evening finished or published) are recomputed before they are shown,
under the event's recomputation lock, so what is shown as final is never stale. Live ones
are shown as they are, marked "updating", and a recomputation is asked for (the pending
mark keeps a room of polling phones to one task).
"""
from dataclasses import dataclass

from drive.events.models import Event

from . import ranking, tasks, versions

FINAL = (Event.Phase.FINISHED, Event.Phase.RESULTS_PUBLISHED)


@dataclass
class Freshness:
    version: int  # the results version the shown standings were computed from
    updating: bool  # behind the results: a recomputation is on its way


_UNREAD = object()


def fresh_standings(event: Event, state=_UNREAD) -> Freshness:
    """`state`: the event's StandingsState (or None) when the caller has just read it."""
    state = versions.state_of(event.pk) if state is _UNREAD else state
    behind = versions.is_stale(state) or ranking.left_out_hands(event, state.awaiting_confirmation)
    if not behind:
        return Freshness(state.computed_version, False)
    if event.phase in FINAL:
        ranking.recompute_standings(event_id=event.pk, only_if_stale=True)
        return Freshness(versions.state_of(event.pk).computed_version, False)
    if event.phase == Event.Phase.IN_PROGRESS and state is not None:
        tasks.recompute_standings_soon(event.pk)
        return Freshness(state.computed_version, True)
    return Freshness(0, False)  # no result recorded yet: nothing to compute
