"""Robot speed and strength: the rules robot's hands a second, the duplicate matches, the command's start-up.

    .venv/bin/python bench/robots.py [--deals 300] [--jobs 1] [--seed 1] [--only speed,pimc,rules,variants,play] [--save FILE]

Prints, from one run:
- ``speed``: four ``rules`` robots playing short-whist hands through the fast
  view (``LiveView`` kept up to date in place, ``choose_card`` on bit masks):
  hands a second on one core, the goal at least 5,000; random playouts
  (``HandState.playout``) in the same run, for scale; the duplicate match
  ``rules`` against ``random`` (``--random-deals``, 500: issue 13 asks for at
  least 3 tricks a deal);
- ``pimc`` and ``rules``: the duplicate matches ``strong`` against ``pimc``
  and ``strong`` against ``rules`` at short whist (``python -m engine match``:
  each deal played twice, the robots swapping sides): strong's mean tricks a
  deal, its standard error and the number of deals; issue 23 asks for at
  least +0.25 against pimc, two standard errors clear of zero, and +1.0
  against rules over 300 deals or more;
- ``variants``: ``strong`` against ``rules`` at bid whist, dummy whist and
  Siberian whist in each variant's own points a deal (A's score minus B's, a
  deal's two plays averaged), with its standard error;
- for every match, the strong robot's decisions: CPU time (every thread of the
  process, ``time.process_time``) p95 and max, wall-clock p95 and max, and how
  many its deadline cut short; the goal is p95 at most 300 ms of CPU, and 2 s
  of wall clock at most (the deadline, 1.5 s, holds it);
- ``play``: the CPU time of ``python -m engine play`` (a child process, read
  with ``resource.getrusage(RUSAGE_CHILDREN)``; the median of five runs), the
  goal under 0.2 s.

The strong robot plays as registered (``ROBOTS["strong"]``, its deadline on);
``--jobs J`` splits each match's deals over J processes (the same deals and
seeds, the same results; the wall clock then shares the cores). Run it with
``nice -n 10`` on a shared machine: a match of 300 deals takes about 35 minutes
of CPU against pimc (62 minutes of wall clock niced on 2 loaded cores,
2026-12-03). ``bench/robot_positions.py`` screens the strong robot's settings
in minutes before a match is worth its hour.
"""

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine.deal import deal, new_rng  # noqa: E402
from engine.play import HandState  # noqa: E402
from engine.robots import ROBOTS, LiveView, RulesRobot  # noqa: E402
from engine.robots.match import run_match  # noqa: E402
from engine.rules import preset  # noqa: E402

GOAL_HANDS = 5_000
GOAL_PIMC, GOAL_RULES = 0.25, 1.0        # strong's tricks a deal over pimc and rules (issue 23)
GOAL_CPU_MS, GOAL_WALL_MS = 300, 2000    # strong's decisions: p95 of CPU time, the longest on the wall clock
GOAL_PLAY_S = 0.2                        # ``python -m engine play``, CPU time
VARIANTS = ("bid", "dummy", "siberian")
PARTS = ("speed", "pimc", "rules", "variants", "play")


def robot_hands(deals) -> float:
    """Hands a second with four rules robots, one a seat."""
    start = time.perf_counter()
    for d in deals:
        state = HandState.from_deal(d)
        view = LiveView(d.dealer, d.trump, d.trump_card)
        robots = [RulesRobot() for _ in range(4)]
        hands, play, advance, show = state.hands, state.play, view.advance, view.show
        for _ in range(52):
            seat = state.turn
            card = robots[seat].choose_card(show(seat, hands[seat]))
            play(card)
            advance(card, None if state.n else state.winners[-1])
    return len(deals) / (time.perf_counter() - start)


def playouts(deals, rng) -> float:
    start = time.perf_counter()
    for d in deals:
        HandState.from_deal(d).playout(rng)
    return len(deals) / (time.perf_counter() - start)


def speed(args) -> None:
    rng = new_rng(2024)
    rules = preset("short")
    sample = [deal(i & 3, rng, rules) for i in range(500)]
    rate = robot_hands(sample)                                  # warm up and size the run
    count = max(500, int(rate * args.seconds))
    deals = [deal(i & 3, rng, rules) for i in range(count)]
    best = max(robot_hands(deals) for _ in range(3))
    rand = max(playouts(deals, rng) for _ in range(3))
    print(f"rules robots, short whist: {best:,.0f} hands/s on one core "
          f"(goal {GOAL_HANDS:,}: {'met' if best >= GOAL_HANDS else 'NOT met'}); "
          f"random playouts {rand:,.0f} hands/s; ratio {rand / best:.1f}x")
    start = time.perf_counter()
    result = run_match("rules", "random", args.random_deals, 1)
    print(f"match rules vs random, {args.random_deals} duplicate short-whist deals, seed 1: "
          f"{result['tricks_per_deal']:+.3f} tricks/deal (se {result['se']:.3f}), "
          f"{result['points_per_hand']:+.3f} points/hand, decision p95 {result['decision_ms_p95']} ms "
          f"[{time.perf_counter() - start:.1f} s]", flush=True)


# --- duplicate matches -----------------------------------------------------------

