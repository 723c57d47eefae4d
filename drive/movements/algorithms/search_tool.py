"""Offline search for the base round of a cyclic whist tournament Wh(v).

    nice -n 19 python -m drive.movements.algorithms.search_tool 20 21 24 --budget 600

A base round over Z_m, developed by adding each element of Z_m, gives all
the rounds (whist_designs.cyclic_design):
  * v = 4n   : m = v-1, players Z_m plus a fixed player "inf" (1-rotational);
  * v = 4n+1 : m = v, the player 0 sits out the base round (Z-cyclic).
It is a whist tournament when the partner differences +-(a-b) cover every
nonzero element of Z_m once and the opponent differences cover each twice.

Two searches, both randomised with restarts:
  * patterned: tables {x,-x | y,-y} (a "patterned starter", Watson, Bose and
    Cameron, Baker): only the opponent classes c(x-y), c(x+y) need choosing,
    an exact cover solved by Knuth's Algorithm X; fast up to a few hundred;
  * tables: a plain depth-first search over whole tables, for the small v
    (8, 12...) that have no patterned design;
  * split: differences first, then a tiling (see below): v = 48 in about a
    minute, each four more players roughly doubling the time.
Results are merged into data/cyclic_bases.json; the tests re-verify them.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

DATA = Path(__file__).with_name("data") / "cyclic_bases.json"


def cls(d: int, m: int) -> int:
    """The difference class of d: d and -d are one class, 1..(m-1)/2."""
    d %= m
    return min(d, m - d)


# ---------- patterned starter: exact cover (Algorithm X, dict of sets) ----------

def patterned_options(m: int, infinity: bool) -> dict:
    half = (m - 1) // 2
    opts: dict[tuple[str | int, ...], set[tuple[str, int] | str]] = {}
    for x in range(1, half + 1):
        for y in range(x + 1, half + 1):
            opts[("pair", x, y)] = {("e", x), ("e", y), ("d", cls(x - y, m)), ("d", cls(x + y, m))}
        if infinity:  # the table {inf, 0 | x, -x}: opponent class c(x) twice
            opts[("inf", x)] = {("e", x), ("d", x), "inf"}
    return opts


def algorithm_x(opts: dict, rng: random.Random, node_cap: int):
    items: dict = {}
    for name, its in opts.items():
        for it in its:
            items.setdefault(it, set()).add(name)
    nodes = 0
    solution = []

    def cover(name):
        removed = []
        for it in opts[name]:
            for other in items[it]:
                for it2 in opts[other]:
                    if it2 != it:
                        items[it2].discard(other)
            removed.append((it, items.pop(it)))
        return removed

    def uncover(name, removed):
        for it, names in reversed(removed):
            items[it] = names
            for other in names:
                for it2 in opts[other]:
                    if it2 != it:
                        items[it2].add(other)

    def solve():
        nonlocal nodes
        if not items:
            return True
        nodes += 1
        if nodes > node_cap:
            return False
        it = min(items, key=lambda k: (len(items[k]), rng.random()))
        choices = list(items[it])
        rng.shuffle(choices)
        for name in choices:
            removed = cover(name)
            solution.append(name)
            if solve():
                return True
            solution.pop()
            uncover(name, removed)
        return False

    return list(solution) if solve() else None


def patterned_base(m: int, infinity: bool, rng, node_cap: int):
    sol = algorithm_x(patterned_options(m, infinity), rng, node_cap)
    if sol is None:
        return None
    base = []
    for opt in sol:
        if opt[0] == "inf":
            base.append([m, opt[1], 0, m - opt[1]])  # N=inf, S=0 partners
        else:
            _, x, y = opt
            base.append([x, y, m - x, m - y])
    return base


# ---------- plain depth-first search over tables ----------

class _Capped(Exception):
    pass


def table_base(m: int, infinity: bool, rng, node_cap: int):
    try:
        return _table_base(m, infinity, rng, node_cap)
    except _Capped:
        return None


def _table_base(m: int, infinity: bool, rng, node_cap: int):
    inf = m
    free = set(range(m)) if infinity else set(range(1, m))
    pc = [0] * m  # partner class counts (index = class)
    oc = [0] * m  # opponent class counts
    nodes = 0
    tables = []

    def add(pairs, cnt, cap, sign):
        ok = True
        for a, b in pairs:
            if inf in (a, b):
                continue
            c = cls(a - b, m)
            cnt[c] += sign
            if cnt[c] > cap:
                ok = False
        return ok

    def place(t, sign):
        ok = add(((t[0], t[2]), (t[1], t[3])), pc, 1, sign)
        ok &= add(((t[0], t[1]), (t[1], t[2]), (t[2], t[3]), (t[3], t[0])), oc, 2, sign)
        return ok

    def dfs():
        nonlocal nodes
        if not free:
            return True
        nodes += 1
        if nodes > node_cap:
            raise _Capped
        a = min(free)
        free.discard(a)
        rest = list(free)
        rng.shuffle(rest)
        for s in rest:
            if pc[cls(a - s, m)]:
                continue
            free.discard(s)
            for e in rest:
                if e not in free:
                    continue
                free.discard(e)
                for w in rest:
                    if w not in free or w < e:
                        continue
                    t = (a, e, s, w)
                    good = place(t, 1)
                    if good:
                        free.discard(w)
                        tables.append(t)
                        if dfs():
                            return True
                        tables.pop()
                        free.add(w)
                    place(t, -1)
                free.add(e)
            free.add(s)
        free.add(a)
        return False

    if infinity:  # inf partners 0 without loss of generality
        free.discard(0)
        for e in sorted(free, key=lambda _: rng.random()):
            for w in list(free):
                if w <= e:
                    continue
                t = (inf, e, 0, w)
                if place(t, 1):
                    free -= {e, w}
                    tables.append(t)
                    if dfs():
                        return [list(x) for x in tables]
                    tables.pop()
                    free |= {e, w}
                place(t, -1)
        return None
    return [list(x) for x in tables] if dfs() else None


# ---------- split search: opponent differences first, then a tiling ----------
# A table with partner pairs {a, a+p} and {a+t, a+t+q} has opponent differences
# t, t-p, t+q, t+q-p whatever a is: phase 1 picks (p, q, t) per table by
# simulated annealing so that each opponent class occurs twice; phase 2 places
# the tables (translate a, optionally negate) to cover each element once,
# an exact cover by Algorithm X.

def shape_diffs(shape) -> tuple[int, ...]:
    p, q, t = shape
    return (t, t + p) if q is None else (t, t - p, t + q, t + q - p)


def phase1(m: int, infinity: bool, rng, moves: int, temp: float = 0.4):
    half = (m - 1) // 2
    classes = list(range(1, half + 1))
    rng.shuffle(classes)
    shapes = [[classes.pop(), None, rng.randrange(1, m)]] if infinity else []
    while classes:
        shapes.append([classes.pop(), classes.pop(), rng.randrange(1, m)])
    oc = [0] * (half + 1)
    for sh in shapes:
        for d in shape_diffs(sh):
            oc[cls(d, m)] += 1
    cost = 4 * oc[0] + sum(abs(x - 2) for x in oc[1:])
    for _ in range(moves):
        if cost == 0:
            return [tuple(sh) for sh in shapes]
        changes = _neighbour(shapes, m, rng)
        if not changes:
            continue
        dc: dict[int, int] = {}
        for i, new in changes.items():
            for d in shape_diffs(shapes[i]):
                dc[cls(d, m)] = dc.get(cls(d, m), 0) - 1
            for d in shape_diffs(new):
                dc[cls(d, m)] = dc.get(cls(d, m), 0) + 1
        delta = sum(4 * k if c == 0 else abs(oc[c] + k - 2) - abs(oc[c] - 2) for c, k in dc.items())
        if delta <= 0 or rng.random() < math.exp(-delta / temp):
            for c, k in dc.items():
                oc[c] += k
            for i, new in changes.items():
                shapes[i] = new
            cost += delta
    return None


def _neighbour(shapes, m, rng) -> dict:
    """Move a shift, or swap a partner class between two tables."""
    i = rng.randrange(len(shapes))
    if rng.random() < 0.5:
        new = shapes[i][:]
        new[2] = rng.randrange(1, m)
        return {i: new}
    j = rng.randrange(len(shapes))
    if i == j:
        return {}
    a = rng.randrange(2) if shapes[i][1] is not None else 0
    b = rng.randrange(2) if shapes[j][1] is not None else 0
    ni, nj = shapes[i][:], shapes[j][:]
    ni[a], nj[b] = shapes[j][b], shapes[i][a]
    if rng.random() < 0.5:
        ni[2] = rng.randrange(1, m)
    return {i: ni, j: nj}


def phase2(m: int, infinity: bool, shapes, rng, node_cap: int):
    need, base = set(range(1, m)), []
    if infinity:  # inf and 0 partners; its E-W pair is pinned by the shift
        p0, _, e = shapes[0]
        base.append([m, e % m, 0, (e + p0) % m])
        need = set(range(m)) - set(base[0])
        shapes = shapes[1:]
    opts = {}
    for i, (p, q, t) in enumerate(shapes):
        for a in range(m):
            for sg in (1, -1):
                seats = [(a + sg * d) % m for d in (0, t, p, t + q)]  # N E S W
                if len(set(seats)) == 4 and need.issuperset(seats):
                    opts[(i, a, sg)] = set(seats) | {("table", i)}
    sol = algorithm_x(opts, rng, node_cap)
    if sol is None:
        return None
    for i, a, sg in sol:
        p, q, t = shapes[i]
        base.append([(a + sg * d) % m for d in (0, t, p, t + q)])
    return base


def split_base(m: int, infinity: bool, rng, effort: int):
    shapes = phase1(m, infinity, rng, 40 * effort)
    return phase2(m, infinity, shapes, rng, 10 * effort) if shapes else None


METHODS = (("tables", table_base, 40), ("split", split_base, 10**9))


def search(v: int, budget: float, log=sys.stderr):
    infinity = v % 4 == 0
    m = v - 1 if infinity else v
    rng = random.Random(v)
    start = time.monotonic()
    effort = 2000
    base = patterned_base(m, infinity, rng, 20000)
    if base is not None:
        print(f"v={v}: patterned base found", file=log, flush=True)
        return {"modulus": m, "infinity": infinity, "base": base, "method": "patterned"}
    while time.monotonic() - start < budget:
        for method, fn, upto in METHODS:
            base = fn(m, infinity, rng, effort) if v <= upto else None
            if base is not None:
                took = time.monotonic() - start
                print(f"v={v}: {method} base found in {took:.1f}s", file=log, flush=True)
                return {"modulus": m, "infinity": infinity, "base": base, "method": method}
        effort = min(int(effort * 1.2), 20000)
    print(f"v={v}: nothing in {budget:.0f}s", file=log, flush=True)
    return None


def merge(v: int, entry: dict, path: Path = DATA) -> None:
    data = json.loads(path.read_text()) if path.exists() else {}
    data[str(v)] = entry
    ordered = {k: data[k] for k in sorted(data, key=int)}
    path.parent.mkdir(exist_ok=True)
    tmp = path.with_suffix(".tmp")  # replace in one step: readers never see half a file
    tmp.write_text(json.dumps(ordered, separators=(",", ":")).replace('},"', '},\n"') + "\n")
    tmp.replace(path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("v", type=int, nargs="+", help="numbers of players (0 or 1 mod 4)")
    ap.add_argument("--budget", type=float, default=600.0, help="seconds per v")
    ap.add_argument("--out", type=Path, default=DATA)
    args = ap.parse_args(argv)
    for v in args.v:
        if v % 4 not in (0, 1) or v < 5:
            print(f"v={v}: no whist tournament", file=sys.stderr)
            continue
        entry = search(v, args.budget)
        if entry:
            merge(v, entry, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
