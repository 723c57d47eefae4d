"""Local search for exactly R rounds when no whole design fits.

Minimises, lexicographically: partner repeats (and opponents met more than
twice), then same-table meetings above the lower bound ceil(3g/(v-1)), then
opponent repeats. Sit-outs are fixed before the search and never move, so
they stay within one; positions listed as frozen (a re-plan keeps seated
players) never move either.

The search is seeded and spends a budget of annealing steps, never seconds:
the same request gives the same movement on any machine, however loaded. A
wall-clock cap is only a safety net far above the expected time; when it
stops a search the Budget says so (and a warning is logged).
"""
from __future__ import annotations

import logging
import math
import random
import time
from dataclasses import dataclass, field
from math import ceil

from drive.movements.algorithms.schedule import Round, as_table

log = logging.getLogger(__name__)

W1, W2 = 10**12, 10**6  # tier weights of the reported cost: lexicographic in practice
HARD_ONLY, LOCKED = (1, 0, 0), (10**9, 1000, 1)  # the two phases' annealing weights
PARTNER, OPPONENT = ((0, 2), (1, 3)), ((0, 1), (1, 2), (2, 3), (3, 0))
FIRST_SLICE = 2_000  # steps of the first hard-limits annealing; each next one 1.5x
STALL = 20_000  # polishing stops after this many steps without improving (bounds met)
CHECK_EVERY = 4096  # steps between looks at the safety net's clock
DEFAULT_WORK = 20_000  # steps: tests and bench; the service reads settings.MOVEMENT_WORK_BUDGET (the same)
DEFAULT_CAP = 240.0  # seconds: the safety net, far above the expected time (settings: the same)


@dataclass
class Budget:
    """Annealing steps the search may take, and the safety net in seconds.

    After the search: `used` steps were taken, `cap_hit` if the clock stopped it
    (then the result depends on the machine, and the report says so)."""
    work: int = DEFAULT_WORK
    cap_seconds: float = DEFAULT_CAP
    used: int = 0
    cap_hit: bool = False
    started: float = 0.0  # set when the search starts

    def left(self) -> int:
        return 0 if self.cap_hit else max(0, self.work - self.used)

    def check_clock(self) -> bool:
        """True once the safety net has stopped the search."""
        if not self.cap_hit and time.monotonic() - self.started > self.cap_seconds:
            self.cap_hit = True
            log.warning("movement search stopped by its %.0f s safety net after %d of %d steps: "
                        "the result now depends on this machine's speed", self.cap_seconds, self.used, self.work)
        return self.cap_hit

    def report(self) -> dict:
        return {"work_budget": self.work, "work_done": self.used,
                "safety_cap_seconds": self.cap_seconds, "safety_cap_hit": self.cap_hit}


@dataclass
class Plan:
    """Future rounds: seats[r] is a flat list (4 per table, N E S W)."""
    seats: list[list[int]]
    sit_out: list[tuple[int, ...]]
    frozen: list[set[int]] = field(default_factory=list)  # per round: positions

    def rounds(self) -> list[Round]:
        return [
            Round(tuple(as_table(s[i:i + 4]) for i in range(0, len(s), 4)), tuple(o))
            for s, o in zip(self.seats, self.sit_out)
        ]