class _Counted:
    """The registered robot, its instances kept to count the deadline's cuts."""

    def __init__(self, name: str):
        self.name, self.made = name, []

    def __call__(self, seed):
        robot = ROBOTS[self.name](seed=seed)
        self.made.append(robot)
        return robot


def _slice(job: tuple[str, str, str, int, int, int]) -> dict[str, Any]:
    a, b, rules, seed, first, deals = job
    makers = {a: _Counted(a), b: _Counted(b)}
    samples: dict[str, Any] = {}
    run_match(a, b, deals, seed, rules, first=first, makers=makers, samples=samples)
    samples["capped"] = sum(getattr(r, "capped", 0) for r in makers[a].made)
    return samples


def match(a: str, b: str, rules: str, args) -> dict[str, Any]:
    """Robot a against robot b over ``args.deals`` deals, split over ``args.jobs`` processes."""
    step = math.ceil(args.deals / (args.jobs * 4)) if args.jobs > 1 else args.deals
    jobs = [(a, b, rules, args.seed, first, min(step, args.deals - first)) for first in range(0, args.deals, step)]
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            parts = list(pool.map(_slice, jobs))
    else:
        parts = [_slice(job) for job in jobs]
    out: dict[str, Any] = {"tricks": [], "points": [], "cpu": [], "wall": [], "capped": 0,
                           "seconds": time.perf_counter() - start}
    for part in parts:
        out["tricks"] += part["tricks"]
        out["points"] += part["points"]
        out["cpu"] += part["cpu_ms"]["A"]
        out["wall"] += part["wall_ms"]["A"]
        out["capped"] += part["capped"]
    return out


def mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def pct(xs: list[float], q: float) -> float:
    ordered = sorted(xs)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)] if ordered else 0.0


def report(title: str, result: dict[str, Any], key: str, goal: float | None) -> None:
    mean, se = mean_se(result[key])
    unit = "tricks" if key == "tricks" else "points"
    verdict = ""
    if goal is not None:
        met = mean >= goal and mean - 2 * se > 0
        verdict = f" (goal >= {goal:+.2f}, 2 se clear of 0: {'met' if met else 'NOT met'})"
    cpu, wall = result["cpu"], result["wall"]
    timing = (f"strong's {len(cpu)} decisions: cpu p95 {pct(cpu, .95):.0f} ms, max {max(cpu):.0f} ms; "
              f"wall p95 {pct(wall, .95):.0f} ms, max {max(wall):.0f} ms; cut by the deadline {result['capped']}")
    ok = pct(cpu, .95) <= GOAL_CPU_MS and max(wall) <= GOAL_WALL_MS
    print(f"{title}: {mean:+.3f} {unit}/deal (se {se:.3f}, {len(result[key])} deals){verdict}\n"
          f"    {timing} (goal cpu p95 <= {GOAL_CPU_MS} ms, wall <= {GOAL_WALL_MS} ms: {'met' if ok else 'NOT met'}) "
          f"[{result['seconds']:.0f} s]", flush=True)


def engine_play(runs: int = 5) -> list[float]:
    """CPU seconds of ``python -m engine play`` (user + system), one a run."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    out = []
    for seed in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-m", "engine", "play", "--rules", "short", "--seed", str(seed)],
                       cwd=root, check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=3.0, help="about how long each speed run lasts")
    p.add_argument("--deals", type=int, default=300, help="duplicate deals in each strong robot's match")
    p.add_argument("--random-deals", type=int, default=500, help="duplicate deals, rules against random")
    p.add_argument("--seed", type=int, default=1, help="the matches' seed")
    p.add_argument("--jobs", type=int, default=1, help="processes each match is split over")
    p.add_argument("--only", default=",".join(PARTS), help=f"some of {','.join(PARTS)}")
    p.add_argument("--save", metavar="FILE", help="write each match's tricks and points, deal by deal, as JSON"
                   " (two settings on the same seed compare deal by deal: a paired difference)")
    args = p.parse_args()
    parts = set(args.only.split(","))
    saved: dict[str, Any] = {}
    if "speed" in parts:
        speed(args)
    if "pimc" in parts:
        saved["pimc"] = match("strong", "pimc", "short", args)
        report(f"strong vs pimc, short whist, seed {args.seed}", saved["pimc"], "tricks", GOAL_PIMC)
    if "rules" in parts:
        saved["rules"] = match("strong", "rules", "short", args)
        report(f"strong vs rules, short whist, seed {args.seed}", saved["rules"], "tricks", GOAL_RULES)
    if "variants" in parts:
        for name in VARIANTS:
            saved[name] = match("strong", "rules", name, args)
            report(f"strong vs rules, {name}, seed {args.seed}", saved[name], "points", None)
    if args.save:
        with open(args.save, "w") as f:
            json.dump({"seed": args.seed, "matches": {k: {"tricks": v["tricks"], "points": v["points"]}
                                                      for k, v in saved.items()}}, f)
    if "play" in parts:
        cpu = sorted(engine_play())
        median = cpu[len(cpu) // 2]
        print(f"python -m engine play --rules short: {median:.3f} s CPU (median of {len(cpu)}; "
              f"{', '.join(f'{c:.3f}' for c in cpu)}) (goal < {GOAL_PLAY_S} s: {'met' if median < GOAL_PLAY_S else 'NOT met'})")


if __name__ == "__main__":
    main()
