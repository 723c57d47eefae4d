"""The ``random`` robot: a uniformly random legal action (the baseline)."""

import random
from typing import Any

from ..actions import Action, parse_action
from ..cards import cards_of, SUIT_MASK
from ..views import SeatView
from .base import LiveView


class RandomRobot:
    name = "random"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> Action:
        legal = view["legal"]
        return parse_action(legal[int(self.rng.random() * len(legal))])

    def choose_card(self, view: SeatView | LiveView) -> int:
        hand, trick = view.hand, view.current_trick
        follow = hand & SUIT_MASK[trick[0][1] // 13] if trick else 0
        legal = cards_of(follow or hand)
        return legal[int(self.rng.random() * len(legal))]
