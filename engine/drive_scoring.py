"""Whist-drive scoring (rules D1-D5): every hand is scored alone.

Pure helpers for the service layer; the event's choices come from the ruleset
(``drive_score``, ``hands_per_round``) and from the event itself (tie-breaks,
sit-out method).
"""

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from decimal import Decimal
from typing import TypeVar

from .errors import EngineError
from .rules import Ruleset
from .scoring import Pair, check_tricks

Player = TypeVar("Player", bound=Hashable)

TIEBREAKS = ("hands_won", "second_half")  # D4: one documented rule; an event may choose another
SIT_OUT_METHODS = ("own_average", "room_average")  # D5


def drive_hand_score(tricks: int, rules: Ruleset) -> int:
    """A player's score for a hand (D3): the tricks their partnership took
    (0-13), or under ``drive_score="over_six"`` the tricks over six (S7.1)."""
    if not 0 <= tricks <= 13:
        raise EngineError(f"tricks must be 0-13, not {tricks}")
    return tricks if rules.drive_score == "tricks" else max(0, tricks - 6)


def drive_hand_scores(tricks: Sequence[int], rules: Ruleset) -> Pair:
    """Scores of N-S and E-W for one hand; both partners record the same (D3)."""
    ns, ew = check_tricks(tricks)
    return drive_hand_score(ns, rules), drive_hand_score(ew, rules)


def hand_won(tricks: int) -> bool:
    """A hand is won by the partnership taking seven or more tricks."""
    return tricks >= 7


def sit_out_score(own_scores: Iterable[float], room_scores: Iterable[float],
                  method: str = "own_average") -> float:
    """The documented average for a round sat out (D5): the player's own
    average per hand so far, or the room's; never zero by default. With no
    hands of one's own yet, the room average stands in."""
    if method not in SIT_OUT_METHODS:
        raise EngineError(f"sit-out method must be one of {SIT_OUT_METHODS}")
    own, room = list(own_scores), list(room_scores)
    if method == "own_average" and own:
        return sum(own) / len(own)
    if room:
        return sum(room) / len(room)
    return sum(own) / len(own) if own else 0.0


def player_total(scores: Iterable[float]) -> float:
    """A player's total: the sum over the hands they played (D4)."""
    return sum(scores)


def rank(entries: Mapping[Player, Mapping[str, float | Decimal]], tiebreaks: Sequence[str] = TIEBREAKS,
         rng: random.Random | None = None) -> list[tuple[int, Player]]:
    """Places for a prize list (D4). ``entries`` maps a player to a dict with
    ``total`` and the tie-break keys; higher is better. Players still equal
    share a place, or with ``rng`` are ordered by lot. Returns
    ``[(place, player), ...]`` best first."""
    def key(p: Player) -> tuple[float | Decimal, ...]:
        e = entries[p]
        return (e["total"],) + tuple(e.get(k, 0) for k in tiebreaks)

    players = list(entries)
    lots = {p: rng.random() if rng else 0.0 for p in players}
    players.sort(key=lambda p: (key(p), lots[p]), reverse=True)
    placed: list[tuple[int, Player]] = []
    prev: object = None
    place = 0
    for i, p in enumerate(players):
        k: object = key(p) if rng is None else (key(p), lots[p])
        if k != prev:
            place, prev = i + 1, k
        placed.append((place, p))
    return placed
