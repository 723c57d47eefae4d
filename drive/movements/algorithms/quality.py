"""Verifier and quality report of a movement.

Counts are kept in flat lists indexed a*(v+1)+b, fast enough for v = 400.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import ceil

from drive.movements.algorithms.schedule import Round, left_hand, opponents, partners


@dataclass
class Counts:
    v: int
    partner: list[int]
    opponent: list[int]
    left: list[int]  # left[a*(v+1)+b]: b sat on a's left
    games: list[int]
    sit_outs: list[list[int]]  # per player: the round indexes sat out

    def at(self, arr, a, b) -> int:
        return arr[a * (self.v + 1) + b]


def count(rounds: list[Round], v: int) -> Counts:
    n = v + 1
    pa, op, le = [0] * n * n, [0] * n * n, [0] * n * n
    games = [0] * n
    outs: list[list[int]] = [[] for _ in range(n)]
    for k, r in enumerate(rounds):
        for t in r.tables:
            for a, b in partners(t):
                pa[a * n + b] += 1
                pa[b * n + a] += 1
            for a, b in opponents(t):
                op[a * n + b] += 1
                op[b * n + a] += 1
            for a, b in left_hand(t):
                le[a * n + b] += 1
            for p in t:
                games[p] += 1
        for p in r.sit_out:
            outs[p].append(k)
    return Counts(v, pa, op, le, games, outs)


def problems(rounds: list[Round], v: int) -> list[str]:
    """Structural faults: each round seats every player 1..v exactly once."""
    out = []
    for k, r in enumerate(rounds):
        seen = r.players()
        if sorted(seen) != list(range(1, v + 1)):
            out.append(f"round {k + 1}: players {sorted(Counter(seen).items())[:8]}... not 1..{v} once")
        if any(len(t) != 4 for t in r.tables):
            out.append(f"round {k + 1}: a table without four players")
    return out


def is_whist_tournament(rounds: list[Round], v: int) -> bool:
    """Partners exactly once, opponents exactly twice, sit-outs once each (v = 4n+1)."""
    if problems(rounds, v) or len(rounds) != (v - 1 if v % 4 == 0 else v):
        return False
    c = count(rounds, v)
    for a in range(1, v + 1):
        for b in range(a + 1, v + 1):
            if c.at(c.partner, a, b) != 1 or c.at(c.opponent, a, b) != 2:
                return False
    return all(len(c.sit_outs[p]) == (v % 4) for p in range(1, v + 1))


def is_directed(rounds: list[Round], v: int) -> bool:
    """Each player has every other once on the left and once on the right."""
    c = count(rounds, v)
    return all(c.at(c.left, a, b) == 1 for a in range(1, v + 1) for b in range(1, v + 1) if a != b)


def longest_run(ks: list[int]) -> int:
    best = run = 0
    prev = None
    for k in ks:
        run = run + 1 if prev is not None and k == prev + 1 else 1
        best, prev = max(best, run), k
    return best


def same_table_bound(rounds: list[Round], v: int, g: int) -> int:
    """ceil(3g/(v-1)), raised to 2 when meeting nobody twice is impossible:
    a player then meets 3 new people a game (g <= (v-1)/3), and the tables
    of four sharing no pair number at most floor(v/4 * floor((v-1)/3))
    (Johnson's bound for packings)."""
    if v < 2:
        return 0
    bound = ceil(3 * g / (v - 1))
    tables = sum(len(r.tables) for r in rounds)
    if bound == 1 and (3 * g > v - 1 or tables > (v * ((v - 1) // 3)) // 4):
        bound = 2
    return bound


def report(rounds: list[Round], v: int) -> dict:
    """Every metric the organiser sees before the evening."""
    c = count(rounds, v)
    n = v + 1
    pairs = [(a, b) for a in range(1, n) for b in range(a + 1, n)]
    pc = [c.partner[a * n + b] for a, b in pairs]
    oc = [c.opponent[a * n + b] for a, b in pairs]
    tc = [x + y for x, y in zip(pc, oc)]
    g = max(c.games[1:], default=0)
    outs = [len(c.sit_outs[p]) for p in range(1, n)]
    distinct = [sum(1 for b in range(1, n) if c.partner[a * n + b]) for a in range(1, n)]
    imbalance = max((abs(c.left[a * n + b] - c.left[b * n + a]) for a, b in pairs), default=0)
    bound_p = ceil(g / (v - 1)) if v > 1 else 0
    bound_t = same_table_bound(rounds, v, g)
    max_p, max_t = max(pc, default=0), max(tc, default=0)
    spread = max(outs, default=0) - min(outs, default=0)
    return {
        "rounds": len(rounds),
        "games_per_player_max": g,
        "partner_max": max_p,
        "partner_repeats_total": sum(x - 1 for x in pc if x > 1),
        "opponent_max": max(oc, default=0),
        "same_table_max": max_t,
        "same_table_histogram": {str(k): n_ for k, n_ in sorted(Counter(tc).items())},
        "distinct_partners_min": min(distinct, default=0),
        "sit_out_min": min(outs, default=0),
        "sit_out_max": max(outs, default=0),
        "sit_out_spread": spread,
        "sit_out_longest_run": max((longest_run(c.sit_outs[p]) for p in range(1, n)), default=0),
        "left_right_imbalance_max": imbalance,
        "bound_partner_max": bound_p,
        "bound_same_table_max": bound_t,
        "gap_partner": max_p - bound_p,
        "gap_same_table": max_t - bound_t,
        "perfect": max_p == bound_p and max_t == bound_t and spread <= 1,
    }


def pairs_report(rounds: list[Round], v: int) -> dict:
    """Fixed pairs (2k-1, 2k): how often pairs meet, and the sit-outs."""
    meet: Counter[frozenset[int]] = Counter()
    for r in rounds:
        for t in r.tables:
            meet[frozenset(((t[0] + 1) // 2, (t[1] + 1) // 2))] += 1
    q = report(rounds, v)
    n = v // 2
    return {
        "rounds": len(rounds),
        "pairs": n,
        "pair_meetings_max": max(meet.values(), default=0),
        "pairs_never_met": n * (n - 1) // 2 - len(meet),
        "sit_out_spread": q["sit_out_spread"],
        "sit_out_longest_run": q["sit_out_longest_run"],
        "perfect": max(meet.values(), default=0) <= 1 and q["sit_out_spread"] <= 1,
    }
