"""Post-hand analysis of a finished four-handed hand, for the hand history.

    analyse(game.record())          # the last hand of the record
    analyse(record, hand=0)         # or any finished hand in it

The double-dummy result of the deal (tricks for each side with the hand's
trump, the first lead as played) and, card by card, what the side to play
could still take with perfect play from there on (``before``: the best card's
value) and what it can take after the card played (``after``); ``cost`` is
their difference, the tricks the card gave away double dummy. Values count
the side's tricks for the whole hand (tricks won so far included).

``lost`` is how many tricks fewer than the double-dummy result the side that
fell short took: at most the hand's tricks. It is not the sum of the cards'
costs: a side's mistake can be given back by the other side's, so in a long
hand of errors on both sides the costs add up to more than the tricks played
(a Siberian hand's costs summed to 14 of 13 tricks, issue 20).

Where DDS applies from the first lead, one DDS AnalysePlay values the whole
play; elsewhere DDS solves every position where it applies (robots/solver.py: four hands,
trumps or no trump, jokers as top trumps, either ranking); elsewhere (a joker
still in play in no trump) the engine's own search is exhaustive once few
cards are left, and the values are None before that.
"""

from typing import Any

from .errors import EngineError
from .cards import card_str
from .games import replay_game
from .state import GameState
from .play import HandState
from .robots.solver import Position, dds_play_line, dds_values, search_values
from .seats import SEATS, SIDES
from .tricks import TrickPlay

EXHAUSTIVE_CARDS = 16            # the own search goes to the end from this many cards in hand


class AnalysisError(EngineError):
    """A record with no finished four-handed hand to analyse."""


def analyse(record: dict[str, Any], hand: int = -1) -> dict[str, Any]:
    """The double-dummy review of one finished hand of a game record."""
    deals = record.get("deals") or []
    if not deals:
        raise AnalysisError("the record holds no hand")
    index = hand % len(deals)
    state = replay_game({**record, "deals": deals[:index + 1]})
    core, labels = _core_of(state)
    if core is None or tuple(core.seats) != (0, 1, 2, 3):
        raise AnalysisError("only four hands in play can be analysed (two-card tricks cannot)")
    if not core.complete:
        raise AnalysisError(f"hand {index} is not finished")
    tp = TrickPlay(core.deal_hands, (0, 1, 2, 3), core.first_leader, core.trump, core.ranking)
    line = dds_play_line(Position(list(core.deal_hands), (0, 1, 2, 3), [], core.first_leader, core.trump,
                                  core.ranking), list(core.plays))
    plays: list[dict[str, Any]] = []
    dd: dict[str, int] | None = None
    for i, card in enumerate(core.plays):
        side = tp.turn & 1
        before: int | None
        after: int | None
        if line is not None:     # the side's tricks for the hand before and after the card
            n = tp.tricks_in_hand
            before, after = (line[i], line[i + 1]) if side == 0 else (n - line[i], n - line[i + 1])
        else:
            won = tp.won[side] + tp.won[side + 2]
            values = card_values(tp)
            before, after = (won + max(values.values()), won + values[card]) if values is not None else (None, None)
        if i == 0 and before is not None:
            dd = {SIDES[side]: before, SIDES[1 - side]: tp.tricks_in_hand - before}
        entry: dict[str, Any] = {"seat": labels[tp.turn], "card": card_str(card), "side": SIDES[side],
                                 "before": before, "after": after,
                                 "cost": None if before is None or after is None else before - after}
        plays.append(entry)
        tp.play(card)
    tricks = {SIDES[s]: tp.won[s] + tp.won[s + 2] for s in (0, 1)}
    return {"hand": index, "trump": "NT" if core.trump == 4 else "SHDC"[core.trump],
            "leader": labels[core.first_leader], "double_dummy": dd,
            "tricks": tricks, "plays": plays, "lost": short_of_best(dd, tricks)}


def short_of_best(dd: dict[str, int] | None, tricks: dict[str, int]) -> int | None:
    """The tricks the side that fell short of the double-dummy result did not take
    (0 when both took it; None with no result): between 0 and the hand's tricks."""
    if dd is None:
        return None
    return max(0, *(dd[side] - tricks[side] for side in SIDES))


def card_values(tp: TrickPlay) -> dict[int, int] | None:
    """Tricks the side to play takes from here after each legal card."""
    pos = Position(list(tp.hands), tp.seats, list(tp.trick),
                   tp.trick[0][0] if tp.trick else tp.turn, tp.trump, tp.ranking)
    values = dds_values(pos)
    if values is None and sum(bin(h).count("1") for h in tp.hands) <= EXHAUSTIVE_CARDS:
        values = {c: round(v) for c, v in search_values(pos, 10 ** 9).items()}
    return values


def _core_of(state: GameState) -> "tuple[TrickPlay | _Plain | None, tuple[str, ...]]":
    """The hand's trick core as a TrickPlay-like object, and the label at each position."""
    core = getattr(state, "hand", None) or getattr(state, "tricks", None)
    if callable(core):   # a hand thrown in (Siberian, all passed): no trick core, only a method
        core = None
    seating = getattr(state, "seating", None)
    labels = tuple(seating.labels) if seating is not None else SEATS
    if isinstance(core, HandState):
        core = _Plain(core)
    return core, labels


class _Plain:
    """The fast core's finished hand seen as the general one's fields."""

    def __init__(self, hand: HandState) -> None:
        self.seats, self.deal_hands, self.plays = (0, 1, 2, 3), hand.deal_hands, hand.plays
        self.first_leader, self.trump, self.ranking = (hand.dealer + 1) & 3, hand.trump, "uptown"
        self.complete = hand.complete


__all__ = ["AnalysisError", "analyse", "card_values", "short_of_best"]
