"""The room's screen as stored: no writes, no permission decisions (the token in a
screen's URL is the key; the console's pages check the organiser before they read)."""
from __future__ import annotations

from drive.events.models import Event

from drive.live.models import Screen


def screen_of(event: Event) -> Screen | None:
    """The event's screen, or None until the organiser makes a link or sets the chime
    (read through the event, so a screen loaded with it costs no query)."""
    try:
        return event.screen
    except Screen.DoesNotExist:
        return None


def screen_token(event: Event) -> str | None:
    """The token of the event's screen link; None when there is none (never made, or revoked)."""
    screen = screen_of(event)
    return screen.token if screen is not None else None


def chimes(event: Event) -> bool:
    """Whether the event's open screens sound a chime when the round clock reaches zero."""
    screen = screen_of(event)
    return screen is not None and screen.chime


def event_for_screen(token: str | None) -> Event | None:
    """The event whose screen link this is, or None (a wrong or revoked link)."""
    if not token:
        return None
    return Event.objects.filter(screen__token=token).select_related("club", "screen").first()
