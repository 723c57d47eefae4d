"""Engine speed: random full-hand playouts per second, against a naive engine.

    .venv/bin/python bench/engine.py [--seconds S] [--against REV]

Each playout is a fresh deal (shuffle, cut, deal, trump) and 52 uniformly
random legal cards. The engine is measured two ways, both robot interfaces:
``legal_moves()`` + ``play()`` per card (how a robot at a table plays), and
``playout(rng)`` (how a Monte Carlo robot rolls a hand out). The naive engine,
in this file, keeps hands as lists of card objects. Goals: at least
30,000 hands/s on one core, at least 1.3x the naive engine, a hand state
under 2 KB.

Every preset is then played through the game-state interface (deal, auction,
exchange, play with random legal actions): hands per second each. ``--against
REV`` runs this same benchmark from an earlier commit in turn with this one
(three rounds, best of each) and prints the fast core's rates as ratios: the
engine must not lose more than 5% to the variants' shape.
"""

import argparse
import gc
import os
import random
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine.deal import deal  # noqa: E402
from engine.games import play_random  # noqa: E402
from engine.play import HandState  # noqa: E402
from engine.state import Phase  # noqa: E402
from engine.variants import VARIANTS  # noqa: E402

GOAL_RATE, GOAL_RATIO, GOAL_BYTES = 30_000, 1.3, 2048


# --- a deliberately naive engine: lists of objects --------------------------

class NaiveCard:
    def __init__(self, suit, rank):
        self.suit, self.rank = suit, rank


class NaiveHand:
    def __init__(self, rng, dealer):
        deck = [NaiveCard(s, r) for s in range(4) for r in range(13)]
        rng.shuffle(deck)
        at = 6 + rng.randrange(41)
        deck = deck[at:] + deck[:at]
        self.hands = [[] for _ in range(4)]
        for i, card in enumerate(deck):
            self.hands[(dealer + 1 + i) % 4].append(card)
        self.trump = deck[-1].suit
        self.turn = (dealer + 1) % 4
        self.trick = []          # (seat, card)
        self.tricks = [0, 0]
        self.history = []

    def legal_moves(self):
        hand = self.hands[self.turn]
        if self.trick:
            led = self.trick[0][1].suit
            follow = [c for c in hand if c.suit == led]
            if follow:
                return follow
        return list(hand)

    def play(self, card):
        if card not in self.legal_moves():
            raise ValueError("illegal")
        self.hands[self.turn].remove(card)
        self.trick.append((self.turn, card))
        self.history.append(card)
        if len(self.trick) < 4:
            self.turn = (self.turn + 1) % 4
            return
        led = self.trick[0][1].suit

        def power(entry):
            c = entry[1]
            return 100 + c.rank if c.suit == self.trump else c.rank if c.suit == led else -1

        winner = max(self.trick, key=power)[0]
        self.tricks[winner % 2] += 1
        self.turn = winner
        self.trick = []


# --- the measured loops ------------------------------------------------------

def naive_playout(rng, dealer):
    h = NaiveHand(rng, dealer)
    for _ in range(52):
        moves = h.legal_moves()
        h.play(moves[int(rng.random() * len(moves))])
    return h.tricks


def engine_per_card(rng, dealer):
    state = HandState.from_deal(deal(dealer, rng))
    legal, play, rnd = state.legal_moves, state.play, rng.random
    for _ in range(52):
        moves = legal()
        play(moves[int(rnd() * len(moves))])
    return state.tricks


def engine_playout(rng, dealer):
    return HandState.from_deal(deal(dealer, rng)).playout(rng)


def rate(fn, seconds, seed=1):
    """Hands per CPU second of this process (one core, so other work on the
    machine does not count against us), best of three slices."""
    rng = random.Random(seed)
    best = 0.0
    for _ in range(3):
        n, start = 0, time.process_time()
        while time.process_time() - start < seconds / 3:
            for i in range(200):
                fn(rng, i & 3)
            n += 200
        best = max(best, n / (time.process_time() - start))
    return best


def deep_size(obj, seen=None) -> int:
    """Bytes of an object and everything it holds (shared small ints excluded)."""
    seen = set() if seen is None else seen
    if id(obj) in seen or (isinstance(obj, int) and -5 <= obj <= 256):
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, (list, tuple, set)):
        size += sum(deep_size(x, seen) for x in obj)
    elif isinstance(obj, dict):
        size += sum(deep_size(k, seen) + deep_size(v, seen) for k, v in obj.items())
    for name in getattr(type(obj), "__slots__", ()):
        if hasattr(obj, name):
            size += deep_size(getattr(obj, name), seen)
    return size


