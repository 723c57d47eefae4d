"""Dummy whist (rules Y1-Y5) and Double dummy (Y6): auction, the dummy faced,
declaration, play for the dummy, scoring to 21; properties and whole games."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import IllegalAction, Phase, check_game, find_variant
from engine.cards import BIT, card_str, cards_of, parse_card
from engine.games import play_random
from engine.variants.dummy import DummyOptions, contract_points, game_winner
from engine.variants.seating import DUMMY

from .kit import advance, assert_refuses_the_illegal, assert_replays, cards_in, run_cli

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SUITS = "SHDC"
RANKS = "23456789TJQKA"


def suit(letter: str, ranks: str = RANKS) -> list[str]:
    return [r + letter for r in ranks]


# Every hand one whole suit: N spades, E hearts, S diamonds, the dummy clubs.
ONE_SUIT_EACH = {"N": suit("S"), "E": suit("H"), "S": suit("D"), DUMMY: suit("C")}


def game_with(hands, dealer="N", name="dummy", **options):
    variant = find_variant({"name": name, **options} if options else name)
    game = variant.new_game(first_dealer=dealer)
    game.start_deal({"dealer": dealer, "hands": hands})
    return game


def act(game, *actions):
    for a in actions:
        game.apply(a)
    return game


def refused(game, action):
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    return err.value


# --- Y1, Y2: deal and auction ------------------------------------------------------

def test_y1_three_players_thirteen_each_and_a_dummy_of_thirteen():
    game = find_variant("dummy").new_game(random.Random(1))
    game.deal(random.Random(1))
    hands = game.deals[0]["hands"]
    assert set(hands) == {"N", "E", "S", DUMMY} and {len(h) for h in hands.values()} == {13}
    assert "trump_card" not in game.deals[0]    # Y3: trump is named, never turned


def test_y1_with_jokers_the_dummy_gets_fifteen():
    game = find_variant({"name": "dummy", "jokers": True}).new_game(random.Random(2))
    game.deal(random.Random(2))
    hands = game.deals[0]["hands"]
    assert len(hands[DUMMY]) == 15 and sum(len(h) for h in hands.values()) == 54


def test_y2_auction_runs_from_the_dealers_left_to_the_dealer_once_each():
    game = game_with(ONE_SUIT_EACH, dealer="E")
    order = []
    for call in ("1 uptown", "pass", "2 uptown"):
        order.append(game.to_act)
        game.apply(call)
    assert order == ["S", "N", "E"]
    assert game.declarer == "E" and str(game.contract) == "2 uptown"


def test_y2_the_dealer_must_bid_after_two_passes():
    game = act(game_with(ONE_SUIT_EACH), "pass", "pass")
    assert "pass" not in {str(a) for a in game.legal_actions()}
    assert refused(game, "pass").rule == "Y2"
    game.apply("1 uptown")
    assert game.declarer == "N"


def test_y2_forced_dealer_min_only_option():
    game = act(game_with(ONE_SUIT_EACH, forced_dealer_min_only=True), "pass", "pass")
    assert {str(a) for a in game.legal_actions()} == {"1 uptown", "1 downtown"}


def test_y2_no_minimum_bid_and_zero_only_by_option():
    game = game_with(ONE_SUIT_EACH)
    legal = {str(a) for a in game.legal_actions()}
    assert "1 uptown" in legal and "0 uptown" not in legal and "7 NT" in legal
    assert "0 uptown" in {str(a) for a in game_with(ONE_SUIT_EACH, zero_bid=True).legal_actions()}


def test_y2_no_trump_beats_a_trump_bid_of_the_same_number_and_more_books_beat_fewer():
    game = act(game_with(ONE_SUIT_EACH), "3 downtown")
    legal = {str(a) for a in game.legal_actions()}
    assert "3 NT" in legal and "4 uptown" in legal
    assert "3 uptown" not in legal and "3 downtown" not in legal and "2 NT" not in legal
    game.apply("3 NT")
    assert "4 uptown" in {str(a) for a in game.legal_actions()}
    assert refused(game, "3 NT").reason == "bid_too_low"


def test_y2_downtown_beats_uptown_by_default_or_is_equal_by_option():
    game = act(game_with(ONE_SUIT_EACH), "3 uptown")
    assert "3 downtown" in {str(a) for a in game.legal_actions()}
    equal = act(game_with(ONE_SUIT_EACH, downtown_beats_uptown=False), "3 uptown")
    assert refused(equal, "3 downtown").rule == "Y2"
    down = act(game_with(ONE_SUIT_EACH), "3 downtown")
    assert "3 uptown" not in {str(a) for a in down.legal_actions()}   # never beats downtown


# --- Y1, Y3: the dummy faced, the declaration, play -----------------------------------

def test_y1_the_dummy_is_hidden_during_the_auction_and_faced_after_it():
    game = game_with(ONE_SUIT_EACH)
    assert all(game.view(s)["open_hands"] == {} for s in "NES")
    act(game, "pass", "pass", "1 uptown")
    assert game.phase == Phase.AUCTION and game.to_act == "N"      # the declaration is due
    assert all(game.view(s)["open_hands"] == {DUMMY: suit("C")} for s in "NES")


def test_y3_declarer_names_trump_for_a_trump_bid_and_the_ranking_for_no_trump():
    game = act(game_with(ONE_SUIT_EACH), "pass", "pass", "1 downtown")
    assert {str(a) for a in game.legal_actions()} == {"trump S", "trump H", "trump D", "trump C"}
    assert refused(game, "uptown").rule == "Y3"
    game.apply("trump H")
    assert game.view("E")["trump"] == "H" and game.view("E")["ranking"] == "downtown"
    nt = act(game_with(ONE_SUIT_EACH), "pass", "pass", "2 NT")
    assert {str(a) for a in nt.legal_actions()} == {"uptown", "downtown"}
    nt.apply("downtown")
    assert nt.view("S")["trump"] == "NT" and nt.view("S")["ranking"] == "downtown"


def test_y3_dummy_opposite_the_declarer_who_leads_and_plays_it():
    game = act(game_with(ONE_SUIT_EACH, dealer="E"), "pass", "1 uptown", "pass", "trump C")
    # declarer N: clockwise N, E (next player), the dummy, S (the third)
    assert list(game.view("E")["seating"].items()) == [("N", "N"), ("E", "E"), (DUMMY, "N"), ("S", "S")]
    assert game.to_act == "N"                              # Y3: the declarer leads
    order = []
    for _ in range(4):
        order.append(game.to_act)
        game.apply(str(game.legal_actions()[0]))
    assert order == ["N", "E", "N", "S"]
    last = game.view("S")["last_trick"]
    assert [c["seat"] for c in last["cards"]] == ["N", "E", DUMMY, "S"]
    assert last["winner"] == DUMMY                         # the dummy's club trumps (S6.4)
    assert game.to_act == "N" and {str(a) for a in game.legal_actions()} <= set(suit("C"))


def test_y3_the_declarer_may_not_play_his_own_card_when_the_dummy_is_to_play():
    game = act(game_with(ONE_SUIT_EACH), "pass", "pass", "1 uptown", "trump C", "2S", "2H")
    assert game.to_act == "N"
    err = refused(game, "3S")
    assert err.reason == "not_in_hand"


def test_y4_boston_on_a_one_bid_scores_seven_and_no_more():
    game = act(game_with(ONE_SUIT_EACH), "pass", "pass", "1 uptown", "trump C")
    while game.phase == Phase.PLAY:
        game.apply(game.legal_actions()[0])
    result = game.score()["hands"][0]
    assert result["books"] == 13 and result["boston"] and result["made"]
    assert game.score()["totals"] == {"N": 7, "E": 0, "S": 0}
    assert game.phase == Phase.SCORED and game.score()["winner"] is None


# --- jokers (Y1, Y3) -----------------------------------------------------------------

JOKER_HANDS = {"N": suit("S"), "E": suit("H", "3456789TJQKA") + ["LJ"], "S": suit("D"),
               DUMMY: suit("C") + ["2H", "BJ"]}


def test_y1_declarer_discards_two_from_the_dummy_before_it_is_faced():
    game = act(game_with(JOKER_HANDS, jokers=True), "pass", "pass", "1 NT")
    assert game.phase == Phase.EXCHANGE and game.to_act == "N"
    assert all(game.view(s)["open_hands"] == {} for s in "NES")
    assert "dummy_to_discard" in game.view("N") and "dummy_to_discard" not in game.view("E")
    assert refused(game, "discard 2H 2S").rule == "Y1"      # 2S is not the dummy's
    game.apply("discard 2H BJ")
    assert game.view("E")["open_hands"] == {DUMMY: suit("C")}
    assert game.view("N")["discards"] == ["2H", "BJ"] and "discards" not in game.view("E")


def test_y3_a_joker_must_be_played_the_first_time_void_in_no_trump():
    game = act(game_with(JOKER_HANDS, jokers=True), "pass", "pass", "1 NT", "discard 2H BJ",
               "uptown", "AS")
    assert [str(a) for a in game.legal_actions()] == ["LJ"]
    assert refused(game, "AH").rule == "Y3"
    dead = act(game_with(JOKER_HANDS, jokers=True, nt_joker="dead"), "pass", "pass", "1 NT",
               "discard 2H BJ", "uptown", "AS")
    assert len(dead.legal_actions()) == 13


def test_y3_a_joker_is_led_in_no_trump_only_with_nothing_else():
    game = act(game_with(JOKER_HANDS, jokers=True), "1 NT", "pass", "pass", "discard 2H BJ", "uptown")
    assert game.to_act == "E" and "LJ" not in {str(a) for a in game.legal_actions()}
    free = act(game_with(JOKER_HANDS, jokers=True, nt_joker_lead="allowed"), "1 NT", "pass", "pass",
               "discard 2H BJ", "uptown")
    assert "LJ" in {str(a) for a in free.legal_actions()}


def test_y3_jokers_are_the_top_trumps():
    game = act(game_with(JOKER_HANDS, jokers=True), "pass", "pass", "1 uptown", "discard 2H 2C",
               "trump H", "AS", "LJ")
    game.apply(game.legal_actions()[-1])    # the dummy's best: the big joker is the dummy's
    game.apply(game.legal_actions()[0])
    assert game.view("N")["last_trick"]["winner"] == DUMMY    # BJ over LJ (Y3, B3)


# --- Y4: scoring and the game ----------------------------------------------------------

OPTS = DummyOptions()


@pytest.mark.parametrize("level,strain,books,expected", [
    (5, "uptown", 10, (False, 0, 5)),     # set: each opponent scores the bid
    (5, "uptown", 11, (True, 5, 0)),      # made: every book over six
    (5, "uptown", 12, (True, 6, 0)),      # overtricks count (seed's note)
    (4, "NT", 10, (True, 8, 0)),          # no trump doubles
    (4, "NT", 9, (False, 0, 8)),
    (7, "downtown", 13, (True, 14, 0)),   # the Boston bid doubles
    (1, "uptown", 13, (True, 7, 0)),      # Boston on a low bid: no bonus
    (7, "NT", 12, (False, 0, 14)),        # 7 NT doubled once
])
def test_y4_worked_examples(level, strain, books, expected):
    assert contract_points(level, strain, books, OPTS) == expected


def test_y4_options_for_doubling():
    assert contract_points(7, "NT", 13, DummyOptions(double_stack="multiply")) == (True, 28, 0)
    assert contract_points(4, "NT", 10, DummyOptions(nt_double=False)) == (True, 4, 0)
    assert contract_points(7, "uptown", 6, DummyOptions(boston_bid_double=False)) == (False, 0, 7)
    assert contract_points(2, "uptown", 13, DummyOptions(boston_bonus=True)) == (True, 14, 0)


def test_y4_game_to_21_and_two_there_at_once():
    assert game_winner({"N": 20, "E": 3, "S": 0}, OPTS) is None
    assert game_winner({"N": 21, "E": 3, "S": 0}, OPTS) == "N"
    assert game_winner({"N": 21, "E": 22, "S": 10}, OPTS) == "E"      # seed example: 18, 19 +3
    assert game_winner({"N": 23, "E": 23, "S": 10}, OPTS) is None     # equal: play on
    assert game_winner({"N": 23, "E": 23, "S": 10}, DummyOptions(tie="shared")) == ["N", "E"]
    assert game_winner({"N": 15, "E": 3}, DummyOptions(target=15)) == "N"


# --- Y6: double dummy ---------------------------------------------------------------------

DD_HANDS = {"N": suit("S"), "E": suit("H"), "S": suit("D"), "W": suit("C")}


def test_y6_two_players_bid_once_each_and_the_dealer_is_forced():
    game = game_with(DD_HANDS, dealer="N", name="double_dummy")
    assert game.to_act == "E"
    game.apply("pass")
    assert refused(game, "pass").reason == "dealer_must_bid"
    game.apply("2 uptown")
    assert game.view("E")["open_hands"] == {"S": suit("D"), "W": suit("C")}
    game.apply("trump D")
    assert game.to_act == "N"
    order = []
    for _ in range(4):
        order.append(game.to_act)
        game.apply(game.legal_actions()[0])
    assert order == ["N", "E", "N", "E"]


def test_y6_the_one_opponent_scores_a_set():
    game = act(game_with(DD_HANDS, dealer="N", name="double_dummy"), "pass", "7 uptown", "trump H")
    while game.phase == Phase.PLAY:
        game.apply(game.legal_actions()[0])
    # E holds every trump, N's side can win only with its spades and diamonds led
    result = game.score()["hands"][0]
    assert not result["made"] and game.score()["totals"] == {"N": 0, "E": 14}


def test_y6_classic_mode_is_two_handed_whist():
    variant = find_variant({"name": "double_dummy", "double_dummy_mode": "classic"})
    game = variant.new_game(first_dealer="N")
    game.deal(random.Random(4))
    assert "trump_card" in game.deals[0] and game.phase == Phase.PLAY
    assert game.to_act == "E" and set(game.view("N")["open_hands"]) == {"S", "W"}


# --- properties -------------------------------------------------------------------------

PRESETS = ["dummy", "double_dummy", {"name": "dummy", "jokers": True},
           {"name": "dummy", "jokers": True, "nt_joker": "dead"}]






def dummy_cards(game) -> int:
    return sum(game.dummy_hands.values()) if game.tricks is None else sum(
        game.tricks.hands[p] for p in game.seating.dummies)


def held(game, seat) -> int:
    if game.tricks is None:
        return game.dealt[seat]
    return game.tricks.hands[game.seating.own_position(seat)]


@FAST
@given(st.sampled_from(range(len(PRESETS))), st.integers(0, 10**6), st.integers(1, 90))
def test_views_never_show_the_dummy_before_it_is_faced_nor_another_hand(which, seed, steps):
    game, _ = advance(PRESETS[which], seed, steps)
    if not game.deals:
        return
    seats = game.variant.seats
    for seat in seats:
        view = game.view(seat)
        seen = cards_in({k: v for k, v in view.items() if k not in ("score", "legal")})
        for other in seats:
            if other != seat:
                assert not seen & set(cards_of(held(game, other))), (seat, other)
        private = {"dummy_to_discard", "discards"}
        public = cards_in({k: v for k, v in view.items() if k not in private | {"score", "legal"}})
        if not game.faced:
            assert view["open_hands"] == {} and not public & set(cards_of(dummy_cards(game)))
        else:
            assert cards_in(view["open_hands"]) == set(cards_of(dummy_cards(game)))
        if seat != game.declarer:
            assert not seen & set(cards_of(game.discards))
        if view["to_act"] != seat:
            assert view["legal"] == []
        elif game.phase == Phase.PLAY:
            assert cards_in(view["legal"]) <= set(cards_of(game.tricks.hands[game.tricks.turn]))


@FAST
@given(st.sampled_from(range(len(PRESETS))), st.integers(0, 10**6), st.integers(1, 120))
def test_cards_are_conserved(which, seed, steps):
    game, _ = advance(PRESETS[which], seed, steps)
    if not game.deals:
        return
    dealt = sorted(parse_card(c) for h in game.deals[-1]["hands"].values() for c in h)
    if game.tricks is None:
        now = sorted(cards_of(sum(game.dealt[s] for s in game.variant.seats) | dummy_cards(game)
                              | game.discards))
    else:
        now = sorted(cards_of(sum(game.tricks.hands) | game.discards) + tuple(game.tricks.plays))
    assert now == dealt


@FAST
@given(st.sampled_from(range(len(PRESETS))), st.integers(0, 10**6), st.integers(1, 120),
       st.integers(0, 10**6))
def test_only_legal_actions_are_accepted(which, seed, steps, pick):
    game, _ = advance(PRESETS[which], seed, steps)
    if game.phase not in (Phase.AUCTION, Phase.EXCHANGE, Phase.PLAY):
        return
    candidates = [card_str(c) for c in range(54)] + ["pass", "1 uptown", "3 downtown", "7 NT",
                                                      "trump S", "uptown", "discard 2C", "keep"]
    assert_refuses_the_illegal(game, candidates, pick)


@FAST
@given(st.sampled_from(range(len(PRESETS))), st.integers(0, 10**6), st.integers(0, 400))
def test_scores_follow_y4_and_replay_is_the_same_game(which, seed, steps):
    game, _ = advance(PRESETS[which], seed, steps)
    score = game.score()
    totals = {s: 0 for s in game.variant.seats}
    for hand in score["hands"]:
        made, mine, theirs = contract_points(int(hand["bid"].split()[0]), hand["bid"].split()[1],
                                             hand["books"], game.options)
        assert made == hand["made"]
        for s in totals:
            pts = mine if s == hand["declarer"] else theirs
            assert hand["points"][s] == pts
            totals[s] += pts
        assert (hand["made"] and all(p == 0 for s, p in hand["points"].items() if s != hand["declarer"])
                or not hand["made"] and hand["points"][hand["declarer"]] == 0)
    assert score["totals"] == totals
    assert (game.phase == Phase.OVER) == (score["winner"] is not None)
    if score["winner"] is not None:
        assert totals[score["winner"]] >= 21 and totals[score["winner"]] == max(totals.values())
    assert_replays(game)


# --- whole games through the command line -----------------------------------------------------



@pytest.mark.parametrize("name", ["dummy", "double_dummy"])
def test_whole_games_are_accepted_by_check(name):
    for seed in range(40):
        record = json.loads(run_cli("play", "--rules", name, "--seed", str(seed), "--json"))
        answer = check_game(record)
        assert answer["valid"] and answer["complete"], (seed, answer)
        assert max(answer["score"]["totals"].values()) >= 21


def test_whole_games_with_jokers_and_options_are_accepted_by_check():
    # the command line plays presets; games with options are played the same way in-process
    variant = find_variant({"name": "dummy", "jokers": True, "downtown_beats_uptown": False,
                            "tie": "shared", "target": 15})
    for seed in range(15):
        rng = random.Random(seed)
        record = json.loads(json.dumps(play_random(variant.new_game(rng), rng).record()))
        assert record["rules"]["jokers"] is True
        answer = json.loads(json.dumps(check_game(record)))
        assert answer["valid"] and answer["complete"], (seed, answer)
        dummy_deal = record["deals"][0]["hands"][DUMMY]
        assert len(dummy_deal) == 15


def test_a_damaged_record_is_refused_with_the_rule():
    record = json.loads(run_cli("play", "--rules", "dummy", "--seed", "3", "--json"))
    record["deals"][0]["actions"][0] = "8 uptown"
    answer = check_game(record)
    assert not answer["valid"] and answer["error"]["rule"] == "Y2"
    bad = json.loads(run_cli("play", "--rules", "dummy", "--seed", "3", "--json"))
    bad["deals"][0]["hands"][DUMMY] = bad["deals"][0]["hands"][DUMMY][:12]
    assert check_game(bad)["error"]["reason"] == "bad_deal"


def test_bit_masks_agree_with_the_cards():   # the helpers above read masks directly
    assert BIT[parse_card("AS")] == 1 << 12
