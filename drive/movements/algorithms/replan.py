"""Late arrivals and leavers: re-plan from the current round.

Rounds already played stay untouched and count towards the repeats to avoid;
in the current round everyone already seated keeps their seat (their table
keeps its place, a leaver's seat is filled); the rest is optimised again.
"""
from __future__ import annotations

from drive.movements.algorithms.optimiser import Budget, optimise, sit_out_plan
from drive.movements.algorithms.schedule import Round, Table, as_table


def _current(current: Round | None, seated: set[int], present: list[int], n_tables: int,
             counts: dict[int, int]) -> tuple[list[Table], tuple[int, ...], set[int]]:
    """Round 0 of the new plan: (tables, sit_out, frozen positions)."""
    here = set(present)
    old = list(current.tables) if current else []
    kept = [t for t in old if any(p in seated and p in here for p in t)][:n_tables]
    busy = {p for t in kept for p in t if p in here}
    idle = [p for p in present if p not in busy]
    # Sit-outs come from whoever has no kept table: those not yet seated first, then the
    # seated players of tables that had to go (fewer players now), fewest sit-outs first.
    outs = sorted(idle, key=lambda p: (p in seated, counts.get(p, 0), p))
    sit_out = tuple(outs[: len(present) - 4 * n_tables])
    # the rest, in their old order (they stay near their planned tables)
    order = {p: (i, s) for i, t in enumerate(old) for s, p in enumerate(t)}
    pool = sorted((p for p in idle if p not in sit_out), key=lambda p: order.get(p, (10**9, 0)))
    tables: list[Table] = []
    frozen: set[int] = set()
    for t in kept:
        row = []
        for s, p in enumerate(t):
            if p in here:
                row.append(p)
                if p in seated:
                    frozen.add(4 * len(tables) + s)
            else:
                row.append(pool.pop(0))
        tables.append(as_table(row))
    while pool:
        tables.append(as_table(pool[:4]))
        pool = pool[4:]
    return tables, sit_out, frozen


def replan(history: list[Round], present: list[int], rounds_left: int, *, current: Round | None = None,
           seated: set[int] | frozenset = frozenset(), planned: list[Round] | None = None,
           budget: Budget | None = None, seed: int = 0) -> list[Round]:
    """New rounds from the current one for the players `present` now."""
    if len(present) < 4:
        raise ValueError("fewer than four players present")
    v = max(max(present), max((p for r in history for p in r.players()), default=0))
    n_tables, per_round = len(present) // 4, len(present) % 4
    counts: dict[int, int] = {}
    for r in history:
        for p in r.sit_out:
            counts[p] = counts.get(p, 0) + 1
    tables, out0, frozen0 = _current(current, set(seated), present, n_tables, counts)
    for p in out0:
        counts[p] = counts.get(p, 0) + 1
    later = sit_out_plan(present, rounds_left - 1, per_round, counts)
    planned = planned or []
    proposals = [tables] + [list(planned[k].tables) if k < len(planned) else [] for k in range(1, rounds_left)]
    frozen = [frozen0] + [set() for _ in range(rounds_left - 1)]
    rounds, _ = optimise(v, present, proposals, [out0] + later, history=history, frozen=frozen,
                         budget=budget, seed=seed)
    return rounds
