"""What the evening hears from the floors below it (their signals), connected when the app
is ready (drive.scoring.apps): the floors below never learn the evening is there."""
from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from drive.core.accounts import User
from drive.events.models import Event
from drive.events.signals import player_leaving
from drive.scoring.services.evening import leave_on_cancellation


@receiver(player_leaving, dispatch_uid="scoring.player_leaving")
def player_left(sender: type[Event], *, actor: User, event: Event, player_id: int, **_kwargs: Any) -> None:
    """A checked-in player cancelled while the evening runs leaves its movement."""
    leave_on_cancellation(actor, event, player_id)
