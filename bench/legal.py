"""Every robot in every variant over many seeds: every action legal, and how fast they come.

    .venv/bin/python bench/legal.py [--seeds 4] [--hands 2] [--robots random,rules,strong]

The soak behind tests/engine/test_robots.py's and test_strong.py's legal-action tests,
which play a few fixed seeds: here each robot plays `--hands` hands of every variant
for each of `--seeds` seeds (the strong robot at its real budget). Any illegal action
fails the run (exit 1); it prints, per robot, the decisions checked and their rate
(CPU time, so a loaded machine moves it less).
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import VARIANTS, find_variant, new_rng  # noqa: E402
from engine.robots import ROBOTS  # noqa: E402
from engine.state import Phase  # noqa: E402


def play(robot: str, name: str, seed: int, hands: int) -> int:
    """Decisions checked; raises AssertionError on an illegal one."""
    rng = new_rng(seed)
    game = find_variant(name).new_game(rng)
    players = {s: ROBOTS[robot](seed=seed) for s in game.variant.seats}
    decisions = 0
    for _ in range(hands):
        if game.phase == Phase.OVER:
            break
        game.deal(rng)
        while game.phase not in (Phase.SCORED, Phase.OVER):
            view = game.view(game.to_act)
            action = players[game.to_act].choose(view)
            assert str(action) in view["legal"], f"{robot} played {action} in {name}, seed {seed}"
            game.apply(action)
            decisions += 1
    return decisions


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--hands", type=int, default=2)
    ap.add_argument("--robots", default=",".join(sorted(ROBOTS)))
    args = ap.parse_args()
    for robot in args.robots.split(","):
        start, decisions = time.process_time(), 0
        try:
            for seed in range(args.seeds):
                for name in sorted(VARIANTS):
                    decisions += play(robot, name, 1000 + seed, args.hands)
        except AssertionError as error:
            print(f"ILLEGAL: {error}")
            return 1
        cpu = time.process_time() - start
        print(f"{robot:>7}: {decisions} decisions in {len(VARIANTS)} variants x {args.seeds} seeds, all legal; "
              f"{decisions / cpu:,.0f} a CPU second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
