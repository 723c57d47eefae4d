"""Template tags the evening lends to pages of lower floors (the event page is the events
app's, which cannot ask the movement who plays)."""
from django import template

from drive.scoring.selectors.results import entrant_of

register = template.Library()


@register.simple_tag
def plays_in(user, event) -> bool:
    """Whether the user has a number in the evening's movement."""
    return user.is_authenticated and entrant_of(user, event) is not None
