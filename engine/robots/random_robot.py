"""The ``random`` robot: a uniformly random legal action (the baseline)."""

import random

from ..actions import Action, parse_action
from ..cards import cards_of, SUIT_MASK


class RandomRobot:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, view: dict) -> Action:
        legal = view["legal"]
        return parse_action(legal[int(self.rng.random() * len(legal))])

    def choose_card(self, view) -> int:
        hand, trick = view.hand, view.current_trick
        follow = hand & SUIT_MASK[trick[0][1] // 13] if trick else 0
        legal = cards_of(follow or hand)
        return legal[int(self.rng.random() * len(legal))]