def state_sizes():
    rng = random.Random(2)
    state = HandState.from_deal(deal(0, rng))
    start = deep_size(state)
    state.playout(rng)
    return start, deep_size(state)


def variant_rate(variant, seconds: float) -> tuple:
    """Hands a CPU second of one preset played with random legal actions
    through the game-state interface, and the actions per hand."""
    rng = random.Random(5)
    hands = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = play_random(variant.new_game(rng), rng)
        hands += len(game.deals)
        actions += sum(len(d["actions"]) for d in game.deals)
        assert game.phase == Phase.OVER
    return hands / (time.process_time() - start), actions / max(hands, 1)


def print_variants(seconds: float) -> None:
    print("\nevery preset through the game-state interface (random legal actions, one core)")
    for name, variant in VARIANTS.items():
        per_second, per_hand = variant_rate(variant, seconds)
        print(f"  {name:<18} {per_second:8,.0f} hands/s  ({per_hand:.0f} actions a hand; {variant.rules})")


RATE_LINE = re.compile(r"^engine, (legal_moves\(\)\+play\(\)|playout\(rng\)) *: *([\d,]+) hands/s", re.M)


def core_rates(tree: str, seconds: float) -> dict:
    """The fast core's two rates from the benchmark in ``tree``, run alone."""
    command = [sys.executable, os.path.join(tree, "bench", "engine.py"), "--seconds", str(seconds)]
    run = subprocess.run(command + ["--core-only"], capture_output=True, text=True, cwd=tree)
    if run.returncode == 2:        # a commit from before the presets: it measures only the core
        run = subprocess.run(command, capture_output=True, text=True, cwd=tree)
    out = run.stdout
    return {m.group(1): float(m.group(2).replace(",", "")) for m in RATE_LINE.finditer(out)}


def against(rev: str, seconds: float) -> None:
    """This tree's fast core against ``rev``'s, alternating, best of three."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    with tempfile.TemporaryDirectory() as old:
        archive = subprocess.run(["git", "archive", rev, "engine", "bench"], cwd=here,
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
        best = {"old": {}, "new": {}}
        for _ in range(3):
            for label, tree in (("old", old), ("new", here)):
                for key, value in core_rates(tree, seconds).items():
                    best[label][key] = max(best[label].get(key, 0.0), value)
    print(f"\nthe fast core against {rev} (same run, alternating, best of three)")
    for key in sorted(best["new"]):
        old_rate, new_rate = best["old"].get(key), best["new"][key]
        if old_rate:
            print(f"  {key:<22} {old_rate:10,.0f} -> {new_rate:10,.0f} hands/s"
                  f"  ({new_rate / old_rate:.3f}x; goal >= 0.95x)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    ap.add_argument("--against", metavar="REV", help="compare the fast core with an earlier commit")
    ap.add_argument("--core-only", action="store_true", help="skip the presets (used by --against)")
    args = ap.parse_args()
    gc.collect()
    naive = rate(naive_playout, args.seconds)
    per_card = rate(engine_per_card, args.seconds)
    rollout = rate(engine_playout, args.seconds)
    start, end = state_sizes()
    print("hands per CPU second on one core (time.process_time); each = deal + 52 random legal cards")
    print(f"naive list-of-objects engine : {naive:10,.0f} hands/s")
    print(f"engine, legal_moves()+play() : {per_card:10,.0f} hands/s  ({per_card / naive:.2f}x naive)")
    print(f"engine, playout(rng)         : {rollout:10,.0f} hands/s  ({rollout / naive:.2f}x naive)")
    print(f"hand state size              : {start:,} bytes at the deal, {end:,} bytes after 52 plays")
    for label, value in (("legal_moves()+play()", per_card), ("playout(rng)", rollout)):
        met = value >= GOAL_RATE and value / naive >= GOAL_RATIO
        print(f"goal >= {GOAL_RATE:,} hands/s and >= {GOAL_RATIO}x naive via {label}: "
              f"{'met' if met else 'not met'}")
    ok = rollout >= GOAL_RATE and rollout / naive >= GOAL_RATIO and end < GOAL_BYTES
    print(f"goal hand state < {GOAL_BYTES:,} bytes: {'met' if end < GOAL_BYTES else 'not met'}")
    if not args.core_only:
        print_variants(args.seconds / 3)
    if args.against:
        against(args.against, args.seconds)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
