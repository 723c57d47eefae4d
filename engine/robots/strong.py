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

Inference from the play (inference.py): once the other seats have chosen
cards, ``candidates`` layouts are dealt, each weighed by how likely the cards
the others played were if they play as the rules robot does (``p_opponent``,
``p_partner``: the chance of the rules robot's card), and the ``samples``
layouts solved are drawn from them in proportion (systematic resampling; a
layout drawn twice is solved once and counts twice). Plain four-handed whist
only; elsewhere the layouts are dealt uniformly.

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
from .inference import decisions, layout_weight, resample
from .rules import RulesRobot
from .sampling import Dealer, Memory, Situation, memory_of_seat_view
from .solver import Position, dds_values, search_values


EARLY = 12          # tricks to play at which a double-dummy solve costs the most


class StrongRobot:
    name = "strong"

    def __init__(self, seed: int = 0, samples: int = 20, nodes: int = 2000,
                 cap_seconds: float = 1.5, fallback=None, early_samples: int = 10, lead_samples: int = 8,
                 near: float = 0.0, settle: int = 10**6, margin: float = 0.5,
                 candidates: int = 200, p_opponent: float = 0.8, p_partner: float = 0.6):
        self.seed, self.samples, self.nodes, self.cap = seed, samples, nodes, cap_seconds
        self.early_samples = early_samples  # while EARLY tricks or more are to play: the costliest solves
        self.lead_samples = lead_samples    # the opening lead: 0 leaves it to the rules robot
        self.near = near                    # the rules robot's card stands if this close to the best average
        self.settle, self.margin = settle, margin  # stop sampling after settle layouts once one card leads by margin
        self.candidates = candidates        # layouts dealt to weigh by the play so far (0: no inference)
        self.p_opponent, self.p_partner = p_opponent, p_partner   # inference.py: the rules robot's card, how likely
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
        for layout, times in self.layouts(sit, rng, k, start):
            if time.perf_counter() - start + slowest > self.cap:
                self.capped += 1            # the next solve could pass the cap
                return rules_card
            began = time.perf_counter()
            values = self.card_values(sit, layout, legal)
            slowest = max(slowest, time.perf_counter() - began)
            for c in legal:
                total[c] += times * values.get(c, -99.0)
            n += times
            if n >= self.settle and _clear(total, self.margin * n):
                break                       # one card ahead of every other by the margin: more layouts would not change it
        top = max(total.values())
        if total.get(rules_card, -1e9) >= top - 1e-9 - self.near * n:
            return rules_card
        return next(c for c in legal if total[c] >= top - 1e-9)

    def layouts(self, sit: Situation, rng: random.Random, k: int, start: float) -> list:
        """``k`` layouts to solve as ``[(layout, times)]``: dealt uniformly, or,
        once the other seats have played, ``candidates`` dealt, weighed by
        how well the rules robot's play explains what they played
        (inference.py) and ``k`` drawn from them in proportion. Past half the
        clock cap (a loaded machine) only the layouts weighed so far count."""
        dealer = Dealer(sit)
        if self.candidates <= k or not decisions(sit):
            return [(dealer.deal(rng), 1) for _ in range(k)]
        dealt = [dealer.deal(rng) for _ in range(self.candidates)]
        seen: dict = {}                     # late in the hand layouts repeat: each is weighed once
        weights = []
        for lay in dealt:
            if time.perf_counter() - start > self.cap / 2:
                self.capped += 1
                break
            key = tuple(sorted(lay.items()))
            if key not in seen:
                seen[key] = layout_weight(sit, sit.hands(lay), self.p_opponent, self.p_partner)
            weights.append(seen[key])
        merged: dict = {}
        for i, times in sorted(resample(weights, k, rng.random()).items()):
            key = tuple(sorted(dealt[i].items()))
            layout, n = merged.get(key, (dealt[i], 0))
            merged[key] = (layout, n + times)
        return list(merged.values())

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
