"""The ``pimc`` robot: plain Perfect Information Monte Carlo, the yardstick the
``strong`` robot is measured against (issue 23).

For each card to play it deals ``samples`` (20) layouts of the cards its seat
cannot see, uniformly among those consistent with what the seat knows
(sampling.py: its own hand, the cards played, the voids shown by failures to
follow, the turned-up trump card with the dealer), values every legal card in
each layout double dummy (solver.py: DDS through endplay for four hands of 13,
the engine's alpha-beta within ``nodes`` search nodes elsewhere) and plays the
card with the best mean. Ties go to the lowest card (the lowest power in the
hand's ranking, then the lowest number). No inference, no deadline, no card
skipped: every decision with two legal cards or more solves every layout, the
opening lead included. The layouts come from a generator seeded by ``seed``
and the position, so the same seed and position give the same card.

Outside the play (auctions, exchanges) and with one legal card it acts as the
rules robot does, which reads every view of the play as the strong robot's
fallback does.
"""

import random
from collections.abc import Mapping
from typing import Any

from ..actions import Action, parse_action, play
from ..tricks import card_power
from ..views import SeatView
from .base import LiveView
from .rules import RulesRobot
from .sampling import Dealer, Layout, Memory, Situation, memory_of_seat_view
from .solver import Position, dds_values, load_solver, search_values


class PimcRobot:
    name = "pimc"

    def __init__(self, seed: int | str = 0, samples: int = 20, nodes: int = 2000) -> None:
        self.seed, self.samples, self.nodes = seed, samples, nodes
        load_solver()
        self.fallback = RulesRobot(seed)
        self.memories: dict[str | int, Memory] = {}     # by seat: what it has seen

    def choose(self, view: dict[str, Any]) -> Action:
        memory = self.memories.setdefault(view["seat"], Memory())
        memory.observe(view)
        advice = self.fallback.choose(view)
        legal = [parse_action(a) for a in view["legal"]]
        if view["phase"] != "play" or len(legal) < 2:
            return advice
        cards = [a.card for a in legal if a.card is not None]
        return play(self.best_card(memory.situation(view), cards))

    def choose_card(self, view: SeatView | LiveView) -> int:
        legal = list(view.legal)
        advice = self.fallback.choose_card(view)
        if len(legal) < 2:
            return advice
        memory = self.memories.setdefault(view.seat, Memory())
        return self.best_card(memory_of_seat_view(memory, view), legal)

    def best_card(self, sit: Situation, legal: list[int]) -> int:
        """The legal card with the best mean over ``samples`` layouts."""
        total = self.totals(sit, legal)
        return best_of(total, legal, sit)

    def totals(self, sit: Situation, legal: list[int]) -> dict[int, float]:
        """Each legal card's tricks summed over the layouts."""
        rng = random.Random(position_key(self.seed, sit, "pimc"))
        dealer = Dealer(sit)
        total = dict.fromkeys(legal, 0.0)
        for _ in range(self.samples):
            values = layout_values(sit, dealer.deal(rng), legal, self.nodes)
            for c in legal:
                total[c] += values.get(c, -99.0)
        return total


def position_key(seed: int | str, sit: Situation, salt: str = "") -> str:
    """The text seeding a decision's generator: the robot's seed and all the
    seat knows of the position (the same position, the same layouts)."""
    return f"{seed}|{salt}|{sit.to_play}|{sit.pool}|{sorted(sit.known.items())}|{sit.trick}"


def layout_values(sit: Situation, layout: Layout, legal: list[int], nodes: int) -> Mapping[int, float]:
    """Each legal card's tricks to the side to play in one layout, double dummy."""
    pos = Position(sit.hands(layout), sit.seats, list(sit.trick), sit.leader, sit.trump, sit.ranking)
    values = dds_values(pos)
    if values is None:
        return search_values(pos, nodes, legal)
    return values


def best_of(total: Mapping[int, float], legal: list[int], sit: Situation) -> int:
    """The card with the best total; among equals the lowest (power, then number)."""
    power = card_power(sit.ranking, sit.trump)
    top = max(total[c] for c in legal)
    return min((c for c in legal if total[c] >= top - 1e-9), key=lambda c: (power[c], c))


__all__ = ["PimcRobot", "best_of", "layout_values", "position_key"]
