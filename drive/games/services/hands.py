"""A hand finished at an event's online table goes into the evening's results at once:
a confirmed result through the scoring services (no entry step), so the standings, the
console and the live pages follow as for paper."""
from __future__ import annotations

from engine import GameState, Phase
from drive.play.models import PlayAction, PlayTable
from drive.scoring.services.online import record_played_hand

SCORED = (Phase.SCORED, Phase.OVER)


def hand_over(table: PlayTable, game: GameState) -> bool:
    """The last action ended a hand of an event's table (before the next is dealt)."""
    return table.event_id is not None and game.phase in SCORED


def post_hand(table: PlayTable, game: GameState, *, by_robots: bool = False) -> None:
    """The hand just scored (the game's `hands_played`-th) counted for its round and table:
    the tricks as the engine took them and the hand's trump (rule D2). A hand in which a
    robot stood in for a person who was not there is flagged so (as robots' hands are)."""
    if not hand_over(table, game):
        return
    view = game.view(game.variant.seats[0])  # the trick counts and the trump are public
    record_played_hand(event_id=table.event_id, round_number=table.round_number, table_number=table.table_number,
                       hand_number=game.hands_played, ns_tricks=view["tricks"]["NS"], trump=view["trump"],
                       by_robots=by_robots, stood_in=not by_robots and stood_in(table, game))


def stood_in(table: PlayTable, game: GameState) -> bool:
    """A robot played for a person in the hand just ended: one stands in for them now (the
    last card, not logged yet, was theirs or is to come from them), or a robot's action of
    the hand was logged at a person's seat."""
    seats = list(table.seats.all())
    people = {s.seat for s in seats if s.user_id is not None}
    if any(s.standin for s in seats if s.user_id is not None):
        return True
    deal = (game.record().get("deals") or [{}])[-1]
    earlier = max(len(deal.get("actions", [])) - 1, 0)  # the hand's actions before the last
    logged = PlayAction.objects.filter(table=table).order_by("-version").values_list("seat", "by_robot")[:earlier]
    return any(by_robot and seat in people for seat, by_robot in logged)
