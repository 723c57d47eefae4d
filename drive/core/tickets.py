"""Tickets to an event's live feed (websocket): signed, expiring, one event each.

A page that may show an event (its view checked that: the public standings of a
published event, a player's own evening, a table's or the screen's token, the
organiser's console) carries a ticket for it; the socket's URL sends it back
(`?ticket=...`) and the consumer refuses a socket without a valid one for that event.
Without tickets any socket could listen to any event id, unpublished and other clubs'.
"""
from __future__ import annotations

from django.conf import settings
from django.core import signing

SALT = "drive.live.ticket"
MAX_AGE = 24 * 3600  # seconds: an evening and more (settings.LIVE_TICKET_MAX_AGE)


def _signer(key: str | None = None) -> signing.TimestampSigner:
    return signing.TimestampSigner(key=key, salt=SALT)


def issue_ticket(event_id: int, key: str | None = None) -> str:
    """`key`: another server's SECRET_KEY (a bench's own server), else this one's."""
    return _signer(key).sign(str(int(event_id)))


def ticket_admits(ticket: str, event_id: int) -> bool:
    """The ticket is ours, not expired, and for this event."""
    try:
        value = _signer().unsign(ticket or "", max_age=getattr(settings, "LIVE_TICKET_MAX_AGE", MAX_AGE))
    except signing.BadSignature:  # SignatureExpired included
        return False
    return value == str(int(event_id))
