"""A quick, paired screen of strong-robot settings: the double-dummy cost of its cards on recorded positions.

    .venv/bin/python bench/robot_positions.py collect --hands 80 --against pimc --out /tmp/pos.pkl
    .venv/bin/python bench/robot_positions.py score /tmp/pos.pkl --robot strong --kw '{"late_samples": 40}' --out /tmp/a.json
    .venv/bin/python bench/robot_positions.py compare /tmp/a.json /tmp/b.json

A duplicate match needs hundreds of deals to tell 0.1 tricks a deal from
zero (se about 0.15 over 100 deals). This screen is cheaper and paired:
``collect`` plays short-whist hands, ``strong`` at N-S against ``--against``
(``pimc`` or ``rules``) at E-W, and keeps, at each N-S play with a choice,
every view that seat had been shown so far and the true hands. ``score``
puts a fresh robot (``strong`` with ``--kw`` as keyword arguments, its
deadline off, or ``pimc``) in that seat, lets it read the earlier views
without searching, asks it for the card and prices the card double dummy in
the true layout: the tricks lost against the best card. ``compare`` gives
the mean difference of two scores position by position and its standard
error. About 20 positions a hand; 1,650 positions (80 hands) score in 2-4
minutes. The cost is of one card with double-dummy play after it, so it
misses what the play after it does (a lead that gives partner a problem);
the matches stay the measure (bench/robots.py). Figures of 2026-12-03 in
docs/benchmarks.md.
"""

import argparse
import copy
import json
import math
import os
import pickle
import random
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine.robots.pimc import PimcRobot  # noqa: E402
from engine.robots.rules import RulesRobot  # noqa: E402
from engine.robots.solver import Position, dds_values  # noqa: E402
from engine.robots.strong import StrongRobot  # noqa: E402
from engine.state import ACTING  # noqa: E402
from engine.variants import find_variant  # noqa: E402


def collect(hands: int, against: str, seed: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for h in range(hands):
        rng = random.Random(f"positions|{seed}|{h}")
        game = find_variant("short").new_game(rng=rng, first_dealer="NESW"[h % 4])
        game.deal(rng)
        robots: dict[str, Any] = {s: StrongRobot(seed=f"{seed}|{h}|{s}", deadline_seconds=None) for s in "NS"}
        robots.update({s: PimcRobot(seed=f"{seed}|{h}|{s}") if against == "pimc" else RulesRobot() for s in "EW"})
        seen: dict[str, list[dict[str, Any]]] = {s: [] for s in "NESW"}
        while game.phase in ACTING:
            seat = game.to_act
            view = game.view(seat)
            seen[seat].append(copy.deepcopy(view))
            if seat in "NS" and view["phase"] == "play" and len(view["legal"]) > 1:
                out.append({"views": copy.deepcopy(seen[seat]), "truth": list(game.hand.hands)})
            game.apply(robots[seat].choose(view))
        print(f"hand {h + 1}/{hands}: {len(out)} positions", file=sys.stderr, flush=True)
    return out


def score(positions: list[dict[str, Any]], robot: str, kw: dict[str, Any]) -> dict[str, list[float]]:
    losses, cards, cpu = [], [], []
    for i, rec in enumerate(positions):
        bot: Any = (PimcRobot(seed=f"p{i}", **kw) if robot == "pimc"
                    else StrongRobot(seed=f"p{i}", deadline_seconds=None, **kw))
        # the earlier views are read as in play (memories, the rules robot's), with no search
        bot.best_card = (lambda sit, legal: legal[0]) if robot == "pimc" else (lambda sit, legal, card, start=None: card)
        for view in rec["views"][:-1]:
            bot.choose(view)
        del bot.best_card
        view = rec["views"][-1]
        start = time.process_time()
        card = bot.choose(view).card
        cpu.append((time.process_time() - start) * 1000)
        sit = bot.memories[view["seat"]].situation(view)
        values = dds_values(Position(rec["truth"], sit.seats, list(sit.trick), sit.leader, sit.trump, sit.ranking))
        assert values is not None           # four hands of 13 at short whist
        losses.append(max(values.values()) - values[card])
        cards.append(card)
    return {"losses": losses, "cards": cards, "cpu_ms": cpu}


def mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    return mean, math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n) if n > 1 else 0.0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--hands", type=int, default=80)
    c.add_argument("--against", choices=("pimc", "rules"), default="pimc")
    c.add_argument("--seed", type=int, default=2)
    c.add_argument("--out", required=True)
    s = sub.add_parser("score")
    s.add_argument("positions")
    s.add_argument("--robot", choices=("strong", "pimc"), default="strong")
    s.add_argument("--kw", default="{}", help="keyword arguments of the robot, as JSON")
    s.add_argument("--out", required=True)
    m = sub.add_parser("compare")
    m.add_argument("a")
    m.add_argument("b")
    args = p.parse_args()
    if args.command == "collect":
        with open(args.out, "wb") as f:
            pickle.dump(collect(args.hands, args.against, args.seed), f)
    elif args.command == "score":
        with open(args.positions, "rb") as f:
            positions = pickle.load(f)
        start = time.perf_counter()
        result = score(positions, args.robot, json.loads(args.kw))
        with open(args.out, "w") as f:
            json.dump(result, f)
        mean, se = mean_se(result["losses"])
        cpu = sorted(result["cpu_ms"])
        print(f"{args.robot} {args.kw}: {mean:.4f} tricks lost a decision (se {se:.4f}) over {len(cpu)} positions; "
              f"cpu p95 {cpu[math.ceil(.95 * len(cpu)) - 1]:.0f} ms [{time.perf_counter() - start:.0f} s]")
    else:
        with open(args.a) as f, open(args.b) as g:
            a, b = json.load(f), json.load(g)
        mean, se = mean_se([x - y for x, y in zip(a["losses"], b["losses"], strict=True)])
        differ = sum(x != y for x, y in zip(a["cards"], b["cards"]))
        print(f"{args.a} - {args.b}: {mean:+.4f} tricks a decision (se {se:.4f}), {differ} of {len(a['cards'])} cards differ")


if __name__ == "__main__":
    main()
