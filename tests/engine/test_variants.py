"""Every preset in the registry on the one game-state interface: the command
line's contract, whole games accepted by ``check``, replay, hidden cards, and
refused actions leaving the state untouched. Each variant's own rules are
tested in its own file; these hold for all of them."""

import ast
import pathlib
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import EngineError, VARIANTS, check_game, find_variant
from engine.cards import card_str, parse_card
from engine.games import play_random

from .kit import advance, assert_refuses_the_illegal, assert_replays, cards_in, run_cli

NAMES = sorted(VARIANTS)
# The presets issue 12 names, alongside the classic ones.
REQUIRED = ("short", "drive", "long", "russian", "no_trump", "three_handed", "two_handed",
            "prussian", "humbug", "humburg", "bid", "bid_min3", "dummy", "double_dummy",
            "siberian", "siberian_200")
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OTHER_ACTIONS = ("pass", "1 uptown", "4 downtown", "7 NT", "S", "H", "NT", "trump H", "uptown",
                 "downtown", "keep", "swap")




def test_variants_json_lists_every_preset_exactly():
    rows = json.loads(run_cli("variants", "--json"))
    assert [r["name"] for r in rows] == list(VARIANTS)
    for row in rows:
        assert set(row) == {"name", "players", "seats", "rules"}
        assert row["players"] == len(row["seats"]) and set(row["seats"]) <= set("NESW")
        assert row["rules"]
    assert set(REQUIRED) <= {r["name"] for r in rows}


def test_bid_row_as_the_issue_gives_it():
    rows = {r["name"]: r for r in json.loads(run_cli("variants", "--json"))}
    assert rows["bid"] == {"name": "bid", "players": 4, "seats": ["N", "E", "S", "W"], "rules": "B1-B5"}


@pytest.mark.parametrize("name", NAMES)
def test_play_ends_a_whole_game_and_check_accepts_it(name):
    for seed in range(6):
        record = json.loads(run_cli("play", "--rules", name, "--seed", str(seed), "--json"))
        assert record["rules"] == name
        answer = json.loads(run_check(record))
        assert answer["valid"] and answer["complete"], (seed, answer)
        assert answer["score"]["winner"] is not None


def run_check(record) -> str:
    return json.dumps(check_game(record))


@pytest.mark.parametrize("name", NAMES)
def test_play_is_the_same_for_the_same_seed(name):
    assert run_cli("play", "--rules", name, "--seed", "11", "--json") == \
        run_cli("play", "--rules", name, "--seed", "11", "--json")




def hidden_cards(game, seat) -> set:
    """Cards another player holds unseen: their own hand in their view."""
    return {parse_card(c) for other in game.variant.seats if other != seat
            for c in game.view(other).get("hand", [])}




@pytest.mark.parametrize("name", NAMES)
@FAST
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120))
def test_views_never_show_another_players_hidden_cards(name, seed, steps):
    game, _ = advance(name, seed, steps)
    views = {seat: game.view(seat) for seat in game.variant.seats}
    shown = [json.dumps(v.get("open_hands", {}), sort_keys=True) for v in views.values()]
    assert len(set(shown)) == 1, "what lies open is the same for everyone"
    for seat, view in views.items():
        # the turned trump card is the dealer's and shows to all until played (S5)
        seen = cards_in({k: v for k, v in view.items() if k not in ("score", "trump_card")})
        assert not seen & hidden_cards(game, seat), (seat, view)
        if view["to_act"] != seat:
            assert view["legal"] == []


@pytest.mark.parametrize("name", NAMES)
@FAST
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 150), pick=st.integers(0, 10**6))
def test_refused_actions_raise_with_a_rule_and_change_nothing(name, seed, steps, pick):
    game, _ = advance(name, seed, steps)
    candidates = [card_str(c) for c in range(54)] + list(OTHER_ACTIONS)
    assert_refuses_the_illegal(game, candidates, pick)


@pytest.mark.parametrize("name", NAMES)
@FAST
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 400))
def test_replay_of_the_record_is_the_same_game(name, seed, steps):
    game, _ = advance(name, seed, steps)
    assert_replays(game)
    twin = game.copy()
    assert twin == game


@pytest.mark.parametrize("name", NAMES)
def test_a_record_is_a_copy_the_game_does_not_share(name):
    """What a caller does to a record (a server keeps it on the table's row) changes
    neither the game nor the next record it gives."""
    game, _ = advance(name, 5, 30)
    before = json.dumps(game.record(), sort_keys=True)
    record = game.record()
    for deal in record["deals"]:
        deal["actions"].append("AS")
        for cards in deal["hands"].values():
            cards.clear()
        deal["dealer"] = "X"
    assert json.dumps(game.record(), sort_keys=True) == before
    assert_replays(game)


@pytest.mark.parametrize("name", NAMES)
def test_a_copy_in_play_offers_its_own_cards(name):
    """While a hand is played, a state offers its trick core's legal cards: a copy
    offers its own core's, so playing on in the copy changes nothing the original
    offers, and the copy's finished hand hands the next phase its own actions."""
    rng = random.Random(11)
    game = find_variant(name).new_game(rng)
    game.deal(rng)
    while game.phase != "play" or len(game.deals[-1]["actions"]) < 9:
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    before = list(game.legal_actions())
    twin = game.copy()
    assert list(twin.legal_actions()) == before
    twin.apply(before[0])
    after = list(twin.legal_actions())
    assert after and after != before and list(game.legal_actions()) == before
    while twin.phase == "play":
        twin.apply(twin.legal_actions()[0])
    assert twin.phase in ("scored", "over") and list(twin.legal_actions()) == []
    if twin.phase == "scored":          # the next hand offers its own first actions
        twin.deal(random.Random(5))
        assert twin.legal_actions() and twin.to_act is not None
    assert list(game.legal_actions()) == before
    game.apply(before[-1])
    assert list(game.legal_actions()) != before


@pytest.mark.parametrize("name", NAMES)
def test_cards_are_conserved_through_a_game(name):
    game = play_random(find_variant(name).new_game(random.Random(3)), random.Random(3))
    for deal in game.deals:
        dealt = [parse_card(c) for packet in deal["hands"].values() for c in packet]
        assert sorted(dealt) in (list(range(52)), list(range(54))), "the whole pack, each card once"


def test_every_engine_error_is_an_engine_error():
    errors = [obj for obj in vars(engine).values()
              if isinstance(obj, type) and issubclass(obj, Exception)]
    assert errors and all(issubclass(e, EngineError) for e in errors)


def test_unknown_rules_name_the_presets():
    with pytest.raises(EngineError, match="presets: short"):
        find_variant("whist_of_atlantis")


def test_the_engine_raises_only_engine_errors():
    # every ``raise`` in engine/ names an EngineError subclass, never a bare builtin
    builtins = {"ValueError", "TypeError", "KeyError", "Exception", "RuntimeError",
                "IndexError", "AssertionError"}
    root = pathlib.Path(engine.__file__).parent
    found = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                name = getattr(node.exc.func, "id", None)
                if name in builtins:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {name}")
    assert not found
