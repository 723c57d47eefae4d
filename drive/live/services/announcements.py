"""Announcements on the room's screen: the organiser types a line, every open screen shows
it on top within a second, until it is taken down.

Services check the organiser themselves and publish "announcements" on the event's group;
the reads the screen uses are in drive.live.selectors.announcements.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from drive.core import broadcast
from drive.core.accounts import User
from drive.core.errors import Invalid
from drive.events.services.audit import log_action
from drive.events.access import require_organiser
from drive.events.models import Event

from drive.live.models import ANNOUNCEMENT_MAX, Announcement

def _clean(text: str | None) -> str:
    text = " ".join((text or "").split())  # one line: newlines and runs of spaces collapse
    if not text:
        raise Invalid(_("Type what the room should read."), field="text")
    if len(text) > ANNOUNCEMENT_MAX:
        raise Invalid(_("At most %(n)d characters: the room reads it from afar.") % {"n": ANNOUNCEMENT_MAX}, field="text")
    return text


@transaction.atomic
def announce(*, actor: User, event: Event, text: str) -> Announcement:
    """Put a line on every open screen of the event."""
    organiser = require_organiser(actor, event.club)
    announcement = Announcement.objects.create(event=event, text=_clean(text), created_by=organiser)
    log_action(actor=actor, event=event, action="announcement.made", after={"text": announcement.text},
               obj=announcement)
    broadcast.publish(event.pk, broadcast.Change.ANNOUNCEMENTS)
    return announcement


@transaction.atomic
def take_down(*, actor: User, announcement: Announcement) -> Announcement:
    """Take a line off the screens; taking it down twice changes nothing."""
    require_organiser(actor, announcement.event.club)
    if announcement.taken_down_at is None:
        announcement.taken_down_at = timezone.now()
        announcement.save(update_fields=["taken_down_at"])
        log_action(actor=actor, event=announcement.event, action="announcement.taken_down",
                   before={"text": announcement.text}, after={"taken_down_at": announcement.taken_down_at},
                   obj=announcement)
        broadcast.publish(announcement.event_id, broadcast.Change.ANNOUNCEMENTS)
    return announcement
