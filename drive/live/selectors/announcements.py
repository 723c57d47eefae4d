"""The announcements on the room's screen as stored: reads only."""
from __future__ import annotations

from drive.events.models import Event

from drive.live.models import Announcement

ON_SCREEN = 2  # the newest two: more would push the standings off a 1080-line screen


def current(*, event: Event) -> list[Announcement]:
    """Announcements not taken down, newest first (the console lists them all)."""
    return list(Announcement.objects.filter(event=event, taken_down_at__isnull=True))


def on_screen(*, event: Event) -> list[Announcement]:
    """The newest announcements, those the screen shows on top."""
    return current(event=event)[:ON_SCREEN]
