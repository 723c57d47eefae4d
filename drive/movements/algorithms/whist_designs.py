"""Whist tournaments Wh(v): every player partners every other exactly once and
opposes each exactly twice. v = 4n: 4n-1 rounds, nobody out; v = 4n+1: 4n+1
rounds, one out per round, each once.

Constructions, tried in this order by `whist_design(v)`:
  ring      v a product of prime powers q = 1 (mod 4) (5, 9, 13, 45, 65...):
            over R = GF(q1) x GF(q2) x ..., w with w^2 = -1, base tables
            r*(N, E, S, W) = r*(1, w, -1, -w), one r per orbit of <w>, developed
            by adding every element of R. For a single field this is the classic
            GF(q) construction; the product is the Anderson-Finizio-Leonard style
            product of Z-cyclic designs. Partner differences 2r<w>, opponent
            differences r(1-w)<w> twice: every nonzero element, since 2 and 1-w
            are units. Seated clockwise it is directed: the left-hand opponent
            differences are r(w-1)<w>, each once (the EBU's third criterion).
  affine    v = 4^k (4, 16, 64, 256): the lines of AG(k, 4) in parallel classes; each
            class gives three rounds, its tables playing their three partnerships
            in turn (any resolvable design of blocks of four would do).
  cyclic    a base round over Z_m found offline by search_tool.py
            (data/cyclic_bases.json), developed by adding each element;
            v = 4n: Z_(v-1) plus a fixed player (1-rotational); v = 4n+1: Z_v.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from drive.movements.algorithms.fields import field, prime_power_factors
from drive.movements.algorithms.schedule import Round, Table, as_table

BASES = Path(__file__).with_name("data") / "cyclic_bases.json"


# ---------- ring: products of GF(q), q = 1 mod 4 ----------

class Ring:
    """Direct product of fields, elements encoded as ints (mixed radix)."""

    def __init__(self, qs: list[int]):
        self.fields = [field(q) for q in qs]
        self.size = 1
        for q in qs:
            self.size *= q

    def split(self, a: int) -> list[int]:
        out = []
        for f in self.fields:
            a, d = divmod(a, f.q)
            out.append(d)
        return out

    def join(self, ds) -> int:
        a, scale = 0, 1
        for f, d in zip(self.fields, ds):
            a += d * scale
            scale *= f.q
        return a

    def op(self, fn: str, a: int, b: int) -> int:
        return self.join(getattr(f, fn)(x, y) for f, x, y in zip(self.fields, self.split(a), self.split(b)))

    def fourth_root(self) -> int:
        """w with w^2 = -1 in every component."""
        return self.join(f.exp[(f.q - 1) // 4] for f in self.fields)

    def neg(self, a: int) -> int:
        return self.join(f.neg(x) for f, x in zip(self.fields, self.split(a)))


def ring_factors(v: int) -> list[int] | None:
    qs = prime_power_factors(v)
    return qs if v > 1 and all(q % 4 == 1 for q in qs) else None


def ring_of(v: int) -> Ring:
    """The ring a ring design of v players is built on (construction() has said it exists)."""
    qs = ring_factors(v)
    if qs is None:
        raise ValueError(f"no ring design for {v} players")
    return Ring(qs)


def ring_base(v: int) -> list[Table]:
    """Base tables r*(1, w, -1, -w): one per orbit of <w> on the nonzero elements."""
    R = ring_of(v)
    w = R.fourth_root()
    seen, base = {0}, list[Table]()
    for r in range(1, R.size):
        if r in seen:
            continue
        rw = R.op("mul", r, w)
        t = (r, rw, R.neg(r), R.neg(rw))
        seen.update(t)
        base.append(t)
    return base


def ring_design(v: int) -> list[Round]:
    R = ring_of(v)
    base = ring_base(v)
    # add per component with small tables: g + a for every round g and base element a
    scales, acc = [], 1
    for f in R.fields:
        scales.append(acc)
        acc *= f.q
    tabs = [[[f.add(a, b) for b in range(f.q)] for a in range(f.q)] for f in R.fields]
    parts = [R.split(g) for g in range(v)]
    cells = [(t, [parts[a] for a in t]) for t in base]
    rounds = []
    for g in range(v):
        pg = parts[g]
        tables = tuple(
            as_table(1 + sum(sc * tab[x][y] for sc, tab, x, y in zip(scales, tabs, pa, pg)) for pa in pt)
            for _, pt in cells
        )
        rounds.append(Round(tables, (g + 1,)))
    return rounds


# ---------- affine: AG(k, 4) ----------

GF4_MUL = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]  # 2 = a, 3 = a^2 = a+1
SPLITS = (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))


def power_of_four(v: int) -> int | None:
    k = 0
    while v > 1 and v % 4 == 0:
        v //= 4
        k += 1
    return k if v == 1 and k >= 1 else None


def scale(lam: int, x: int, k: int) -> int:
    """lam * x in GF(4)^k; points are ints of k base-4 digits, + is XOR."""
    return sum(GF4_MUL[lam][(x >> 2 * i) & 3] << 2 * i for i in range(k))


def affine_design(v: int) -> list[Round]:
    k = power_of_four(v)
    if k is None:
        raise ValueError(f"no affine design for {v} players")
    # a direction: its first nonzero digit (from the top) is 1
    dirs = [d for d in range(1, v) if (d >> 2 * ((d.bit_length() - 1) // 2)) & 3 == 1]
    rounds = []
    for d in dirs:
        line = [scale(lam, d, k) for lam in range(4)]
        starts, seen = list[int](), set[int]()
        for a in range(v):
            if a not in seen:
                starts.append(a)
                seen.update(a ^ x for x in line)
        blocks = [[a ^ x for x in line] for a in starts]
        for (i, j), (s, t) in SPLITS:  # partners i-j and s-t
            rounds.append(Round(tuple((b[i] + 1, b[s] + 1, b[j] + 1, b[t] + 1) for b in blocks)))
    return rounds


# ---------- cyclic: stored base rounds ----------

@lru_cache(maxsize=1)
def stored_bases() -> dict[int, dict]:
    if not BASES.exists():
        return {}
    return {int(v): e for v, e in json.loads(BASES.read_text()).items()}


def develop(m: int, infinity: bool, base) -> list[Round]:
    """Add each g in Z_m to the base round; element e is player e+1, inf is m+1."""
    def player(e, g):
        return m + 1 if e == m else (e + g) % m + 1

    return [
        Round(
            tuple(tuple(player(e, g) for e in t) for t in base),
            () if infinity else (g + 1,),
        )
        for g in range(m)
    ]


def cyclic_design(v: int) -> list[Round]:
    e = stored_bases()[v]
    return develop(e["modulus"], e["infinity"], e["base"])


# ---------- registry ----------

def construction(v: int) -> str | None:
    """The name of the construction that gives Wh(v), or None."""
    if v < 4 or v % 4 not in (0, 1):
        return None
    if v % 4 == 1 and ring_factors(v):
        return "ring"
    if power_of_four(v):
        return "affine"
    if v in stored_bases():
        return "cyclic"
    return None


BUILDERS = {"ring": ring_design, "affine": affine_design, "cyclic": cyclic_design}


@lru_cache(maxsize=64)
def _whist_design(v: int) -> tuple[Round, ...] | None:
    how = construction(v)
    if how is None:
        return None
    return tuple(BUILDERS[how](v))


def whist_design(v: int) -> list[Round] | None:
    """The rounds of a Wh(v), players 1..v; None when no construction reaches v."""
    d = _whist_design(v)
    return list(d) if d is not None else None


def coverage(upto: int = 400) -> dict[int, str]:
    return {v: c for v in range(4, upto + 1) if (c := construction(v))}
