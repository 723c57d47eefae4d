"""What the evening hears from the floors below it (their signals), connected when the app
is ready (drive.scoring.apps): the floors below never learn the evening is there."""
from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from drive.core.accounts import User
from drive.events.models import Event
from drive.events.signals import player_leaving
from drive.games.models import PlayTable
from drive.games.signals import hand_finished
from drive.scoring.services.evening import leave_on_cancellation
from drive.scoring.services.results import record_played_hand


@receiver(player_leaving, dispatch_uid="scoring.player_leaving")
def player_left(sender: type[Event], *, actor: User, event: Event, player_id: int, **_kwargs: Any) -> None:
    """A checked-in player cancelled while the evening runs leaves its movement."""
    leave_on_cancellation(actor=actor, event=event, player_id=player_id)


@receiver(hand_finished, dispatch_uid="scoring.hand_finished")
def hand_played(sender: type[PlayTable], *, table: PlayTable, hand: int, tricks: dict[str, int], trump: str | None,
                by_robots: bool, stood_in: bool, **_kwargs: Any) -> None:
    """A hand played to its end at an event's online table counts for its round and table
    at once (in the action's transaction): a confirmed result, with no entry step."""
    if table.event_id is None or table.round_number is None or table.table_number is None:
        return  # a casual table: nothing of the evening's
    record_played_hand(event_id=table.event_id, round_number=table.round_number, table_number=table.table_number,
                       hand_number=hand, ns_tricks=tricks["NS"], trump=trump, by_robots=by_robots, stood_in=stood_in)
