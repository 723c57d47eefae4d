"""Individual movements: a whole whist design when it fits, else the optimiser.

v = 4n, 4n+1: Wh(v). v = 4n+3: Wh(v+1) with a phantom player whose three
table-mates sit out that round. Other v, or evenings shorter than a design
(cutting a design short can leave players at one table three times where
twice is possible): the optimiser for exactly R rounds, started from design
rounds where one is near.
"""
from __future__ import annotations

import random

from .optimiser import optimise, sit_out_plan
from .schedule import Round
from .whist_designs import whist_design


def with_phantom(rounds: list[Round], phantom: int) -> list[Round]:
    """Drop the phantom's table: its three other players sit out."""
    out = []
    for r in rounds:
        keep = tuple(t for t in r.tables if phantom not in t)
        gone = tuple(p for t in r.tables if phantom in t for p in t if p != phantom)
        out.append(Round(keep, tuple(p for p in r.sit_out if p != phantom) + gone))
    return out


def full_design(v: int) -> tuple[list[Round] | None, str]:
    if v % 4 in (0, 1) and (d := whist_design(v)):
        return d, f"Wh({v})"
    if v % 4 == 3 and (d := whist_design(v + 1)):
        return with_phantom(d, v + 1), f"Wh({v + 1}) with a phantom"
    return None, ""


def default_rounds(v: int) -> int:
    """A full design's length: v-1 (v = 0 mod 4, and 2 mod 4) or v."""
    return v - 1 if v % 4 in (0, 2) else v


def near_design(v: int) -> list[Round]:
    """Rounds to start the optimiser from: this v's design or a neighbour's."""
    for w in (v, v + 1, v - 1, v + 2):
        d, _ = full_design(w)
        if d:
            return d
    return []


def balanced_pick(rounds: list[Round], want: int, v: int) -> list[Round] | None:
    """Choose `want` rounds whose sit-outs stay within one, greedily."""
    counts = [0] * (v + 1)
    left, chosen = list(rounds), []
    for _ in range(min(want, len(rounds))):
        best = min(left, key=lambda r: sorted((counts[p] for p in r.sit_out), reverse=True))
        left.remove(best)
        chosen.append(best)
        for p in best.sit_out:
            counts[p] += 1
    return chosen if len(chosen) == want and max(counts[1:]) - min(counts[1:]) <= 1 else None


def individual(v: int, rounds: int | None = None, *, time_budget: float = 2.0, seed: int = 0,
               polish: bool = True):
    """(rounds, source) for v players and R rounds (default: a full design)."""
    if v < 4:
        raise ValueError("an individual movement needs at least four players")
    want = rounds or default_rounds(v)
    full, name = full_design(v)
    if full and want == len(full):
        return full, name
    per_round = v % 4
    start = near_design(v)
    players = list(range(1, v + 1))
    picked = None
    if full and want < len(full):
        picked = balanced_pick(full, want, v) if per_round > 1 else spread(full, want)
    if picked:
        proposals, outs = [list(r.tables) for r in picked], [r.sit_out for r in picked]
    else:
        rng = random.Random(seed)
        outs = sit_out_plan(rng.sample(players, v), want, per_round)
        proposals = [list(start[k % len(start)].tables) if start else [] for k in range(want)]
    result, _ = optimise(v, players, proposals, outs, time_budget=time_budget, seed=seed, polish=polish)
    how = f"optimised from {name or 'a near design'}" if start else "optimised"
    return result, how


def spread(rounds: list, want: int) -> list:
    """`want` of the rounds, evenly spaced (a cyclic design's neighbours overlap)."""
    k = len(rounds)
    return [rounds[(i * k) // want] for i in range(want)] if want <= k else rounds
