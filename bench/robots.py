"""Robot speed and strength: the rules robot's hands a second, and matches.

    .venv/bin/python bench/robots.py [--seconds S] [--deals N]

Prints, from one run on one core:
- four ``rules`` robots playing short-whist hands through the fast view
  (``LiveView`` kept up to date in place, ``choose_card`` on bit masks):
  hands a second; the goal is at least 5,000;
- random playouts (``HandState.playout``) in the same run, for scale;
- the duplicate match ``rules`` against ``random`` on short whist
  (``python -m engine match``; issue 13 asks for at least 3 tricks a deal).
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine.deal import deal, new_rng  # noqa: E402
from engine.play import HandState  # noqa: E402
from engine.robots import LiveView, RulesRobot  # noqa: E402
from engine.robots.match import run_match  # noqa: E402
from engine.rules import preset  # noqa: E402

GOAL_HANDS = 5_000


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


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=3.0, help="about how long each speed run lasts")
    p.add_argument("--deals", type=int, default=500, help="duplicate deals in the match")
    args = p.parse_args()
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
    result = run_match("rules", "random", args.deals, 1)
    print(f"match rules vs random, {args.deals} duplicate short-whist deals, seed 1: "
          f"{result['tricks_per_deal']:+.3f} tricks/deal (se {result['se']:.3f}), "
          f"{result['points_per_hand']:+.3f} points/hand, decision p95 {result['decision_ms_p95']} ms "
          f"[{time.perf_counter() - start:.1f} s]")


if __name__ == "__main__":
    main()
