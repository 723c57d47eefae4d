"""{{ name|prize_name }}: a prize's name as the reader reads it (drive.events.prizes.shown_name)."""
from django import template

from drive.events.prizes import shown_name

register = template.Library()


@register.filter
def prize_name(prize) -> str:
    """A prize's name, from its {name, kind} or the name itself (older rows)."""
    return shown_name(prize.get("name", "") if isinstance(prize, dict) else prize)
