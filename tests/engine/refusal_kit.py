"""The engine's refusals found two ways: every reason code its source can raise (read from
the source, so a new code cannot hide), and the refusals random games of every preset
actually give (with their params), for the engine's and the online table's tests."""
import ast
import random
from pathlib import Path

from engine.actions import PASS, parse_action
from engine.cards import LITTLE_JOKER, card_str
from engine.errors import IllegalAction
from engine.state import Phase
from engine.variants import VARIANTS, find_variant

ENGINE = Path(__file__).resolve().parents[2] / "engine"

# what raises a refusal -> the position of its reason among the call's arguments
# (None: keyword only) and of its params
RAISERS = {"_refuse": (2, 4), "IllegalAction": (None, None), "IllegalPlay": (0, None)}
# helpers that say why an action is refused -> the place of the reason, then of the params,
# in the tuple they return
HELPERS = {"_refusal_of": (1, 2), "_why_not": (2, 3)}


def _name(func) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _arg(call: ast.Call, position, keyword):
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    if position is not None and len(call.args) > position:
        return call.args[position]
    return None


def _constants(trees) -> dict:
    """Module-level ``NAME = "text"`` of the engine (NOT_IN_HAND = "not_in_hand")."""
    found = {}
    for tree in trees.values():
        for node in tree.body:
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                    and isinstance(node.value.value, str)):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found[target.id] = node.value.value
    return found


def _keys(node) -> set | None:
    """The keys of a literal dict (None: not a literal dict with literal keys)."""
    if isinstance(node, ast.Dict) and all(isinstance(k, ast.Constant) for k in node.keys):
        return {k.value for k in node.keys}
    return None


def scan_source() -> tuple[dict, list]:
    """(code -> [(place, literal params keys or None)], problems): every reason code the
    engine's source raises, found in the calls of RAISERS and the returns of HELPERS.
    A reason that is neither a literal, a module constant, another refusal's ``.reason``
    passed on, nor a name bound from a helper's answer is a problem (it could hide a code)."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(ENGINE.rglob("*.py"))}
    constants = _constants(trees)
    codes: dict = {}
    problems: list = []

    def code_of(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name) and node.id in constants:
            return constants[node.id]
        return None

    for path, tree in trees.items():
        where = path.relative_to(ENGINE.parent)
        for func in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
            from_helpers = set()      # names bound by "a, b, c = self._why_not(...)"
            for node in ast.walk(func):
                if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                        and _name(node.value.func) in HELPERS and isinstance(node.targets[0], ast.Tuple)):
                    from_helpers |= {t.id for t in node.targets[0].elts if isinstance(t, ast.Name)}
            if func.name in HELPERS:
                at, params_at = HELPERS[func.name]
                for ret in [n for n in ast.walk(func) if isinstance(n, ast.Return)]:
                    value = ret.value
                    if isinstance(value, ast.Call) and _name(value.func) == func.name:
                        continue      # super()._refusal_of(card): the parent's answer
                    if not isinstance(value, ast.Tuple) or code_of(value.elts[at]) is None:
                        problems.append(f"{where}:{ret.lineno}: {func.name} returns no literal reason")
                        continue
                    keys = _keys(value.elts[params_at]) if len(value.elts) > params_at else set()
                    codes.setdefault(code_of(value.elts[at]), []).append((f"{where}:{ret.lineno}", keys))
            for call in [n for n in ast.walk(func) if isinstance(n, ast.Call)]:
                name = _name(call.func)
                if name not in RAISERS:
                    continue
                if any(isinstance(a, ast.Starred) for a in call.args):
                    problems.append(f"{where}:{call.lineno}: {name}(*...) hides its reason")
                    continue
                at, params_at = RAISERS[name]
                reason = _arg(call, at, "reason")
                code = code_of(reason)
                if code is not None:
                    params = _arg(call, params_at, "params")
                    if name == "IllegalPlay":      # it builds its params: the card, and the suit led
                        keys = {"card"} | ({"suit"} if _arg(call, None, "led") is not None else set())
                    else:
                        keys = set() if params is None else _keys(params)
                    codes.setdefault(code, []).append((f"{where}:{call.lineno}", keys))
                elif isinstance(reason, ast.Attribute) and reason.attr == "reason":
                    continue                   # another refusal's code passed on (raised elsewhere)
                elif isinstance(reason, ast.Name) and reason.id in from_helpers:
                    continue                   # a helper's answer: its returns are read above
                elif (isinstance(reason, ast.Name) and func.name in ("_refuse", "__init__")
                      and reason.id in {a.arg for a in func.args.args + func.args.kwonlyargs}):
                    continue                   # the refusal's own makers pass their caller's on
                else:
                    problems.append(f"{where}:{call.lineno}: {name} with a reason not written out")
    return codes, problems


# --- random games ------------------------------------------------------------------

CARDS = [card_str(c) for c in range(LITTLE_JOKER + 2)]
CALLS = [parse_action(t) for t in ["pass", "keep", "swap", "uptown", "downtown", "S", "H", "D", "C", "NT",
                                   *(f"trump {s}" for s in "SHDC"),
                                   *(f"{n} {s}" for n in range(0, 9) for s in ("uptown", "downtown", "NT"))]]
PLAYS = {c: parse_action(c) for c in CARDS}
DISCARDS = {c: parse_action(f"discard {c}") for c in CARDS}
EVERY = CALLS + list(PLAYS.values()) + list(DISCARDS.values())

# every preset, and options that reach the refusals of the jokers and the forced dealer
RULES = list(VARIANTS) + [
    {"name": "dummy", "jokers": True}, {"name": "dummy", "forced_dealer_min_only": True},
    {"name": "bid", "kitty_discard": "no_jokers_in_trump"},
    {"name": "bid", "nt_joker_lead": "only_if_forced", "forced_dealer_min": "minimum_only"},
    {"name": "siberian", "all_pass": "dealer_declares"},
]


def random_refusals(seed: int = 1, hands: int = 3, tries: int = 4) -> list[IllegalAction]:
    """The refusals of actions that are not legal at every turn of ``hands`` random hands
    of every rule set of RULES: in play, every card the player to act may see in a hand
    of theirs (their own, a dummy's), a few calls and ``tries`` other actions; before,
    every call, every discard of those cards and ``tries`` others; and one action between
    hands. The auctions pass most of the time, so forced dealers come up."""
    rng = random.Random(seed)
    found = []

    def refused(action, legal, rules) -> None:
        if action in legal:
            return
        try:
            game.apply(action)
        except IllegalAction as exc:
            found.append(exc)
        else:
            raise AssertionError(f"{rules}: {action} applied, not legal ({legal})")

    for rules in RULES:
        game = find_variant(rules).new_game(rng)
        for _ in range(hands):
            if game.phase == Phase.OVER:
                break
            if game.deals:                       # between hands: no one acts (S7.2, S7.3)
                refused(CALLS[0], (), rules)
            game.deal(rng)
            while game.phase not in (Phase.SCORED, Phase.OVER, Phase.DEAL):
                legal = game.legal_actions()
                view = game.view(game.to_act)
                held = [c for cards in [view.get("hand") or [], *(view.get("open_hands") or {}).values()]
                        for c in cards]
                if game.phase == Phase.PLAY:
                    tried = [PLAYS[c] for c in held] + rng.sample(CALLS, 2)
                else:
                    tried = CALLS + [DISCARDS[c] for c in held]
                for action in tried + rng.sample(EVERY, tries):
                    refused(action, legal, rules)
                passes = PASS in legal and rng.random() < 0.7
                game.apply(PASS if passes else rng.choice(legal))
    return found
