"""Fixed-pair movements: partnerships stay together all evening ("partner"
drives, rule D4b). Pair k is players 2k-1 and 2k.

  round_robin  every pair meets every other exactly once (the circle method);
               an odd number of pairs adds a bye, so one pair sits out a round.
  mitchell     for many pairs and fewer rounds than pairs: N-S pairs stay at
               their tables, E-W pairs move up one table each round (the
               bridge clubs' Mitchell movement); with an odd number the last
               table is a bye, and the E-W pair reaching it sits out.
"""
from __future__ import annotations

from drive.movements.algorithms.schedule import Round, Table

BYE = 0


def pair_players(k: int) -> tuple[int, int]:
    return 2 * k - 1, 2 * k


def table_of(ns: int, ew: int) -> tuple[int, int, int, int]:
    (n, s), (e, w) = pair_players(ns), pair_players(ew)
    return (n, e, s, w)


def to_round(matches: list[tuple[int, int]]) -> Round:
    tables: list[Table] = []
    out: list[int] = []
    for a, b in matches:
        if BYE in (a, b):
            out.extend(pair_players(a or b))
        else:
            tables.append(table_of(a, b))
    return Round(tuple(tables), tuple(out))


def round_robin_matches(pairs: int) -> list[list[tuple[int, int]]]:
    """Circle method: pair `top` stays, the others rotate one place a round."""
    ids = list(range(1, pairs + 1)) + ([BYE] if pairs % 2 else [])
    m = len(ids)
    top, ring = ids[-1], ids[:-1]
    rounds = []
    for r in range(m - 1):
        first = (ring[r], top) if r % 2 else (top, ring[r])  # alternate N-S for the fixed pair
        games = [first]
        for i in range(1, m // 2):
            games.append((ring[(r + i) % (m - 1)], ring[(r - i) % (m - 1)]))
        rounds.append(games)
    return rounds


def round_robin(pairs: int, rounds: int | None = None) -> list[Round]:
    if pairs < 2:
        raise ValueError("a pairs movement needs at least two pairs")
    return [to_round(g) for g in round_robin_matches(pairs)][: rounds or None]


def mitchell(pairs: int, rounds: int | None = None) -> list[Round]:
    """N-S pair i stays at table i; E-W pair j+T moves up one table a round."""
    tables = (pairs + 1) // 2
    odd = pairs % 2
    ns = list(range(1, tables + 1 - odd)) + [BYE] * odd  # the bye is the last table: numbers stay put
    ew = list(range(tables + 1 - odd, pairs + 1))
    rounds = min(rounds or tables, tables)
    return [to_round([(ns[i], ew[(i - r) % tables]) for i in range(tables)]) for r in range(rounds)]


def pairs_movement(players: int, rounds: int | None = None, style: str = "auto") -> tuple[list[Round], str]:
    """Round robin by default; Mitchell when asked, or when the evening is no
    longer than half the pairs (each still meets distinct pairs, and only E-W move)."""
    if players % 2:
        raise ValueError("fixed pairs need an even number of players")
    p = players // 2
    if style == "mitchell" or (style == "auto" and rounds and p >= 4 and rounds <= p // 2):
        return mitchell(p, rounds), "mitchell"
    return round_robin(p, rounds), "round robin"
