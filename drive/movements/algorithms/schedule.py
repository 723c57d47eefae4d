"""The data of a movement: rounds of tables of four plus the players sitting out.

Pure Python, no Django. Players are numbered 1..V. A table is (N, E, S, W),
seated clockwise: N-S partner against E-W, and "left of X" is the next seat
clockwise (rule S1).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine import SEATS

Table = tuple[int, int, int, int]


def as_table(players: Iterable[int]) -> Table:
    """Four players (N, E, S, W) as a table; any other count is a bug upstream and raises."""
    n, e, s, w = players
    return n, e, s, w


@dataclass(frozen=True)
class Round:
    tables: tuple[Table, ...]
    sit_out: tuple[int, ...] = ()

    def players(self) -> list[int]:
        return [p for t in self.tables for p in t] + list(self.sit_out)

    def seat_of(self) -> dict[int, tuple[int, int]]:
        """player -> (table index from 0, seat index 0..3)."""
        return {p: (i, s) for i, t in enumerate(self.tables) for s, p in enumerate(t)}


@dataclass
class Movement:
    players: int
    kind: str  # "individual" | "pairs" | "progressive"
    rounds: list[Round]
    source: str = ""  # which construction or optimiser built it
    meta: dict = field(default_factory=dict)

    def to_json(self, quality: dict | None = None) -> dict:
        """The exact shape of the `movement --json` command."""
        rounds = [
            {
                "tables": [
                    {"table": i + 1, **dict(zip(SEATS, t))} for i, t in enumerate(r.tables)
                ],
                "sit_out": sorted(r.sit_out),
            }
            for r in self.rounds
        ]
        out = {"players": self.players, "kind": self.kind, "rounds": rounds}
        if quality is not None:
            out["quality"] = quality
        return out


def partners(t: Table) -> tuple[tuple[int, int], tuple[int, int]]:
    return (t[0], t[2]), (t[1], t[3])


def opponents(t: Table) -> tuple[tuple[int, int], ...]:
    return (t[0], t[1]), (t[1], t[2]), (t[2], t[3]), (t[3], t[0])


def left_hand(t: Table) -> tuple[tuple[int, int], ...]:
    """(player, the opponent on their left), i.e. the next seat clockwise."""
    return (t[0], t[1]), (t[1], t[2]), (t[2], t[3]), (t[3], t[0])


def relabel(rounds, mapping) -> list[Round]:
    """Rename players through `mapping` (a dict or a callable)."""
    f = mapping.__getitem__ if isinstance(mapping, dict) else mapping
    return [
        Round(tuple(tuple(f(p) for p in t) for t in r.tables), tuple(f(p) for p in r.sit_out))
        for r in rounds
    ]


def player_card(rounds: list[Round], player: int) -> list[dict]:
    """A player's movement card: round, table, seat, partner (None when out)."""
    card: list[dict[str, int | str | None]] = []
    for k, r in enumerate(rounds, 1):
        where = r.seat_of().get(player)
        if where is None:
            card.append({"round": k, "table": None, "seat": None, "partner": None})
            continue
        i, s = where
        card.append({"round": k, "table": i + 1, "seat": SEATS[s], "partner": r.tables[i][(s + 2) % 4]})
    return card


def table_card(rounds: list[Round], table: int) -> list[dict]:
    """A table's card: who sits N, E, S, W each round (table numbers from 1)."""
    return [
        {"round": k, **dict(zip(SEATS, r.tables[table - 1]))}
        for k, r in enumerate(rounds, 1)
        if table <= len(r.tables)
    ]
