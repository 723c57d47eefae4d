"""What the events app tells the floors above it, without knowing them (DESIGN: a lower
floor learns of a higher one's work through signals, never by a list of hooks).

`player_leaving` is sent, in the cancellation's transaction (the event's row locked), when a
checked-in player of an evening in progress is cancelled: their movement is the evening's
(scoring, a floor up), and its receiver takes them out of it. Sent with sender=Event,
actor=<User>, event=<Event>, player_id=<int>. A receiver's error (a Conflict: too few
players left) undoes the cancellation; with no receiver the cancellation is refused.
"""
from __future__ import annotations

from django.dispatch import Signal

player_leaving = Signal()
