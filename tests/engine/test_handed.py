"""Classic whist for three and for two with open dummies (rule L12): the turned
trump (S5), the lead (S6.1), play for the dummy, scoring as for four (S7, L2-L6),
the dummy passing in turn; properties and whole games."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Phase, check_game, find_variant
from engine.cards import card_str, cards_of, parse_card
from engine.games import play_random
from engine.state import BadRecord
from engine.variants.handed import HandedOptions
from engine.variants.seating import DUMMY, dummies_opposite, dummy_opposite

from .kit import advance, assert_refuses_the_illegal, assert_replays, run_cli

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RANKS = "23456789TJQKA"


def suit(letter: str) -> list[str]:
    return [r + letter for r in RANKS]


THREE = {"N": suit("S"), "E": suit("H"), "S": suit("D"), DUMMY: suit("C")}
TWO = {"N": suit("S"), "E": suit("H"), "S": suit("D"), "W": suit("C")}


def game_with(name, hands, dealer="N", trump_card="2S", first_dealer=None, **options):
    variant = find_variant({"name": name, **options} if options else name)
    game = variant.new_game(first_dealer=first_dealer or dealer)
    game.start_deal({"dealer": dealer, "hands": hands, "trump_card": trump_card})
    return game


def play_out(game):
    while game.phase == Phase.PLAY:
        game.apply(game.legal_actions()[0])
    return game


# --- the seating (shared with dummy whist) ----------------------------------------------

def test_l12_seating_a_dummy_opposite_its_holder():
    seating = dummy_opposite(("N", "E", "S"), "E")
    assert seating.labels == ("E", "S", DUMMY, "N") and seating.players == ("E", "S", "E", "N")
    assert seating.dummies == (2,) and seating.side_name(0) == "E" and seating.side_name(1) == "S+N"
    two = dummies_opposite(("N", "E"), ("S", "W"))
    assert two.players == ("N", "E", "N", "E") and two.dummies == (2, 3)
    assert (two.side_name(0), two.side_name(1)) == ("N", "E")


# --- three players -------------------------------------------------------------------------

def test_l12_three_deal_turned_trump_and_the_dummy_open_before_the_lead():
    game = find_variant("three_handed").new_game(first_dealer="S")
    game.deal(random.Random(5))
    deal = game.deals[0]
    assert set(deal["hands"]) == {"N", "E", "S", DUMMY} and {len(h) for h in deal["hands"].values()} == {13}
    assert deal["trump_card"] in deal["hands"]["S"]          # S5: the dealer's last card
    assert game.view("E")["trump_card"] == deal["trump_card"]
    assert game.view("N")["open_hands"] == {DUMMY: sorted(deal["hands"][DUMMY], key=parse_card)}
    assert game.view("N")["dummy_holder"] == "S"             # the first dealer holds it first


def test_l12_dummy_exposed_after_the_opening_lead_option():
    game = game_with("three_handed", THREE, dummy_exposed="after_opening_lead")
    assert all(game.view(s)["open_hands"] == {} for s in "NES")
    game.apply("2H")
    assert game.view("S")["open_hands"] == {DUMMY: suit("C")}


def test_s6_1_left_of_the_dealer_leads_and_the_holder_plays_the_dummy():
    game = game_with("three_handed", THREE)
    order = []
    for _ in range(4):
        order.append(game.to_act)
        game.apply(game.legal_actions()[0])
    # holder N, dealer N: clockwise N, E, dummy, S; E leads, N plays the dummy
    assert order == ["E", "N", "S", "N"]
    assert [c["seat"] for c in game.view("E")["last_trick"]["cards"]] == ["E", DUMMY, "S", "N"]
    assert game.view("E")["last_trick"]["winner"] == "N"     # N's 2S is the only trump (S6.4)


def test_s5_the_turned_card_shows_until_the_dealer_plays():
    game = game_with("three_handed", THREE)
    game.apply("2H")
    game.apply("2C")
    game.apply("2D")
    assert game.view("E")["trump_card"] == "2S"
    game.apply("3S")
    assert game.view("E")["trump_card"] is None


def test_s5_a_turned_card_not_the_dealers_is_a_bad_deal():
    game = find_variant("three_handed").new_game(first_dealer="N")
    with pytest.raises(BadRecord) as err:
        game.start_deal({"dealer": "N", "hands": THREE, "trump_card": "2H"})
    assert err.value.rule == "S5"


def test_l12_scored_as_for_four_and_the_dummy_passes_on():
    game = play_out(game_with("three_handed", THREE))
    sheet = game.score()["games"][0]
    assert sheet["holder"] == "N" and sheet["games"][0]["below"] == {"N": 7, "E+S": 0}   # S7.1
    assert sheet["winner"] == "N" and sheet["value"] == 1
    assert game.score()["points"] == {"N": 2, "E": -1, "S": -1}   # against each opponent
    assert game.phase == Phase.SCORED and game.score()["games"][1]["holder"] == "E"
    game.start_deal({"dealer": "E", "hands": THREE, "trump_card": "2H"})
    assert game.view("N")["dummy_holder"] == "E"
    assert list(game.view("N")["seating"]) == ["E", "S", DUMMY, "N"]
    assert game.to_act == "S"                                  # left of the dealer E


def test_l12_a_session_is_three_games_and_the_top_wins():
    game = find_variant("three_handed").new_game(first_dealer="N")
    game.sheets, game.points = [object()] * 3, {"N": 2, "E": -1, "S": -1}
    assert game._session_over() and game.winner == "N"
    game.winner, game.points = None, {"N": 0, "E": 0, "S": 0}
    assert not game._session_over()                            # level: another round
    shared = find_variant({"name": "three_handed", "session_tie": "shared"}).new_game(first_dealer="N")
    shared.sheets, shared.points = [object()] * 3, {"N": 1, "E": 1, "S": -2}
    assert shared._session_over() and shared.winner == ["N", "E"]


def test_l12_options_are_checked():
    for bad in ({"rules": "drive"}, {"rules": "special_suit"}, {"players": 4}, {"rounds": 0},
                {"dummy_exposed": "never"}):
        with pytest.raises(ValueError):
            HandedOptions(**bad)


# --- two players ------------------------------------------------------------------------------

def test_l12_two_players_each_with_a_dummy_opposite():
    game = game_with("two_handed", TWO, dealer="E", trump_card="2H")
    assert game.view("N")["open_hands"] == {"S": suit("D"), "W": suit("C")}
    assert game.to_act == "N"            # left of E is S, N's dummy: N leads from it
    assert {str(a) for a in game.legal_actions()} == set(suit("D"))
    play_out(game)
    score = game.score()
    # E holds every trump and wins every trick after the first
    assert score["games"][0]["games"][0]["below"] == {"N": 0, "E": 7}
    assert score["winner"] == "E" and game.phase == Phase.OVER


def test_l12_two_handed_by_the_russian_rules_counts_honours():
    game = game_with("two_handed", TWO, dealer="E", trump_card="2H", first_dealer="E", rules="russian")
    play_out(game)
    first = game.score()["games"][0]["games"][0]
    assert first["below"] == {"N": 0, "E": 14} and first["above"]["E"] >= 4   # L4, L5


# --- properties -------------------------------------------------------------------------------

PRESETS = ["three_handed", "two_handed", {"name": "three_handed", "dummy_exposed": "after_opening_lead"},
           {"name": "three_handed", "rules": "russian"}]




def cards_in(value) -> set:
    if isinstance(value, dict):
        return set().union(set(), *(cards_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(cards_in(v) for v in value))
    if isinstance(value, str):
        try:
            return {parse_card(value)}
        except ValueError:
            return set()
    return set()


@FAST
@given(st.sampled_from(range(len(PRESETS))), st.integers(0, 10**6), st.integers(1, 200))
def test_views_never_show_the_dummy_before_it_is_faced_nor_another_hand(which, seed, steps):
    game, _ = advance(PRESETS[which], seed, steps)
    if not game.deals:
        return
    tp, seating = game.tricks, game.seating
    dummy = set().union(*(cards_of(tp.hands[p]) for p in seating.dummies))
    for seat in game.variant.seats:
        view = game.view(seat)
        seen = cards_in({k: v for k, v in view.items() if k not in ("score", "legal", "trump_card")})
        for other in game.variant.seats:
            if other != seat:
                assert not seen & set(cards_of(tp.hands[seating.own_position(other)]))
        if game.faced:
            assert cards_in(view["open_hands"]) == dummy
        else:
            assert view["open_hands"] == {} and not seen & dummy
        if view["to_act"] == seat:
            assert cards_in(view["legal"]) <= set(cards_of(tp.hands[tp.turn]))
            assert seating.player(tp.turn) == seat
        else:
            assert view["legal"] == []


@FAST
@given(st.sampled_from(range(len(PRESETS))), st.integers(0, 10**6), st.integers(1, 200))
def test_cards_are_conserved(which, seed, steps):
    game, _ = advance(PRESETS[which], seed, steps)
    if game.deals:
        tp = game.tricks
        assert sorted(cards_of(sum(tp.hands)) + tuple(tp.plays)) == list(range(52))


@FAST
@given(st.sampled_from(range(len(PRESETS))), st.integers(0, 10**6), st.integers(1, 200),
       st.integers(0, 10**6))
def test_only_legal_actions_are_accepted(which, seed, steps, pick):
    game, _ = advance(PRESETS[which], seed, steps)
    if game.phase != Phase.PLAY:
        return
    candidates = [card_str(c) for c in range(52)] + ["pass", "1 uptown", "trump H", "swap"]
    assert_refuses_the_illegal(game, candidates, pick)


@FAST
@given(st.sampled_from(range(len(PRESETS))), st.integers(0, 10**6), st.integers(0, 500))
def test_scores_settle_to_zero_and_replay_is_the_same_game(which, seed, steps):
    game, _ = advance(PRESETS[which], seed, steps)
    score = game.score()
    if "points" in score:
        assert sum(score["points"].values()) == 0      # each opponent pays the holder or is paid
        done = [g for g in score["games"] if g["winner"] is not None]
        assert len(done) in (len(score["games"]), len(score["games"]) - 1)
    assert (game.phase == Phase.OVER) == (score["winner"] is not None)
    assert_replays(game)


# --- whole games through the command line ---------------------------------------------------



@pytest.mark.parametrize("name", ["three_handed", "two_handed"])
def test_whole_games_are_accepted_by_check(name):
    for seed in range(30):
        record = json.loads(run_cli("play", "--rules", name, "--seed", str(seed), "--json"))
        answer = check_game(record)
        assert answer["valid"] and answer["complete"], (seed, answer)
        assert answer["score"]["winner"] in ("N", "E", "S")


def test_whole_sessions_by_rubbers_are_accepted_by_check():
    variant = find_variant({"name": "three_handed", "rules": "long"})
    for seed in range(5):
        rng = random.Random(seed)
        record = json.loads(json.dumps(play_random(variant.new_game(rng), rng).record()))
        answer = check_game(record)
        assert answer["valid"] and answer["complete"]
        holders = [g["holder"] for g in answer["score"]["games"]]
        assert len(holders) % 3 == 0 and holders[:3] in (["N", "E", "S"], ["E", "S", "N"], ["S", "N", "E"])
