"""Movements: build times for v up to 400, against a plain backtracking model.

    .venv/bin/python bench/movements.py [--max-v 400] [--cap 20] [--sweep]

The optimiser spends seeded annealing steps, not seconds: every figure of
quality here is the same on any machine; the times are this machine's.

1. Wh(v) for every v the constructions reach (goal: at most 1 s each).
2. Exactly R = 12 rounds for a sample of v up to 400, hard limits only
   (no partner twice, no opponent over twice, sit-outs within one; goal 2 s).
3. The same small instances by a plain backtracking model (table by table,
   same sit-out plan), capped at --cap seconds: the baseline of the ratios.
   CP-SAT is used too when ortools is installed (it is not a dependency).
4. Progressive drives: a simulated evening with random results against a
   designed schedule of the same length, by the quality report.
5. The service's budget (MOVEMENT_WORK_BUDGET, polishing included): steps taken,
   seconds, steps/s and the safety net's margin (its seconds / the build's).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from drive.movements.algorithms import whist_designs as wd
from drive.movements.algorithms.individual import default_rounds, individual
from drive.movements.algorithms.optimiser import DEFAULT_CAP, DEFAULT_WORK, Budget, sit_out_plan
from drive.movements.algorithms.progressive import CONVENTIONS, next_progressive_round
from drive.movements.algorithms.quality import report
from drive.movements.algorithms.schedule import Round

SMALL = [(8, 7), (9, 9), (10, 9), (11, 8), (12, 11), (13, 13), (14, 12), (16, 10)]


def designs(max_v: int) -> None:
    print("1. Wh(v) build + nothing else (s), by construction")
    worst: dict[str, tuple[float, int]] = {}
    for v, how in wd.coverage(max_v).items():
        wd._whist_design.cache_clear()
        wd.field.cache_clear()
        t = time.perf_counter()
        wd.whist_design(v)
        took = time.perf_counter() - t
        if took >= worst.get(how, (0.0, 0))[0]:
            worst[how] = (took, v)
    cov = wd.coverage(max_v)
    for how, (took, v) in sorted(worst.items()):
        n = sum(1 for c in cov.values() if c == how)
        print(f"   {how:8s} {n:3d} designs, slowest v={v}: {took:.3f} s")


def optimiser(max_v: int) -> None:
    print("2. exactly min(12, a design's length) rounds, hard limits (s)")
    for v in [v for v in (6, 10, 14, 23, 50, 98, 150, 202, 303, 398, 399) if v <= max_v]:
        t = time.perf_counter()
        budget = Budget()
        plan, how = individual(v, min(12, default_rounds(v)), budget=budget, polish=False)
        took = time.perf_counter() - t
        q = report(plan, v)
        ok = q["partner_max"] <= 1 and q["opponent_max"] <= 2 and q["sit_out_spread"] <= 1
        print(f"   v={v:3d}: {took:6.3f} s  {budget.used:6d} steps  {'ok ' if ok else 'NOT'} ({how})")


def sweep(max_v: int, max_rounds: int = 12) -> bool:
    """Every v from 5 to max_v and every R up to min(max_rounds, a design's length): the
    hard limits (no partner twice, no opponent over twice, sit-outs within one) and the
    build time (goal 2 s each). Prints failures, the slowest builds and a verdict."""
    print(f"2b. sweep: every v 5..{max_v}, every R 1..{max_rounds} (hard limits, goal 2 s each; "
          f"budget {DEFAULT_WORK:,} steps, seed 0)")
    slow, bad, count, steps, capped = [], [], 0, [], []
    for v in range(5, max_v + 1):
        for rounds in range(1, min(max_rounds, default_rounds(v)) + 1):
            t = time.perf_counter()
            budget = Budget()
            plan, _how = individual(v, rounds, budget=budget, polish=False)
            took = time.perf_counter() - t
            q = report(plan, v)
            count += 1
            steps.append((budget.used, v, rounds))
            if budget.cap_hit:
                capped.append((v, rounds))
            if not (q["partner_max"] <= 1 and q["opponent_max"] <= 2 and q["sit_out_spread"] <= 1 and len(plan) == rounds):
                bad.append((v, rounds))
            slow.append((took, v, rounds))
    slow.sort(reverse=True)
    print(f"   {count} builds; slowest: " + ", ".join(f"v={v} R={r} {t:.3f} s" for t, v, r in slow[:5]))
    print(f"   over 2 s: {sum(1 for t, _, _ in slow if t > 2.0)}; hard limits missed: {bad[:10] or 'none'}")
    steps.sort(reverse=True)
    print(f"   steps: most {steps[0][0]:,} (v={steps[0][1]} R={steps[0][2]}), "
          f"{steps[0][0] / DEFAULT_WORK:.2%} of the budget; safety net hit: {capped[:10] or 'never'}")
    ok = not bad and not capped and slow[0][0] <= 2.0
    print(f"   goal {'met' if ok else 'NOT met'}")
    return ok


def backtrack(v: int, rounds: int, cap: float) -> float | None:
    """Plain depth-first search: round by round, table by table; None if capped."""
    outs = sit_out_plan(list(range(1, v + 1)), rounds, v % 4)
    n = v + 1
    P, O = [0] * n * n, [0] * n * n
    deadline = time.perf_counter() + cap

    def fill(k, free):
        if time.perf_counter() > deadline:
            raise TimeoutError
        if not free:
            return k + 1 == rounds or fill(k + 1, sorted(set(range(1, n)) - set(outs[k + 1])))
        a, rest = free[0], free[1:]
        for b in rest:
            if P[a * n + b]:
                continue
            r2 = [x for x in rest if x != b]
            for i, c in enumerate(r2):
                for d in r2[i + 1:]:
                    pairs = ((a, c), (a, d), (b, c), (b, d))
                    if P[c * n + d] or any(O[x * n + y] >= 2 for x, y in pairs):
                        continue
                    for x, y in ((a, b), (c, d)):
                        P[x * n + y] = P[y * n + x] = 1
                    for x, y in pairs:
                        O[x * n + y] += 1
                        O[y * n + x] += 1
                    if fill(k, [x for x in r2 if x not in (c, d)]):
                        return True
                    for x, y in ((a, b), (c, d)):
                        P[x * n + y] = P[y * n + x] = 0
                    for x, y in pairs:
                        O[x * n + y] -= 1
                        O[y * n + x] -= 1
        return False

    t = time.perf_counter()
    try:
        found = fill(0, sorted(set(range(1, n)) - set(outs[0])))
    except TimeoutError:
        return None
    return time.perf_counter() - t if found else None


def cp_sat(v: int, rounds: int, cap: float) -> float | None:
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        return None
    outs = sit_out_plan(list(range(1, v + 1)), rounds, v % 4)
    m, T = cp_model.CpModel(), v // 4
    x = {}  # x[r, p, t, s]: player p in seat s of table t in round r
    for r in range(rounds):
        play = [p for p in range(1, v + 1) if p not in outs[r]]
        for p in play:
            m.AddExactlyOne(x.setdefault((r, p, t, s), m.NewBoolVar("")) for t in range(T) for s in range(4))
        for t in range(T):
            for s in range(4):
                m.AddExactlyOne(x[r, p, t, s] for p in play)
    for a in range(1, v + 1):
        for b in range(a + 1, v + 1):
            part, opp = [], []
            for (r, p, t, s), var in x.items():
                if p != a or (r, b, t, 0) not in x:
                    continue
                for s2 in range(4):
                    both = m.NewBoolVar("")
                    m.AddBoolAnd([var, x[r, b, t, s2]]).OnlyEnforceIf(both)
                    m.AddBoolOr([var.Not(), x[r, b, t, s2].Not()]).OnlyEnforceIf(both.Not())
                    (part if (s - s2) % 4 == 2 else opp if s != s2 else []).append(both)
            m.Add(sum(part) <= 1)
            m.Add(sum(opp) <= 2)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = cap
    t = time.perf_counter()
    status = solver.Solve(m)
    took = time.perf_counter() - t
    return took if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None


def baseline(cap: float) -> None:
    print(f"3. small instances: this optimiser vs plain backtracking (cap {cap:.0f} s)")
    for v, r in SMALL:
        wd._whist_design.cache_clear()
        wd.field.cache_clear()
        t = time.perf_counter()
        individual(v, r, polish=False)
        ours = time.perf_counter() - t
        bt = backtrack(v, r, cap)
        sat = cp_sat(v, r, cap)
        ratio = f"{bt / ours:8.1f}x" if bt else f"> {cap / ours:6.0f}x"
        extra = "" if sat is None else f"  CP-SAT {sat:.2f} s"
        print(f"   v={v:2d} R={r:2d}: ours {ours:.4f} s, backtracking "
              f"{f'{bt:.3f} s' if bt else 'capped'}, backtracking/ours {ratio}{extra}")


def progressive(v: int = 24, rounds: int = 12) -> None:
    print(f"4. progressive ({v} players, {rounds} rounds, random results) vs a designed schedule")
    rng = random.Random(1)
    designed = report(individual(v, rounds)[0], v)
    keys = ("partner_max", "opponent_max", "same_table_max", "distinct_partners_min")
    print(f"   {'designed':18s}" + "  ".join(f"{k}={designed[k]}" for k in keys))
    for conv in CONVENTIONS:
        r = Round(tuple(tuple(range(4 * i + 1, 4 * i + 5)) for i in range(v // 4)))
        plan = [r]
        for _ in range(rounds - 1):
            r = next_progressive_round(r, [rng.choice(("NS", "EW")) for _ in r.tables], conv)
            plan.append(r)
        q = report(plan, v)
        print(f"   {conv:18s}" + "  ".join(f"{k}={q[k]}" for k in keys))


def service_budget(work: int = DEFAULT_WORK, cap: float = DEFAULT_CAP) -> None:
    print(f"5. the service's budget, polishing included: {work:,} steps, safety net {cap:.0f} s")
    for v, rounds in ((22, 8), (24, 8), (40, 10), (100, 12), (380, 12)):
        budget = Budget(work, cap)
        t = time.perf_counter()
        plan, _how = individual(v, rounds, budget=budget)
        took = time.perf_counter() - t
        q = report(plan, v)
        print(f"   v={v:3d} R={rounds:2d}: {budget.used:7,} steps in {took:6.2f} s ({budget.used / took:6.0f} steps/s), "
              f"safety net {cap / took:5.1f}x the build{' HIT' if budget.cap_hit else ''}; "
              f"same table {q['same_table_max']} (bound {q['bound_same_table_max']}), partner {q['partner_max']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-v", type=int, default=400)
    ap.add_argument("--cap", type=float, default=10.0, help="seconds per backtracking run")
    ap.add_argument("--sweep", action="store_true", help="also check every v and every R up to 12 (minutes)")
    args = ap.parse_args()
    designs(args.max_v)
    optimiser(args.max_v)
    if args.sweep:
        sweep(args.max_v)
    baseline(args.cap)
    progressive()
    service_budget()


if __name__ == "__main__":
    main()
