"""A hand or a game finished at an online table, told to whoever listens (drive.games.signals):
the evening counts an event's hands in its results at once, with no entry step."""
from __future__ import annotations

from engine import GameState, Phase
from drive.games.models import PlayAction, PlayTable
from drive.games.signals import hand_finished, table_finished

SCORED = (Phase.SCORED, Phase.OVER)


def post_hand(*, table: PlayTable, game: GameState, by_robots: bool = False) -> None:
    """After an applied action: if it scored a hand (the game's `hands_played`-th), say so
    with each side's tricks as the engine took them and the hand's trump (rule D2), and if it ended
    the game, say that too. A hand in which a robot stood in for a person is flagged so."""
    if game.phase not in SCORED:
        return
    view = game.view(game.variant.seats[0])  # the trick counts and the trump are public
    hand_finished.send(sender=PlayTable, table=table, hand=game.hands_played, tricks=dict(view["tricks"]),
                       trump=view["trump"], by_robots=by_robots,
                       stood_in=not by_robots and table.event_id is not None and stood_in(table=table, game=game))
    if game.phase == Phase.OVER:
        table_finished.send(sender=PlayTable, table=table)


def stood_in(*, table: PlayTable, game: GameState) -> bool:
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
