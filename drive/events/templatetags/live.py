"""{% live_ticket event.pk %}: the ticket to an event's live feed (see drive.tickets).
Used only in templates of views that checked the viewer may see the event."""
from django import template

from drive.tickets import issue_ticket

register = template.Library()


@register.simple_tag
def live_ticket(event_id):
    return issue_ticket(event_id)
