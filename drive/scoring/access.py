"""The event a results page or endpoint reads: who may read the results, and the
player's own evening."""
from django.utils.translation import gettext as _

from drive.core.errors import Forbidden, NotFound
from drive.core.accounts import User
from drive.events.access import any_event, is_organiser, visible_event
from drive.events.models import Event
from drive.movements.models import Entrant
from drive.scoring.selectors.results import entrant_of


def results_event(user: User, event_id: int) -> Event:
    """The event whose results the user may read: everyone once published, before that the
    club's organisers only (403 for others)."""
    event = visible_event(user, event_id)
    if event.phase != Event.Phase.RESULTS_PUBLISHED and not is_organiser(user, event.club):
        raise Forbidden(_("The results are not published yet."))
    return event


def players_event(user: User, event_id: int) -> tuple[Event, Entrant]:
    """The event and the user's entry in it; 404 when they do not play in it."""
    event = any_event(event_id)
    entrant = entrant_of(user, event)
    if entrant is None:
        raise NotFound(_("You are not playing in this whist drive."))
    return event, entrant
