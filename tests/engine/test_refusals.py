"""The engine's one vocabulary of refusals (engine.errors.REFUSALS): every reason code its
source raises is declared there, every declared code is raised somewhere, and every
refusal carries the params its code declares, so a front end can word it in any
language (the online table: drive/games/refusals.py)."""
import ast
import random

import pytest

from engine import REFUSALS
from engine.actions import parse_action
from engine.cards import BIT, NO_TRUMP, card_str, cards_of
from engine.errors import IllegalAction
from engine.state import Phase
from engine.variants import find_variant
from engine.variants.bid_play import JOKER_MASK
from tests.engine.refusal_kit import ENGINE, random_refusals, scan_source

# refusals random games reach every time (the rarer ones need a forced dealer or a joker
# at the lead: the source scan covers them)
COMMON = {"not_in_hand", "must_follow_suit", "not_a_card", "not_in_play", "not_a_call", "bid_too_low",
          "bid_out_of_range", "declare", "discard_two", "discard_one", "must_name_ranking",
          "must_name_trump", "keep_or_swap", "already_decided"}


def test_every_code_the_engine_raises_is_declared_and_every_declared_code_is_raised():
    codes, problems = scan_source()
    assert not problems, problems
    undeclared = {code: places for code, places in codes.items() if code not in REFUSALS}
    assert not undeclared, f"declare these reasons in engine/errors.py REFUSALS: {undeclared}"
    assert set(REFUSALS) == set(codes), f"declared but never raised: {set(REFUSALS) - set(codes)}"
    assert {"must_follow_suit", "not_in_hand", "bid_too_low", "keep_or_swap"} <= set(codes)


def test_each_raise_in_the_source_gives_the_params_its_code_declares():
    codes, _ = scan_source()
    wrong = [(code, place, keys) for code, places in codes.items() for place, keys in places
             if keys is not None and keys != set(REFUSALS[code])]
    assert not wrong, wrong


def test_the_scan_finds_a_new_code_and_a_hidden_one(tmp_path, monkeypatch):
    # the scan itself can fail: a new literal code, and a reason it cannot read
    source = tmp_path / "engine"
    source.mkdir()
    (source / "new.py").write_text(
        "def f(self, action, why):\n"
        "    raise self._refuse('no', 'S6.1', 'brand_new_reason', action)\n"
        "def g(self, action, why):\n"
        "    raise self._refuse('no', 'S6.1', why, action)\n", encoding="utf-8")
    import tests.engine.refusal_kit as kit
    monkeypatch.setattr(kit, "ENGINE", source)
    codes, problems = kit.scan_source()
    assert "brand_new_reason" in codes and "brand_new_reason" not in REFUSALS
    assert len(problems) == 1 and "new.py:4" in problems[0]


def test_random_games_of_every_preset_refuse_with_declared_codes_and_params():
    # rule S6.2 and every other refusal (S5-S7, B2-B4, Y1-Y3, R1, P1): whatever the games refuse
    found = random_refusals(seed=3, hands=2)
    seen = {exc.reason for exc in found}
    assert COMMON <= seen, COMMON - seen
    for exc in found:
        assert isinstance(exc, IllegalAction) and exc.rule and exc.detail
        assert exc.reason in REFUSALS, exc.reason
        assert set(exc.params) == set(REFUSALS[exc.reason]), (exc.reason, exc.params, exc.detail)
        assert all(v is None or isinstance(v, (str, int)) for v in exc.params.values()), exc.params


def test_the_engine_defines_its_refusals_in_one_place():
    # no other module of the engine keeps a table of reason codes
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "REFUSALS"
                                                    for t in node.targets):
                assert path.name == "errors.py", path


def test_a_revoke_in_a_no_trump_hand_holding_a_joker_is_named_a_revoke():
    """Dummy whist with jokers, no trump (Y3): a card refused because its hand holds the
    suit led is a revoke (S6.2, must_follow_suit) though the hand holds a joker; the jokers'
    rule (joker_in_no_trump) names only the cards that rule alone refuses."""
    rng = random.Random(5)
    variant = find_variant({"name": "dummy", "jokers": True})
    seen = set()
    for _ in range(60):
        game = variant.new_game(rng)
        game.deal(rng)
        while game.phase not in (Phase.SCORED, Phase.OVER, Phase.DEAL):
            legal = game.legal_actions()
            tp = getattr(game, "tricks", None)
            if game.phase == Phase.PLAY and tp.trump == NO_TRUMP and tp.hands[tp.turn] & JOKER_MASK:
                for card in cards_of(tp.hands[tp.turn]):
                    action = parse_action(card_str(card))
                    if action in legal:
                        continue
                    with pytest.raises(IllegalAction) as refused:
                        game.copy().apply(action)
                    plain_rules_allow = bool(tp.legal_mask() & BIT[card])
                    expected = "joker_in_no_trump" if plain_rules_allow else "must_follow_suit"
                    assert refused.value.reason == expected, (card_str(card), refused.value.detail)
                    seen.add(expected)
            game.apply(rng.choice(legal))
        if seen == {"joker_in_no_trump", "must_follow_suit"}:
            return
    raise AssertionError(f"no position found for both refusals, only {seen}")
