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

The budget is work: ``samples`` layouts (``early_samples`` while twelve
tricks or more are to play, where each solve costs most; ``late_samples``
from ``late_from`` tricks to play down, where a solve costs a millisecond or
two and the weighing of the candidates costs more than the solving), and
``nodes`` search nodes for each layout the engine's own search values, with
at most ``search_samples`` such layouts (it costs several times a DDS solve:
bid whist's jokers make a trump suit DDS cannot hold). From ``extend_from``
tricks to play down, when the budget is spent and the best two cards are
within ``close`` tricks a layout of each other, up to ``extra`` more layouts
are solved, one at a time, until they are not (time goes where the decision
is close). A choice among equal cards (one suit, no card between them out
of the seat's hand, nor in the trick in progress) is no choice: the rules
robot's card, no layout solved. The layouts are dealt from a generator
seeded by ``seed`` and the position, so a decision is the same on any
machine. Measured (docs/benchmarks.md, 2026-12-03): the later budget and the
extension cut the double-dummy cost of strong's cards on 1,653 positions of
strong-pimc games by 0.0042 tricks a decision (se 0.0030) and on 1,458 of
strong-rules games by 0.0055 (se 0.0036); reading pimc opponents as
double-dummy players (the lowest of equal cards) cost 0.006 (se 0.004) and
was dropped. ``settle`` and ``margin`` may stop the sampling early
once one card leads every other by ``margin`` tricks a layout (off by default:
it cost strength in the duplicate matches).

The time is bounded by ``deadline_seconds`` on the wall clock (issue 19: a
check between solves let one decision take 17.7 s on a loaded machine). The
sampling and solving run in a helper thread while the caller waits on an
event with that timeout (DDS is a ctypes call, which releases the GIL); at
the deadline the caller plays the card with the best average over the
layouts solved so far, or the rules robot's card if none was, and the helper
stops at its next check (between solves, within the weighing and the node
search; it begins no solve past the deadline) with its late results
discarded. ``capped`` counts the decisions the clock cut short. Past half the deadline the
weighing of candidate layouts stops and only those weighed count. DDS runs
one solve at a time in the process (solver.py's lock), so a late solve and
the next decision never overlap: the next one waits for the lock within its
own deadline. With the clock never reached (neither half nor whole) the
card is the one the work budget gives; ``deadline_seconds=None`` turns the clock off (matches, tests)
and searches in the caller's thread. ``cap_seconds``, the old cap checked
between solves, is folded into the deadline: passing it sets
``deadline_seconds`` (``math.inf`` means None).
"""

import math
import random
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

from ..actions import Action, parse_action, play
from ..cards import BIT
from ..tricks import card_power, card_suits
from ..views import SeatView
from .base import LiveView
from .inference import Chance, Fit, decisions, layout_weight, resample
from .rules import RulesRobot
from .sampling import Dealer, Layout, Memory, Situation, memory_of_seat_view
from .solver import Position, Stopped, dds_deal, dds_values, load_solver, search_values

Values: TypeAlias = dict[int, float]        # card -> tricks to the side to play

EARLY = 12          # tricks to play at which a double-dummy solve costs the most
DEADLINE = 1.5      # seconds of wall clock a decision may take (issue 19: at most 2 s, whatever the load)
_UNSET = object()


class StrongRobot:
    name = "strong"

    def __init__(self, seed: int | str = 0, samples: int = 20, nodes: int = 2000,
                 deadline_seconds: float | None = DEADLINE, fallback: RulesRobot | None = None,
                 early_samples: int = 10, lead_samples: int = 8, near: float = 0.0, settle: int = 10**6,
                 margin: float = 0.5, candidates: int = 200, p_opponent: Chance | Sequence[float] = 0.8,
                 p_partner: Chance | Sequence[float] = 0.6, late_samples: int | None = 40,
                 late_from: int = 9, extra: int = 20, close: float = 0.25, extend_from: int = 11,
                 search_samples: int | None = 6,
                 cap_seconds: object = _UNSET):
        if cap_seconds is not _UNSET:       # the old name of the deadline
            assert cap_seconds is None or isinstance(cap_seconds, (int, float))   # a deadline, or None
            deadline_seconds = cap_seconds
        if deadline_seconds is not None and math.isinf(deadline_seconds):
            deadline_seconds = None
        self.seed, self.samples, self.nodes, self.deadline = seed, samples, nodes, deadline_seconds
        load_solver()
        self.early_samples = early_samples  # while EARLY tricks or more are to play: the costliest solves
        self.lead_samples = lead_samples    # the opening lead: 0 leaves it to the rules robot
        self.near = near                    # the rules robot's card stands if this close to the best average
        self.settle, self.margin = settle, margin  # stop sampling after settle layouts once one card leads by margin
        self.candidates = candidates        # layouts dealt to weigh by the play so far (0: no inference)
        self.p_opponent, self.p_partner = _fit(p_opponent), _fit(p_partner)   # inference.py: the rules robot's card, how likely
        self.search_samples = search_samples  # at most this many layouts where the engine's search values them
        self.late_samples = samples if late_samples is None else late_samples   # from late_from tricks to play down
        self.late_from = late_from
        self.extra, self.close, self.extend_from = extra, close, extend_from   # more layouts where the top two are close
        self.fallback = fallback if fallback is not None else RulesRobot(seed)
        self.memories: dict[str | int, Memory] = {}  # by seat (label, or 0-3 on the fast path): what it has seen
        self.capped = 0                     # decisions the deadline cut short

    # --- the two entrances (base.Robot) ----------------------------------------

    def choose(self, view: dict[str, Any]) -> Action:
        start = time.perf_counter()
        memory = self.memories.setdefault(view["seat"], Memory())
        memory.observe(view)
        legal = [parse_action(a) for a in view["legal"]]
        # the rules robot reads every view of the play, so that its memory of
        # the tricks (voids, cards gone) is whole when its card is asked for
        advice = self.fallback.choose(view)
        if view["phase"] != "play" or len(legal) < 2 or (_opening_lead(view) and not self.lead_samples):
            return advice
        sit = memory.situation(view)
        return play(self.best_card(sit, [_card(a) for a in legal], _card(advice), start))

    def choose_card(self, view: SeatView | LiveView) -> int:
        start = time.perf_counter()
        legal = tuple(view.legal)
        advice = self.fallback.choose_card(view)
        if len(legal) < 2 or (not view.played and not self.lead_samples):
            return advice
        memory = self.memories.setdefault(view.seat, Memory())
        sit = memory_of_seat_view(memory, view)
        return self.best_card(sit, list(legal), advice, start)

    # --- the search --------------------------------------------------------------

    def best_card(self, sit: Situation, legal: list[int], rules_card: int, start: float | None = None) -> int:
        """The legal card with the best average over the sampled layouts
        solved before the deadline (counted from ``start``); the rules
        robot's card if none was."""
        if equivalent(sit, legal):
            return rules_card               # every legal card does the same: nothing to search
        search = _Search(self, sit, legal, time.perf_counter() if start is None else start)
        if self.deadline is None:
            search.run()
        else:
            helper = threading.Thread(target=search.run, name="strong-robot", daemon=True)
            helper.start()
            search.done.wait(max(search.start + self.deadline - time.perf_counter(), 0.0))
        total, n, complete = search.result()  # stops the helper; what it finds later is dropped
        self.capped += not complete
        if not n:
            return rules_card
        top = max(total.values())
        if total.get(rules_card, -1e9) >= top - 1e-9 - self.near * n:
            return rules_card
        return next(c for c in legal if total[c] >= top - 1e-9)

    def budget(self, sit: Situation) -> tuple[int, int]:
        """Layouts to solve for this decision, and at most with the extension
        where the top two cards are close."""
        left = sit.tricks_left
        if not sit.trick and not any(sit.won):
            k = self.lead_samples                       # the opening lead
        elif left >= EARLY:
            k = self.early_samples
        elif left <= self.late_from:
            k = self.late_samples
        else:
            k = self.samples
        return k, k + (self.extra if left <= self.extend_from else 0)

    def layouts(self, sit: Situation, rng: random.Random, k: int, start: float,
                stop: threading.Event | None = None) -> tuple[list[Layout], bool]:
        """``k`` layouts to solve, in the order to solve them (a layout drawn
        twice comes twice): dealt uniformly, or, once the other seats have
        played, ``candidates`` dealt, weighed by how well the rules robot's
        play explains what they played (inference.py) and ``k`` drawn from
        them in proportion, then shuffled. Past half the deadline (a loaded
        machine) only the layouts weighed so far count; the second value
        says whether the clock cut the weighing short."""
        dealer = Dealer(sit)
        if self.candidates <= k or not decisions(sit):
            return [dealer.deal(rng) for _ in range(k)], False
        dealt = [dealer.deal(rng) for _ in range(self.candidates)]
        seen: dict[tuple[tuple[int, int], ...], float] = {}   # late in the hand layouts repeat: each is weighed once
        weights: list[float] = []
        for lay in dealt:
            if stop is not None and stop.is_set():
                raise Stopped
            if self.deadline is not None and time.perf_counter() - start > self.deadline / 2:
                break
            key = tuple(sorted(lay.items()))
            if key not in seen:
                seen[key] = layout_weight(sit, sit.hands(lay), self.p_opponent, self.p_partner)
            weights.append(seen[key])
        cut = len(weights) < len(dealt)
        if not weights:
            return [], cut
        drawn = [dealt[i] for i, times in sorted(resample(weights, k, rng.random()).items()) for _ in range(times)]
        rng.shuffle(drawn)
        return drawn, cut

    def solvable(self, sit: Situation) -> bool:
        """Whether DDS values this position (four hands of 13 or fewer in play, no
        joker in no trump...), judged on one layout; else the engine's search does."""
        layout = Dealer(sit).deal(random.Random(0))
        return dds_deal(Position(sit.hands(layout), sit.seats, list(sit.trick), sit.leader, sit.trump,
                                 sit.ranking)) is not None

    def card_values(self, sit: Situation, layout: Layout, legal: list[int],
                    stop: threading.Event | None = None) -> Mapping[int, float]:
        pos = Position(sit.hands(layout), sit.seats, list(sit.trick), sit.leader, sit.trump, sit.ranking)
        values = dds_values(pos, stop)
        if values is None:
            return search_values(pos, self.nodes, legal, stop)
        return values


class _Search:
    """One decision's sampling and solving, run in the caller's thread (no
    deadline) or a helper's; the totals so far are read under a lock, and
    once read the search stops and adds nothing more."""

    def __init__(self, robot: StrongRobot, sit: Situation, legal: list[int], start: float):
        self.robot, self.sit, self.legal, self.start = robot, sit, legal, start
        self.total = dict.fromkeys(legal, 0.0)
        self.n = 0
        self.complete = False               # every layout of the budget solved (or settled early)
        self.lock = threading.Lock()
        self.stop = threading.Event()       # set by the caller at the deadline
        self.done = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self._sample()
        except Stopped:
            pass                            # the caller has gone with what was found
        except BaseException as exc:        # noqa: BLE001 - handed to the caller, not lost in the thread
            self.error = exc
        finally:
            self.done.set()

    def _sample(self) -> None:
        robot, sit, legal = self.robot, self.sit, self.legal
        rng = random.Random(f"{robot.seed}|{sit.to_play}|{sit.pool}|{sorted(sit.known.items())}|{sit.trick}")
        k, most = robot.budget(sit)
        if robot.search_samples is not None and not robot.solvable(sit):
            k = most = min(k, robot.search_samples)    # the engine's own search: costlier than DDS
        chosen, cut = robot.layouts(sit, rng, most, self.start, self.stop)
        solved: dict[tuple[tuple[int, int], ...], Mapping[int, float]] = {}   # a layout drawn twice is solved once
        for i, layout in enumerate(chosen):
            if i >= k and not _close(self.total, robot.close * i):
                break                       # the budget spent and no close call: more layouts would not change it
            if self.stop.is_set() or (robot.deadline is not None
                                      and time.perf_counter() - self.start >= robot.deadline):
                return                      # the caller is gone, or about to go: no solve it would not wait for
            key = tuple(sorted(layout.items()))
            values = solved.get(key)
            if values is None:
                values = solved[key] = robot.card_values(sit, layout, legal, self.stop)
            with self.lock:
                if self.stop.is_set():
                    return                  # too late: the caller has played
                for c in legal:
                    self.total[c] += values.get(c, -99.0)
                self.n += 1
                if self.n >= robot.settle and _clear(self.total, robot.margin * self.n):
                    break                   # one card ahead of every other by the margin: more layouts would not change it
        with self.lock:
            self.complete = not cut and not self.stop.is_set()

    def result(self) -> tuple[Values, int, bool]:
        """The totals, the layouts they count and whether the search ran to
        its end; from here on the search adds nothing."""
        with self.lock:
            self.stop.set()
            if self.error is not None:
                raise self.error
            return dict(self.total), self.n, self.complete


def _clear(total: Values, lead: float) -> bool:
    """Whether the best card's total beats every other card's by ``lead``
    (cards level with it so far are ties, settled without sampling more)."""
    top = max(total.values())
    return all(v == top or top - v >= lead for v in total.values())


def _close(total: Values, within: float) -> bool:
    """Whether the best two cards' totals are within ``within`` of each other."""
    ranked = sorted(total.values(), reverse=True)
    return len(ranked) > 1 and ranked[0] - ranked[1] < within


def equivalent(sit: Situation, legal: list[int]) -> bool:
    """Whether every legal card does the same: one suit, and no card another
    hand may hold, nor one in the trick in progress, between any two of them
    in the order of power (seed 001, necessary rule 15: equal cards)."""
    suit, power = card_suits(sit.trump), card_power(sit.ranking, sit.trump)
    if len({suit[c] for c in legal}) != 1:
        return False
    others = sit.pool
    for p, m in sit.known.items():
        if p != sit.to_play:
            others |= m
    for _, c in sit.trick:
        others |= BIT[c]                # a card in the trick in progress parts them until the trick is over
    low, high = min(power[c] for c in legal), max(power[c] for c in legal)
    s = suit[legal[0]]
    return not any(others & BIT[c] and suit[c] == s and low < power[c] < high for c in range(len(power)))


def _fit(p: Chance | Sequence[float]) -> Chance:
    """A figure for every kind of play, or one a kind (lead, follow, other suit): three
    figures as a tuple, or as the list JSON gives (``robot_positions.py --kw``)."""
    if isinstance(p, Fit):
        return p
    if isinstance(p, (int, float)):
        return float(p)
    lead, follow, discard = p
    return Fit(lead, follow, discard)


def _card(action: Action) -> int:
    assert action.card is not None      # in the play every legal action is a card
    return action.card


def _opening_lead(view: dict[str, Any]) -> bool:
    return not view.get("trick") and not view.get("last_trick")


__all__ = ["StrongRobot"]
