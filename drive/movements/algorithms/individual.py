"""Individual movements: a whole whist design when it fits, else the optimiser.

v = 4n, 4n+1: Wh(v). v = 4n+3: Wh(v+1) with a phantom player whose three
table-mates sit out that round. Other v, or evenings shorter than a design
(cutting a design short can leave players at one table three times where
twice is possible): the optimiser for exactly R rounds, started from design
rounds where one is near.
"""
from __future__ import annotations

import random
import threading
from collections import OrderedDict

from drive.movements.algorithms.optimiser import Budget, optimise, sit_out_plan
from drive.movements.algorithms.schedule import Round
from drive.movements.algorithms.whist_designs import whist_design

# Searches already run in this process: the same request gives the same rounds, so an
# evening planned again (a preview, then the start; the next drive of the same size) does
# not anneal again. Only searches the budget ended are kept (one cut short by the safety
# net depends on the machine); a few dozen, a few KB each.
SEARCHES_KEPT = 32
_searched: OrderedDict[tuple, tuple[tuple[Round, ...], str, int]] = OrderedDict()
_searched_lock = threading.Lock()  # a server plans in several threads


def forget_searches() -> None:
    """Drop the searches kept (for tests that time or repeat the search itself)."""
    with _searched_lock:
        _searched.clear()


def _kept(key: tuple) -> tuple[tuple[Round, ...], str, int] | None:
    with _searched_lock:
        found = _searched.get(key)
        if found is not None:
            _searched.move_to_end(key)
        return found


def _keep(key: tuple, search: tuple[tuple[Round, ...], str, int]) -> None:
    with _searched_lock:
        _searched[key] = search
        if len(_searched) > SEARCHES_KEPT:
            _searched.popitem(last=False)


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
    for w in (v, v - 1, v + 1, v + 2):
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


def individual(v: int, rounds: int | None = None, *, budget: Budget | None = None, seed: int = 0,
               polish: bool = True):
    """(rounds, source) for v players and R rounds (default: a full design).
    The same arguments give the same rounds; `budget` records the search's work (a
    search kept from before reports the steps it took then)."""
    if v < 4:
        raise ValueError("an individual movement needs at least four players")
    want = rounds or default_rounds(v)
    full, name = full_design(v)
    if full and want == len(full):
        return full, name
    budget = budget or Budget()
    key, used_before = (v, want, seed, polish, budget.left()), budget.used
    if kept := _kept(key):
        kept_rounds, source, steps = kept
        budget.used += steps
        return list(kept_rounds), source
    proposals, outs, name = starting_rounds(v, want, full, name, random.Random(seed))
    players = list(range(1, v + 1))
    result, _ = optimise(v, players, proposals, outs, budget=budget, seed=seed, polish=polish)
    source = f"optimised from {name}" if name else "optimised"
    if not budget.cap_hit:
        _keep(key, (tuple(result), source, budget.used - used_before))
    return result, source


def starting_rounds(v: int, want: int, full, name: str, rng):
    """(proposed tables, fixed sit-outs, name) per round: design rounds that
    already keep the limits where possible, else a near design's rounds."""
    picked = None
    if v % 4 == 2 and (d := whist_design(v - 1)):
        picked = plus_one(d, v, want, rng)
        name = f"Wh({v - 1}) plus one"
    if full and want < len(full):
        picked = balanced_pick(full, want, v) if v % 4 > 1 else spread(full, want)
    if picked:
        return [list(r.tables) for r in picked], [r.sit_out for r in picked], name
    start = near_design(v)
    base = [start[k % len(start)] for k in range(want)] if start else []
    outs = aligned_sit_outs(base, v, want, v % 4, rng) or sit_out_plan(rng.sample(range(1, v + 1), v), want, v % 4)
    return [list(r.tables) for r in base] or [[] for _ in range(want)], outs, "a near design" if start else ""


def aligned_sit_outs(base: list[Round], v: int, want: int, per_round: int, rng) -> list[tuple] | None:
    """Sit-outs that keep the start rounds' own where possible (fewer seats to
    repair), topped up with whoever has sat out least; None unless within one."""
    counts = [0] * (v + 1)
    outs: list[tuple] = []
    for k in range(want):
        prev = set(outs[-1]) if outs else set()
        own = [p for p in (base[k].sit_out if base else ()) if 1 <= p <= v]
        own = sorted(own, key=lambda p: counts[p])[:per_round]
        others = [p for p in range(1, v + 1) if p not in own]
        rng.shuffle(others)
        others.sort(key=lambda p: (counts[p], p in prev))
        out = tuple(own + others[: per_round - len(own)])
        for p in out:
            counts[p] += 1
        outs.append(out)
    return outs if max(counts[1:]) - min(counts[1:]) <= 1 else None


def plus_one(design: list[Round], v: int, want: int, rng, node_cap: int = 20000) -> list[Round] | None:
    """v = 4n+2 from a Wh(v-1): each round the extra player v takes the seat
    of someone who then sits out beside the design's sitter (or v sits out).
    Only v's own partners and opponents need checking: a depth-first search."""
    if want > len(design):
        return None
    rounds = spread(design, want)
    hi = -(-2 * want // v)
    lo = 2 * want // v
    counts = [0] * (v + 1)
    for r in rounds:
        for p in r.sit_out:
            counts[p] += 1
    partners: set[int | None] = set()
    opp = [0] * (v + 1)
    choice: list = []
    nodes = 0

    def ok_end():
        return min(counts[1:]) >= lo and max(counts[1:]) <= hi

    def dfs(k):
        nonlocal nodes
        nodes += 1
        if nodes > node_cap:
            return False
        if k == want:
            return ok_end()
        r = rounds[k]
        options = [None] + [(i, s) for i, t in enumerate(r.tables) for s in range(4)]
        rng.shuffle(options)
        for o in options:
            foes: tuple[int, ...]
            mate: int | None
            if o is None:
                sitter, mate, foes = v, None, ()
            else:
                t = r.tables[o[0]]
                sitter, mate, foes = t[o[1]], t[(o[1] + 2) % 4], (t[(o[1] + 1) % 4], t[(o[1] + 3) % 4])
            if counts[sitter] >= hi or mate in partners or any(opp[f] >= 2 for f in foes):
                continue
            counts[sitter] += 1
            partners.add(mate)
            for f in foes:
                opp[f] += 1
            choice.append(o)
            if dfs(k + 1):
                return True
            choice.pop()
            for f in foes:
                opp[f] -= 1
            partners.discard(mate)
            counts[sitter] -= 1
        return False

    if not dfs(0):
        return None
    out = []
    for r, o in zip(rounds, choice):
        if o is None:
            out.append(Round(r.tables, r.sit_out + (v,)))
            continue
        i, s = o
        t = list(r.tables[i])
        gone, t[s] = t[s], v
        tables = r.tables[:i] + (tuple(t),) + r.tables[i + 1:]
        out.append(Round(tables, r.sit_out + (gone,)))
    return out


def spread(rounds: list, want: int) -> list:
    """`want` of the rounds, evenly spaced (a cyclic design's neighbours overlap)."""
    k = len(rounds)
    return [rounds[(i * k) // want] for i in range(want)] if want <= k else rounds
