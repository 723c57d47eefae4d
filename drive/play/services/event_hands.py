"""A hand finished at an event's online table goes into the evening's results at once:
a confirmed result through the scoring services (no entry step), so the standings, the
console and the live pages follow as for paper."""
from __future__ import annotations

from engine import GameState, Phase
from drive.play.models import PlayTable
from drive.scoring.services.online import record_played_hand

SCORED = (Phase.SCORED, Phase.OVER)


def hand_over(table: PlayTable, game: GameState) -> bool:
    """The last action ended a hand of an event's table (before the next is dealt)."""
    return table.event_id is not None and game.phase in SCORED


def post_hand(table: PlayTable, game: GameState, *, by_robots: bool = False) -> None:
    """The hand just scored (the game's `hands_played`-th) counted for its round and table:
    the tricks as the engine took them and the hand's trump (rule D2)."""
    if not hand_over(table, game):
        return
    view = game.view(game.variant.seats[0])  # the trick counts and the trump are public
    record_played_hand(event_id=table.event_id, round_number=table.round_number, table_number=table.table_number,
                       hand_number=game.hands_played, ns_tricks=view["tricks"]["NS"], trump=view["trump"],
                       by_robots=by_robots)
