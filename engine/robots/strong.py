"""The ``strong`` robot: sampled double dummy (Monte Carlo over the hidden cards).

For a card to play it deals ``samples`` layouts of the hidden cards consistent
with everything its seat has seen (sampling.py: uniform, constrained dealing),
values every legal card in each layout double dummy (solver.py: DDS for four
hands with trumps or no trump, the engine's alpha-beta elsewhere) and plays
the card with the best average; ties go to the rules robot's card, then to
the lowest. Outside the play (auctions, exchanges), with one legal card, and
for the opening lead (no card seen fall: a double-dummy lead is a guess and
the costliest solve of the hand) it plays as the rules robot does.

The budget is work, not time: ``samples`` layouts (``early_samples`` while
twelve tricks or more are to play, where each solve costs most), and ``nodes`` search nodes
for each layout the engine's own search values; the layouts are dealt from a
generator seeded by ``seed`` and the position, so a decision is the same on
any machine. Only the safety cap ``cap_seconds`` reads the clock: past it the
robot stops sampling and plays the rules robot's choice.
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
                 cap_seconds: float = 2.0, fallback=None, early_samples: int = 10):
        self.seed, self.samples, self.nodes, self.cap = seed, samples, nodes, cap_seconds
        self.early_samples = early_samples  # while EARLY tricks or more are to play: the costliest solves
        self.fallback = fallback if fallback is not None else RulesRobot(seed)
        self.memories: dict = {}            # by seat: what each seat it plays has seen
        self.capped = 0                     # decisions the clock cut short

    # --- the two entrances (base.Robot) ----------------------------------------

    def choose(self, view: dict) -> Action:
        memory = self.memories.setdefault(view["seat"], Memory())
        memory.observe(view)
        legal = [parse_action(a) for a in view["legal"]]
        if view["phase"] != "play" or len(legal) < 2 or _opening_lead(view):
            return self.fallback.choose(view)
        sit = memory.situation(view)
        card = self.best_card(sit, [a.card for a in legal], lambda: self.fallback.choose(view).card)
        return play(card)

    def choose_card(self, view) -> int:
        legal = tuple(view.legal)
        if len(legal) < 2 or not view.played:
            return self.fallback.choose_card(view)
        memory = self.memories.setdefault(view.seat, Memory())
        sit = memory_of_seat_view(memory, view)
        return self.best_card(sit, list(legal), lambda: self.fallback.choose_card(view))

    # --- the search --------------------------------------------------------------

    def best_card(self, sit: Situation, legal: list, rules_card) -> int:
        """The legal card with the best average over the sampled layouts."""
        start = time.perf_counter()
        rng = random.Random(f"{self.seed}|{sit.to_play}|{sit.pool}|{sorted(sit.known.items())}|{sit.trick}")
        total = dict.fromkeys(legal, 0.0)
        k = self.early_samples if sit.tricks_left >= EARLY else self.samples
        for layout in deal_layouts(sit, rng, k):
            values = self.card_values(sit, layout, legal)
            for c in legal:
                total[c] += values.get(c, -99.0)
            if time.perf_counter() - start > self.cap:
                self.capped += 1
                return rules_card()
        top = max(total.values())
        best = [c for c in legal if total[c] >= top - 1e-9]
        if len(best) > 1:
            preferred = rules_card()
            if preferred in best:
                return preferred
        return best[0]

    def card_values(self, sit: Situation, layout: dict, legal: list) -> dict:
        pos = Position(sit.hands(layout), sit.seats, list(sit.trick), sit.leader, sit.trump, sit.ranking)
        values = dds_values(pos)
        if values is None:
            values = search_values(pos, self.nodes, legal)
        return values


def _opening_lead(view: dict) -> bool:
    return not view.get("trick") and not view.get("last_trick")


__all__ = ["StrongRobot"]
