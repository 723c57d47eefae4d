"""Table numbers and seats: as little walking as the movement allows.

Tables of a round are interchangeable, and so are the four rotations of a
table (rotating keeps partners opposite and left-hand opponents on the left;
a mirror image would swap left and right, so it is not used). Round by
round, each table goes to the number where most of its players already sit
(greedy on the overlap), then is rotated to keep most players in their
seat. A pinned player (mobility) keeps one table all evening: their table
takes that number first. Pairs movements keep N-S stationary by design
and are not renumbered.
"""
from __future__ import annotations

from drive.movements.algorithms.schedule import Round, Table


def rotations(t: Table) -> list[Table]:
    return [(t[k % 4], t[(k + 1) % 4], t[(k + 2) % 4], t[(k + 3) % 4]) for k in range(4)]


def best_rotation(t: Table, before: dict[int, tuple[int, int]], number: int) -> Table:
    """The rotation keeping most players in last round's seat at this table."""
    return max(rotations(t), key=lambda r: sum(before.get(p) == (number, s) for s, p in enumerate(r)))


def number_round(r: Round, before: dict[int, tuple[int, int]], pinned: dict[int, int]) -> tuple[Round, list[str]]:
    n = len(r.tables)
    slot: dict[int, int] = {}  # table index -> number (0-based)
    clashes = []
    for p, num in sorted(pinned.items()):
        i = next((i for i, t in enumerate(r.tables) if p in t), None)
        if i is None or num - 1 >= n:
            continue
        if i in slot or num - 1 in slot.values():
            if slot.get(i) != num - 1:
                clashes.append(f"player {p} cannot keep table {num}")
            continue
        slot[i] = num - 1
    overlap = []
    for i, t in enumerate(r.tables):
        counts: dict[int, int] = {}
        for p in t:
            if p in before:
                counts[before[p][0]] = counts.get(before[p][0], 0) + 1
        overlap += [(-c, i, num) for num, c in counts.items() if num < n]
    for _, i, num in sorted(overlap):
        if i not in slot and num not in slot.values():
            slot[i] = num
    spare = iter(sorted(set(range(n)) - set(slot.values())))
    for i in range(n):
        if i not in slot:
            slot[i] = next(spare)
    tables: dict[int, Table] = {slot[i]: best_rotation(t, before, slot[i]) for i, t in enumerate(r.tables)}
    return Round(tuple(tables[number] for number in range(n)), r.sit_out), clashes


def assign_tables(rounds: list[Round], pinned: dict[int, int] | None = None,
                  start: dict[int, tuple[int, int]] | None = None) -> tuple[list[Round], list[str]]:
    """Renumber tables and rotate seats; returns (rounds, clashes of pins)."""
    pinned = pinned or {}
    before = dict(start or {})
    out, clashes = [], []
    for k, r in enumerate(rounds):
        nr, c = number_round(r, before, pinned)
        clashes += [f"round {k + 1}: {x}" for x in c]
        before = {**before, **nr.seat_of()}  # sitters-out return to their last table
        out.append(nr)
    return out, clashes


def moves(rounds: list[Round]) -> int:
    """How many times a player changes table between consecutive rounds played."""
    last: dict[int, int] = {}
    count = 0
    for r in rounds:
        for p, (t, _) in r.seat_of().items():
            count += p in last and last[p] != t
            last[p] = t
    return count