class Search:
    def __init__(self, v: int, plan: Plan, history: list[Round], rng: random.Random):
        self.v, self.n, self.plan, self.rng = v, v + 1, plan, rng
        self.P = [0] * self.n * self.n
        self.O = [0] * self.n * self.n
        self.history = history
        games = [0] * self.n
        for r in history + plan.rounds():
            for t in r.tables:
                self._table(t, 1)
                for p in t:
                    games[p] += 1
        g = max(games)
        self.bound_t = max(1, ceil(3 * g / max(1, v - 1)))
        self.bound_p = max(1, ceil(g / max(1, v - 1)))
        self.pos = [{p: i for i, p in enumerate(s)} for s in plan.seats]
        self.w = (W1, W2, 1)
        self.repeats_floor = self._repeats_floor()

    def _repeats_floor(self) -> int:
        """Opponent repeats no plan avoids: each game gives a player two opponents, from only
        v - 1 others, and a swap never changes how many games anyone plays."""
        n, O = self.n, self.O
        forced = sum(max(0, sum(O[a * n:(a + 1) * n]) - (self.v - 1)) for a in range(1, n))
        return (forced + 1) // 2  # each repeated pair counted at both players

    def floor(self) -> int:
        """A cost under the current weights that no plan goes below: reached, the search stops."""
        return self.w[2] * self.repeats_floor

    def _table(self, t, k):
        n, P, O = self.n, self.P, self.O
        for i, j in PARTNER:
            P[t[i] * n + t[j]] += k
            P[t[j] * n + t[i]] += k
        for i, j in OPPONENT:
            O[t[i] * n + t[j]] += k
            O[t[j] * n + t[i]] += k

    def tiers(self, a: int, b: int) -> tuple[int, int, int]:
        i = a * self.n + b
        p, o = self.P[i], self.O[i]
        hard = max(0, p - self.bound_p) ** 2 + max(0, o - 2) ** 2
        return hard, max(0, p + o - self.bound_t) ** 2, max(0, o - 1)

    def pair_cost(self, a: int, b: int) -> int:
        """The weighted tiers(a, b), inlined: the search's innermost call."""
        i = a * self.n + b
        p, o = self.P[i], self.O[i]
        cost = 0
        if o > 1:
            cost = self.w[2] * (o - 1)
            if o > 2:
                cost += self.w[0] * (o - 2) ** 2
        if p > self.bound_p:
            cost += self.w[0] * (p - self.bound_p) ** 2
        if p + o > self.bound_t:
            cost += self.w[1] * (p + o - self.bound_t) ** 2
        return cost

    def bad(self, a: int, b: int) -> bool:
        h, s, _ = self.tiers(a, b)
        return bool(h or (s and self.w[1]))

    def cost(self) -> int:
        return sum(self.pair_cost(a, b) for a in range(1, self.n) for b in range(a + 1, self.n))

    def swap_delta(self, r: int, x: int, y: int, apply: bool = False) -> int:
        """Cost change of swapping seat positions x and y of round r."""
        seats = self.plan.seats[r]
        mates = {p for t in {x // 4, y // 4} for p in seats[4 * t:4 * t + 4]}
        pairs = [(a, b) for a in mates for b in mates if a < b]
        before = sum(self.pair_cost(a, b) for a, b in pairs)
        self._swap(r, x, y)
        after = sum(self.pair_cost(a, b) for a, b in pairs)
        if not apply:
            self._swap(r, x, y)  # back: counts restored
        return after - before

    def _swap(self, r: int, x: int, y: int) -> None:
        seats = self.plan.seats[r]
        tabs = {x // 4, y // 4}
        for t in tabs:
            self._table(seats[4 * t:4 * t + 4], -1)
        seats[x], seats[y] = seats[y], seats[x]
        for t in tabs:
            self._table(seats[4 * t:4 * t + 4], 1)
        pos = self.pos[r]
        pos[seats[x]], pos[seats[y]] = x, y

    def movable(self, r: int) -> list[int]:
        fr = self.plan.frozen[r] if self.plan.frozen else set()
        return [i for i in range(len(self.plan.seats[r])) if i not in fr]

    def run(self, budget: Budget, polish: bool = True) -> int:
        """Anneal the partner/opponent limits alone, then the same-table and
        opponent repeats with those limits locked; keep the best plan seen."""
        rounds = [r for r in range(len(self.plan.seats)) if len(self.movable(r)) > 1]
        if rounds:
            free = {r: self.movable(r) for r in rounds}
            self.w = HARD_ONLY  # reheat from the best plan in growing slices
            slice_ = FIRST_SLICE
            while self.cost() and budget.left():
                self.anneal(free, budget, min(budget.left(), slice_), 0.6, 0.05)
                slice_ = slice_ * 3 // 2
            self.w = LOCKED
            if polish and budget.left():
                self.anneal(free, budget, budget.left(), 600.0, 0.5)
        self.w = (W1, W2, 1)
        return self.cost()

    def anneal(self, free: dict, budget: Budget, steps: int, t_hot: float, t_cold: float) -> None:
        """At most `steps` swaps tried, cooling geometrically over them."""
        rng, rounds = self.rng, list(free)
        cost = self.cost()
        best, best_seats = cost, [s[:] for s in self.plan.seats]
        step, temp, last, floor = 0, t_hot, 0, self.floor()
        while cost > floor and step < steps:
            step += 1
            if best < self.w[1] and step - last > STALL:
                break  # only opponent repeats left, and no longer improving
            if step % 256 == 0:
                temp = t_hot * (t_cold / t_hot) ** (step / steps)
                if step % CHECK_EVERY == 0 and budget.check_clock():
                    break
            move = self._conflict_move(free) if step % 2 else None
            if move is None:
                r = rng.choice(rounds)
                move = (r, *rng.sample(free[r], 2))
            r, x, y = move
            d = self.swap_delta(r, x, y)
            if d <= 0 or rng.random() < math.exp(-d / temp):
                cost += self.swap_delta(r, x, y, apply=True)
                if cost < best:
                    best, best_seats, last = cost, [s[:] for s in self.plan.seats], step
        budget.used += step
        self.plan.seats[:] = best_seats
        self.pos = [{p: i for i, p in enumerate(s)} for s in self.plan.seats]
        self._recount()

    def _recount(self) -> None:
        self.P = [0] * len(self.P)
        self.O = [0] * len(self.O)
        for r in self.history:
            for t in r.tables:
                self._table(t, 1)
        for s in self.plan.seats:
            for i in range(0, len(s), 4):
                self._table(s[i:i + 4], 1)

    def _conflict_move(self, free):
        """Pick a pair over a bound in some round; try a few swaps, return the best."""
        rng = self.rng
        for _ in range(20):
            r = rng.choice(list(free))
            seats = self.plan.seats[r]
            t = rng.randrange(len(seats) // 4)
            tab = seats[4 * t:4 * t + 4]
            bad = [(a, b) for a in tab for b in tab if a < b and self.bad(a, b)]
            if bad:
                break
        else:
            return None
        a = rng.choice(rng.choice(bad))
        x = self.pos[r][a]
        if x not in free[r]:
            return None
        best = None
        for y in rng.sample(free[r], min(12, len(free[r]))):
            if y // 4 == x // 4 and rng.random() < 0.5:
                continue
            d = self.swap_delta(r, x, y)
            if best is None or d < best[0]:
                best = (d, y)
        return (r, x, best[1]) if best else None


def sit_out_plan(players: list[int], rounds: int, per_round: int, counts: dict | None = None) -> list[tuple]:
    """Players cycle through the sit-outs in order: counts within one, no player twice running."""
    counts = counts or {}
    order = sorted(players, key=lambda p: counts.get(p, 0))
    k = len(order)
    return [tuple(order[(r * per_round + i) % k] for i in range(per_round)) for r in range(rounds)]


def fit(tables: list[tuple], playing: set[int], rng) -> list[int]:
    """Seat a proposed round: keep its tables with the most players who must
    play, then put whoever else must play into the seats of those who must not."""
    need = len(playing) // 4
    ranked = sorted(tables, key=lambda t: -sum(p in playing for p in t))[:need]
    ranked += [(0, 0, 0, 0)] * (need - len(ranked))
    seats = [p for t in ranked for p in t]
    seated = {p for p in seats if p in playing}
    spare = sorted(p for p in playing if p not in seated)  # a set's order is no input of the result
    rng.shuffle(spare)
    return [p if p in playing else spare.pop() for p in seats]


def optimise(v: int, players: list[int], start: list[list[tuple]], sit_outs: list[tuple], *,
             history=(), frozen=None, budget: Budget | None = None, seed: int = 0,
             polish: bool = True) -> tuple[list[Round], int]:
    """Rounds seating `players`: start[r] proposes round r's tables (may be
    empty or hold other players), sit_outs[r] is fixed. Returns (rounds, cost);
    `budget` records the steps taken and whether the safety net was hit."""
    budget = budget or Budget()
    budget.started = time.monotonic()
    rng = random.Random(seed)
    seats = [fit(t, set(players) - set(o), rng) for t, o in zip(start, sit_outs)]
    plan = Plan(seats, [tuple(o) for o in sit_outs], frozen or [])
    search = Search(v, plan, list(history), rng)
    cost = search.run(budget, polish)
    return plan.rounds(), cost
