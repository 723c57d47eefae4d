"""``python -m engine``: check records, play games, list the variants.

    python -m engine variants [--json]       every preset: name, players, seats, rules
    python -m engine check [FILE|-]          one record -> one answer
    python -m engine check --jsonl [FILE|-]  one record a line -> one answer a line
    python -m engine play --rules NAME --seed S [--json]   one whole game, random legal actions
    python -m engine game [FILE|-]           {"rules", "tricks": [[ns, ew], ...]}
    python -m engine deal [--seed N] [--dealer N] [--rules short] [--play]
    python -m engine match --ns ROBOT --ew ROBOT --deals N --seed S [--rules PRESET] --json

``check`` reads a short-whist hand record (``plays``) or a game record of any
variant (``deals`` or ``actions``; engine/RECORD.md).

Unreadable input prints one line on stderr and exits 2, never a traceback.
"""

import argparse
import json
import sys
from typing import Any

from .deal import deal, new_rng, seat_index
from .drive_scoring import drive_hand_scores
from .errors import EngineError
from .game import play_game
from .games import check_game, play_random
from .play import HandState
from .record import to_record
from .robots.match import run_match
from .rules import Ruleset
from .seats import SEATS
from .validate import ResultError, check_record, validate_tricks
from .variants import VARIANTS, find_variant


class Unreadable(EngineError):
    """Input the command cannot understand: exit status 2."""


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        code: int = args.run(args)
        return code
    except Unreadable as exc:
        return _fail(str(exc))
    except (ValueError, TypeError, KeyError, OSError) as exc:
        return _fail(str(exc) or type(exc).__name__)
    except Exception as exc:  # the contract: never a traceback
        return _fail(f"internal error: {type(exc).__name__}: {exc}")


def _fail(message: str) -> int:
    sys.stdout.flush()
    print(f"engine: {' '.join(message.split())}", file=sys.stderr)
    return 2


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m engine", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(required=True)
    c = sub.add_parser("check", help="check a hand record")
    c.add_argument("file", nargs="?", default="-")
    c.add_argument("--jsonl", action="store_true", help="one record per line")
    c.set_defaults(run=_check)
    g = sub.add_parser("game", help="score a game from tricks per hand")
    g.add_argument("file", nargs="?", default="-")
    g.set_defaults(run=_game)
    v = sub.add_parser("variants", help="list the presets")
    v.add_argument("--json", action="store_true")
    v.set_defaults(run=_variants)
    pl = sub.add_parser("play", help="play one whole game with random legal actions")
    pl.add_argument("--rules", default="short", help='a preset, or {"name": preset, option: value}')
    pl.add_argument("--seed", type=int)
    pl.add_argument("--json", action="store_true", help="print the game record")
    pl.set_defaults(run=_play)
    d = sub.add_parser("deal", help="print a new hand record")
    d.add_argument("--seed", type=int)
    d.add_argument("--dealer", default="N")
    d.add_argument("--rules", default="short")
    d.add_argument("--play", action="store_true", help="play it out with random legal cards")
    d.set_defaults(run=_deal)
    m = sub.add_parser("match", help="a duplicate match between robots")
    m.add_argument("--ns", required=True, help="robot A: N-S, or the declarer")
    m.add_argument("--ew", required=True, help="robot B: E-W, or the defenders")
    m.add_argument("--deals", type=int, default=100)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--rules", default="short")
    m.add_argument("--json", action="store_true")
    m.set_defaults(run=_match)
    return p


def _read(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    with open(name, encoding="utf-8") as f:
        return f.read()


def _load(text: str, where: str = "input") -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise Unreadable(f"{where}: not JSON: {exc}") from None


def _emit(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")


def _check(args: argparse.Namespace) -> int:
    text = _read(args.file)
    if not args.jsonl:
        _emit(_check_one(_load(text), "record"))
        return 0
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            _emit(_check_one(_load(line, f"line {number}"), f"line {number}"))
    return 0


def _check_one(data: object, where: str) -> dict[str, Any]:
    try:
        if isinstance(data, dict) and ("deals" in data or "actions" in data):
            return check_game(data)
        return check_record(data)
    except ValueError as exc:   # RecordError, CardError, RulesError
        raise Unreadable(f"{where}: {exc}") from None


def _game(args: argparse.Namespace) -> int:
    data = _load(_read(args.file))
    if not isinstance(data, dict) or not isinstance(data.get("tricks"), list):
        raise Unreadable('expected {"rules": ..., "tricks": [[ns, ew], ...]}')
    rules = Ruleset.from_json(data.get("rules", "short"))
    hands = []
    for i, pair in enumerate(data["tricks"], 1):
        if not isinstance(pair, list) or len(pair) != 2:
            raise Unreadable(f"hand {i}: expected [ns, ew]")
        try:
            hands.append(validate_tricks(*pair))
        except ResultError as exc:
            raise Unreadable(f"hand {i}: {exc}") from None
    if rules.scoring == "drive":    # D1: each hand scored alone, no game
        totals = [0, 0]
        for pair in hands:
            for side, pts in enumerate(drive_hand_scores(pair, rules)):
                totals[side] += pts
        _emit({"winner": None, "hands_played": len(hands),
               "totals": {"NS": totals[0], "EW": totals[1]}})
        return 0
    game, used = play_game(rules, hands)
    _emit({"winner": None if game.winner is None else ("NS", "EW")[game.winner],
           "hands_played": used, "totals": {"NS": game.below[0], "EW": game.below[1]}})
    return 0


def _variants(args: argparse.Namespace) -> int:
    rows = [v.to_json() for v in VARIANTS.values()]
    if args.json:
        _emit(rows)
        return 0
    for row in rows:
        print(f"{row['name']:<18} {row['players']} players  {' '.join(row['seats']):<8} {row['rules']}")
    return 0


def _rules(text: str) -> Any:
    """A preset's name, or its JSON object with options changed."""
    return _load(text, "--rules") if text.lstrip().startswith("{") else text


def _play(args: argparse.Namespace) -> int:
    variant = find_variant(_rules(args.rules))
    rng = new_rng(args.seed)
    game = play_random(variant.new_game(rng), rng)
    if args.json:
        _emit(game.record())
        return 0
    print(f"{variant.name}: {len(game.deals)} deals; score {json.dumps(game.score())}")
    return 0


def _match(args: argparse.Namespace) -> int:
    result = run_match(args.ns, args.ew, args.deals, args.seed, args.rules)
    if args.json:
        _emit(result)
        return 0
    print(f"{args.ns} (N-S) vs {args.ew} (E-W), {args.rules}: {json.dumps(result)}")
    return 0


def _deal(args: argparse.Namespace) -> int:
    rules = Ruleset.from_json(args.rules)
    rng = new_rng(args.seed)
    try:
        dealer = seat_index(args.dealer)
    except ValueError:
        raise Unreadable(f"dealer must be one of {', '.join(SEATS)}") from None
    state = HandState.from_deal(deal(dealer, rng, rules))
    if args.play:
        state.playout(rng)
    _emit(to_record(state, rules))
    return 0
