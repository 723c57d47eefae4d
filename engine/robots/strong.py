"""The ``strong`` robot: sampled double dummy (Monte Carlo over the hidden cards).

For a card to play it deals ``samples`` layouts of the hidden cards consistent
with everything its seat has seen (sampling.py: uniform, constrained dealing),
values every legal card in each layout double dummy (solver.py: DDS for four
hands with trumps or no trump, the engine's alpha-beta elsewhere) and plays
the card with the best average; ties go to the rules robot's card, then to
the lowest. The opening lead is sampled too (``lead_samples`` layouts: the
costliest solves of the hand, hence fewer). Outside the play (auctions,
exchanges) and with one legal card it plays as the rules robot does; the rules
robot reads every view of the play all the same, so that its memory of the
tricks is whole when its card breaks a tie.

The budget is work, not time: ``samples`` layouts (``early_samples`` while
twelve tricks or more are to play, where each solve costs most), and ``nodes`` search nodes
for each layout the engine's own search values; the layouts are dealt from a
generator seeded by ``seed`` and the position, so a decision is the same on
any machine. ``settle`` and ``margin`` may stop the sampling early once one
card leads every other by ``margin`` tricks a layout (off by default: it cost
strength in the duplicate matches). Only the safety cap ``cap_seconds`` reads
the clock: when the next solve, as slow as the slowest so far, would pass it,
the robot stops sampling and plays the rules robot's choice.
"""

import random
import time

from ..actions import Action, parse_action, play
from .rules import RulesRobot
from .sampling import Memory, Situation, deal_layouts, memory_of_seat_view
from .solver import Position, dds_values, search_values


EARLY = 12          # tricks to play at which a double-dummy solve costs the most


class StrongRobot:
    name = "strong"

    def __init__(self, seed: int = 0, samples: int = 20, nodes: int = 2000,
                 cap_seconds: float = 2.0, fallback=None, early_samples: int = 10, lead_samples: int = 8,
                 near: float = 0.0, settle: int = 10**6, margin: float = 0.5):
        self.seed, self.samples, self.nodes, self.cap = seed, samples, nodes, cap_seconds
        self.early_samples = early_samples  # while EARLY tricks or more are to play: the costliest solves
        self.lead_samples = lead_samples    # the opening lead: 0 leaves it to the rules robot
        self.near = near                    # the rules robot's card stands if this close to the best average
        self.settle, self.margin = settle, margin  # stop sampling after settle layouts once one card leads by margin
        self.fallback = fallback if fallback is not None else RulesRobot(seed)
        self.memories: dict = {}            # by seat: what each seat it plays has seen
        self.capped = 0                     # decisions the clock cut short

    # --- the two entrances (base.Robot) ----------------------------------------

    def choose(self, view: dict) -> Action:
        memory = self.memories.setdefault(view["seat"], Memory())
        memory.observe(view)
        legal = [parse_action(a) for a in view["legal"]]
        # the rules robot reads every view of the play, so that its memory of
        # the tricks (voids, cards gone) is whole when its card is asked for
        advice = self.fallback.choose(view)
        if view["phase"] != "play" or len(legal) < 2 or (_opening_lead(view) and not self.lead_samples):
            return advice
        sit = memory.situation(view)
        return play(self.best_card(sit, [a.card for a in legal], advice.card))

    def choose_card(self, view) -> int:
        legal = tuple(view.legal)
        advice = self.fallback.choose_card(view)
        if len(legal) < 2 or (not view.played and not self.lead_samples):
            return advice
        memory = self.memories.setdefault(view.seat, Memory())
        sit = memory_of_seat_view(memory, view)
        return self.best_card(sit, list(legal), advice)

    # --- the search --------------------------------------------------------------

    def best_card(self, sit: Situation, legal: list, rules_card: int) -> int:
        """The legal card with the best average over the sampled layouts."""
        start = time.perf_counter()
        rng = random.Random(f"{self.seed}|{sit.to_play}|{sit.pool}|{sorted(sit.known.items())}|{sit.trick}")
        total = dict.fromkeys(legal, 0.0)
        k = self.early_samples if sit.tricks_left >= EARLY else self.samples
        if not sit.trick and not any(sit.won):
            k = self.lead_samples                       # the opening lead
        slowest, n = 0.0, 0
        for layout in deal_layouts(sit, rng, k):
            if time.perf_counter() - start + slowest > self.cap:
                self.capped += 1            # the next solve could pass the cap
                return rules_card
            began = time.perf_counter()
            values = self.card_values(sit, layout, legal)
            slowest = max(slowest, time.perf_counter() - began)
            for c in legal:
                total[c] += values.get(c, -99.0)
            n += 1
            if n >= self.settle and _clear(total, self.margin * n):
                break                       # one card ahead of every other by the margin: more layouts would not change it
        top = max(total.values())
        if total.get(rules_card, -1e9) >= top - 1e-9 - self.near * n:
            return rules_card
        return next(c for c in legal if total[c] >= top - 1e-9)

    def card_values(self, sit: Situation, layout: dict, legal: list) -> dict:
        pos = Position(sit.hands(layout), sit.seats, list(sit.trick), sit.leader, sit.trump, sit.ranking)
        values = dds_values(pos)
        if values is None:
            values = search_values(pos, self.nodes, legal)
        return values


def _clear(total: dict, lead: float) -> bool:
    """Whether the best card's total beats every other card's by ``lead``
    (cards level with it so far are ties, settled without sampling more)."""
    top = max(total.values())
    return all(v == top or top - v >= lead for v in total.values())


def _opening_lead(view: dict) -> bool:
    return not view.get("trick") and not view.get("last_trick")


__all__ = ["StrongRobot"]
