"""The event a page or endpoint acts on: 404 when the user may not see it, 403 when they
do not organise it. One lookup for every app's views."""
from django.shortcuts import get_object_or_404

from drive.events.selectors import events as selectors
from drive.events.permissions import require_organiser


def visible_event(user, event_id):
    return get_object_or_404(selectors.visible_events(user).select_related("club"), pk=event_id)


def organised_event(user, event_id):
    event = visible_event(user, event_id)
    require_organiser(user, event.club)
    return event
