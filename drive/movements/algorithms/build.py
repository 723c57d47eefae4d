"""The entry points the Celery task and the command call (pure: no ORM here).

    build_movement(players, kind, rounds=None, budget=Budget(steps, cap_seconds), pinned=None, seed=0) -> Movement
    quality_report(movement) -> dict
    replan(history, present, rounds_left, current=..., seated=...)   (replan.py)
    next_progressive_round(current, winners, convention, ...)       (progressive.py)
"""
from __future__ import annotations

from drive.movements.algorithms.individual import individual
from drive.movements.algorithms.optimiser import Budget
from drive.movements.algorithms.pairs import pairs_movement
from drive.movements.algorithms.progressive import CONVENTIONS, next_progressive_round  # noqa: F401 (re-exported)
from drive.movements.algorithms.quality import pairs_report, problems, report
from drive.movements.algorithms.replan import replan  # noqa: F401 (re-exported)
from drive.movements.algorithms.schedule import Movement, Round, as_table
from drive.movements.algorithms.seating import assign_tables

KINDS = ("individual", "pairs", "progressive")


def first_progressive_round(players: int) -> list[Round]:
    """Players in number order, four to a table; the highest numbers sit out."""
    n = players // 4
    tables = tuple(as_table(range(4 * i + 1, 4 * i + 5)) for i in range(n))
    return [Round(tables, tuple(range(4 * n + 1, players + 1)))]


def build_movement(players: int, kind: str, rounds: int | None = None, budget: Budget | None = None,
                   pinned: dict[int, int] | None = None, seed: int = 0, style: str = "auto") -> Movement:
    """A verified movement for players 1..`players`, its quality report in
    meta["quality"]. `pinned`: player -> the table number they keep all evening.
    A progressive movement holds only its first round: the rest follow results.
    The same arguments give the same movement on any machine; quality["search"]
    says the seed, the steps taken and whether the safety net cut the search short."""
    budget = budget or Budget()
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}")
    if rounds is not None and rounds < 1:
        raise ValueError("rounds must be at least 1")
    if players < 4:
        raise ValueError("a movement needs at least four players")
    clashes: list[str] = []
    if kind == "pairs":
        plan, source = pairs_movement(players, rounds, style)
        quality = pairs_report(plan, players)
    else:
        if kind == "progressive":
            plan, source = first_progressive_round(players), "progressive: round 1 in number order"
        else:
            plan, source = individual(players, rounds, budget=budget, seed=seed)
        plan, clashes = assign_tables(plan, pinned)
        quality = report(plan, players)
    faults = problems(plan, players)
    if faults:  # never hand out a broken movement
        raise AssertionError(f"{source}: {faults[:3]}")
    quality.update(source=source, pin_clashes=clashes, search={"seed": seed, **budget.report()})
    return Movement(players, kind, plan, source, {"quality": quality})


def quality_report(movement: Movement) -> dict:
    return movement.meta["quality"]
