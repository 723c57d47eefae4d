"""Prussian whist, Humbug and Humburg (rules P1-P3; their open points: docs/engine.md)."""

import contextlib
import io
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import cli
from engine.actions import KEEP, SWAP, parse_action
from engine.cards import NO_TRUMP, card_str, cards_of
from engine.errors import EngineError, IllegalAction
from engine.games import check_game, play_random, replay_game
from engine.rules import RulesError
from engine.state import BadRecord, Phase, packets_json
from engine.variants import VARIANTS, find_variant
from engine.variants.prussian_scoring import (TwoHandOptions, hand_score, honours_held,
                                              honours_points, sheet_rules)

from .kit import hand

PRESETS = ("prussian", "humbug", "humburg")
FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# One whole suit a packet: N spades, E hearts, S diamonds, W clubs.
SUITS = {"N": "AKQJT98765432...", "E": ".AKQJT98765432..",
         "S": "..AKQJT98765432.", "W": "...AKQJT98765432"}


def deal(packets=SUITS, dealer="N", turned="2S", **extra) -> dict:
    raw = {"dealer": dealer, "hands": packets_json({k: hand(v) for k, v in packets.items()})}
    return raw | ({"trump_card": turned} if turned else {}) | extra


def start(name="prussian", raw=None, **options):
    variant = find_variant({"name": name, **options} if options else name)
    raw = raw or deal()
    game = variant.new_game(first_dealer=raw["dealer"])
    game.start_deal(raw)
    return game


def act(game, *texts):
    for t in texts:
        game.apply(t)
    return game


def play_out(game, rng=None):
    rng = rng or random.Random(0)
    while game.phase == Phase.PLAY:
        game.apply(rng.choice(game.legal_actions()))
    return game


# --- presets and options ----------------------------------------------------------

def test_presets_are_two_players_opposite():
    # rule P1: two players sit opposite each other, N and S
    for name in PRESETS:
        v = VARIANTS[name]
        assert v.seats == ("N", "S") and v.players == 2 and v.rules.startswith("P1")
    assert VARIANTS["prussian"].options == TwoHandOptions()
    hb = VARIANTS["humbug"].options
    assert (hb.honours, hb.game_bonus, hb.rubber_bonus) == ("humbug", 5, 10)
    assert not hb.keep_multiplier
    assert VARIANTS["humburg"].options.keep_multiplier  # rule P3


def test_defaults_are_the_specs():
    # spec section 7, points 20, 23, 26, 27, 29, 30, 31
    o = TwoHandOptions()
    # point 23 follows seed 001's text since issue 23 (it was "score"): rule P1, seed 001
    assert (o.swap_order, o.prussian_two_vs_none) == ("elder_first", "no_score")
    assert o.two_hand_count == "russian"
    assert (o.game_bonus, o.rubber_bonus, o.target, o.slams, o.rubbers) == (0, 20, 10, True, True)
    assert not (o.humbug_no_trump or o.humburg_multiply_bonuses or o.reveal_dead_after_hand)


@pytest.mark.parametrize("change", [{"swap_order": "later"}, {"honours": "bridge"},
                                    {"target": 12}, {"rubber_bonus": -1}, {"no_such": 1},
                                    {"prussian_two_vs_none": "maybe"}, {"slams": "yes"}])
def test_bad_options_are_refused(change):
    # rule S9: options are fixed before play, from their allowed values
    with pytest.raises(RulesError):
        find_variant({"name": "prussian", **change})


# --- the deal (P1, S5) ---------------------------------------------------------------

def test_four_packets_of_13_and_the_dealers_last_card_turned():
    # rules P1, S5: four packets N E S W; the dealer's last card is turned for trump
    for seed in range(20):
        g = find_variant("prussian").new_game(random.Random(seed))
        g.deal(random.Random(seed))
        raw = g.deals[0]
        assert sorted(raw["hands"]) == ["E", "N", "S", "W"]
        assert all(len(cards) == 13 for cards in raw["hands"].values())
        assert raw["trump_card"] in raw["hands"][raw["dealer"]]
        assert g.view("N")["trump"] == raw["trump_card"][-1]


def test_humbug_without_trumps_turns_no_card():
    # rule P2: "may be played without trumps": no card is turned
    g = find_variant({"name": "humbug", "humbug_no_trump": True}).new_game(first_dealer="S")
    g.deal(random.Random(3))
    assert g.deals[0]["trump"] == "NT" and "trump_card" not in g.deals[0]
    assert g.view("N")["trump"] == "NT" and g.view("N")["trump_card"] is None


@pytest.mark.parametrize("raw, rule", [
    (deal(turned="2H"), "S5"),                       # the turned card is not the dealer's
    (deal(turned=None), "S5"),                       # no turned card
    (deal(turned="ZZ"), "S5"),
    (deal(trump="S"), "S5"),                         # trump is the turned card's suit
    (deal(packets={**SUITS, "E": "A.KQJT98765432.."}), "S2"),   # AS dealt twice
])
def test_bad_deals_are_refused(raw, rule):
    g = find_variant("prussian").new_game(first_dealer="N")
    with pytest.raises(BadRecord) as exc:
        g.start_deal(raw)
    assert exc.value.rule == rule and g.phase == Phase.DEAL


def test_no_trump_deal_may_not_turn_a_card():
    # rule P2: Humbug without trumps turns no card
    g = find_variant({"name": "humbug", "humbug_no_trump": True}).new_game(first_dealer="N")
    with pytest.raises(BadRecord) as exc:
        g.start_deal(deal())
    assert exc.value.rule == "P2"


def test_the_deal_alternates():
    # rule S3: the deal passes to the other player after each hand
    g = play_out(act(start(), "keep", "keep"))
    assert g.phase in (Phase.SCORED, Phase.OVER) and g._next_dealer() == "S"


# --- keep or swap (P1, P2, P3) ---------------------------------------------------------

def test_the_non_dealer_decides_first_then_the_dealer():
    # point 20 (elder_first): the non-dealer announces first
    g = start()
    assert g.phase == Phase.EXCHANGE and g.to_act == "S"
    assert g.legal_actions() == [KEEP, SWAP]
    g.apply("keep")
    assert g.to_act == "N" and g.view("N")["exchange"] == [{"seat": "S", "call": "keep"}]
    g.apply("swap")
    assert g.phase == Phase.PLAY


def test_swap_takes_the_packet_on_the_right():
    # rule P1: N takes W's packet, S takes E's; the old packet is out of play
    g = act(start(), "swap", "swap")
    assert g.view("N")["hand"] == [card_str(c) for c in cards_of(hand(SUITS["W"]))]
    assert g.view("S")["hand"] == [card_str(c) for c in cards_of(hand(SUITS["E"]))]
    assert set(g.dead) == {"N", "S"}


def test_a_card_before_deciding_is_refused():
    # rule P1: each player first keeps or swaps
    g = start()
    before = g.record()
    with pytest.raises(IllegalAction) as exc:
        g.apply("AD")
    assert exc.value.rule == "P1" and exc.value.reason == "keep_or_swap" and g.record() == before


def test_the_choice_is_irrevocable():
    # rule P1: no swapping back, no second swap
    g = act(start(), "swap", "keep")
    for text in ("swap", "keep"):
        with pytest.raises(IllegalAction) as exc:
            g.apply(text)
        assert exc.value.rule == "P1" and exc.value.reason == "already_decided"


def test_a_dealer_who_swaps_loses_the_turned_card_but_not_the_trump():
    # rules P1, P2 (spec 4.6): the card goes out with his packet; the suit stays trump
    g = act(start(), "keep")
    assert g.view("S")["trump_card"] == "2S"
    g.apply("swap")
    for seat in "NS":
        view = g.view(seat)
        assert view["trump"] == "S" and view["trump_card"] is None and "2S" not in view["hand"]


def test_a_dealer_who_keeps_shows_the_turned_card_until_he_plays():
    # rule S5: the turn-up shows until the dealer plays to the first trick
    g = act(start(), "keep", "keep")
    assert g.view("S")["trump_card"] == "2S" and g.to_act == "S"   # 4.7: the non-dealer leads
    g.apply("AD")
    assert g.view("S")["trump_card"] == "2S"
    g.apply("2S")
    assert g.view("S")["trump_card"] is None


def test_simultaneous_decisions_are_revealed_together():
    # point 20 alternative: both decide blind, then both are shown
    g = act(start(swap_order="simultaneous"), "swap")
    assert g.view("N")["exchange"] == []
    assert g.view("S")["exchange"] == [{"seat": "S", "call": "swap"}]
    g.apply("keep")
    assert len(g.view("N")["exchange"]) == 2 == len(g.view("S")["exchange"])


# --- play (P1: two-card tricks) --------------------------------------------------------

def test_two_card_tricks_follow_suit():
    # rules P1 ("as other whists"), S6.2: follow suit if able
    packets = {"N": "AKQJT9876...AKQ2", "S": "5432..AKQJT9876.", "E": ".AKQJT98765432..",
               "W": "..5432.JT9876543"}
    g = act(start(raw=deal(packets, turned="6S")), "keep", "keep")
    assert g.to_act == "S"
    g.apply("2S")
    with pytest.raises(IllegalAction) as exc:
        g.apply("AC")
    assert exc.value.rule == "S6.2"
    g.apply("6S")
    view = g.view("N")
    assert view["last_trick"]["winner"] == "N" and view["tricks"] == {"N": 1, "S": 0}
    assert g.to_act == "N"                            # S6.5: the winner leads


def test_a_card_not_held_is_refused():
    # rule S5: a player plays only the cards he holds
    g = act(start(), "keep", "keep")
    with pytest.raises(IllegalAction) as exc:
        g.apply("AH")                                  # E's, dead
    assert exc.value.rule == "S5"


# --- honours (P1, P2) --------------------------------------------------------------------

@pytest.mark.parametrize("held, points", [
    ((4, 0), (4, 0)), ((3, 1), (3, 0)), ((3, 0), (3, 0)), ((2, 1), (2, 0)), ((1, 2), (0, 2)),
    ((2, 2), (0, 0)), ((2, 0), (0, 0)), ((1, 1), (0, 0)), ((1, 0), (0, 0)), ((0, 0), (0, 0))])
def test_prussian_honours(held, points):
    # rule P1: 4 score 4, 3 score 3, 2 score 2 only against one; 2 against 2 nothing;
    # 2 against none (dead) nothing (point 23): seed 001 "только в случае, если у
    # противника лишь один онер" (2 against none scored 2 before issue 23)
    assert honours_points(held, TwoHandOptions()) == points


def test_prussian_two_against_none_option():
    # point 23 alternative: two against none score 2, as two against one
    opts = TwoHandOptions(prussian_two_vs_none="score")
    assert honours_points((2, 0), opts) == (2, 0) and honours_points((2, 1), opts) == (2, 0)
    assert honours_points((2, 2), opts) == (0, 0)


@pytest.mark.parametrize("held, points", [
    ((5, 0), (5, 0)), ((4, 1), (4, 0)), ((3, 2), (3, 0)), ((2, 3), (0, 3)), ((2, 2), (0, 0)),
    ((2, 1), (2, 0)), ((2, 0), (2, 0)), ((1, 1), (0, 0))])
def test_humbug_honours(held, points):
    # rule P2: five honours A K Q J 10 score 5, 4, 3, 2 (spec 5.6: 2 only against fewer)
    assert honours_points(held, VARIANTS["humbug"].options) == points


def test_honours_are_counted_in_the_played_hands_only():
    # spec 4.9, point 25: honours in the dead packets count for no one
    opts = VARIANTS["humbug"].options
    rules = sheet_rules(opts)
    played = (hand("AK..."), hand("Q..."))            # J and 10 of spades are dead
    assert honours_held(played, 0, rules) == (2, 1)
    assert honours_held(played, 0, sheet_rules(TwoHandOptions())) == (2, 1)
    assert honours_held((hand("T..."), 0), 0, sheet_rules(TwoHandOptions())) == (0, 0)  # P1: no ten


def test_without_trumps_the_aces_are_the_honours():
    # rule P2, L11: "aces then being honours"
    opts = TwoHandOptions(honours="humbug", humbug_no_trump=True)
    played = (hand("A.A.A.K"), hand("K.K.K.A"))
    assert honours_held(played, NO_TRUMP, sheet_rules(opts)) == (3, 1)


# --- scoring a hand, the multiplier, game and rubber -----------------------------------

def test_all_thirteen_prussian():
    # N holds every spade (trump): 13 tricks = 7 over six x 2 (L5) below; grand slam 20 (L6)
    # and four honours 4 (P1) above; 14 below the line wins the game at 10
    g = play_out(act(start(), "keep", "keep"))
    last = g.score()["hands"][-1]
    assert last["tricks"] == {"N": 13, "S": 0} and last["below"] == {"N": 14, "S": 0}
    assert last["above"] == {"N": 24, "S": 0} and g.score()["games"][0]["winner"] == "N"


@pytest.mark.parametrize("decisions, factor", [(("keep", "keep"), 4), (("swap", "keep"), 2)])
def test_humburg_multiplies_every_point_of_the_hand(decisions, factor):
    # rule P3: one player plays the deal x2, both x4 (spec 6.3): tricks, slam, honours
    g = play_out(act(start("humburg"), *decisions))
    last = g.score()["hands"][-1]
    assert last["multiplier"] == factor
    assert last["below"]["N"] == 14 * factor and last["above"]["N"] == (20 + 5) * factor
    assert g.view("N")["multiplier"] == factor


def test_humburg_when_the_dealer_swaps_honours_go_dead():
    # rules P1, P3: N (dealer) swaps for W's clubs; spades stay trump, in no one's hand:
    # S leads diamonds and wins every trick; x2 as one player kept
    g = play_out(act(start("humburg"), "keep", "swap"))
    last = g.score()["hands"][-1]
    assert last["tricks"] == {"N": 0, "S": 13} and last["multiplier"] == 2
    assert last["below"]["S"] == 28 and last["above"]["S"] == 40    # slam only, no honours


def test_humburg_spec_example():
    # spec 6.5: both keep, 8 tricks: 2 over six x 2 x 4 = 16 below; 3 honours x 4 = 12 above
    opts = VARIANTS["humburg"].options
    hs = hand_score((8, 5), (hand("AKQ..."), hand("..")), 0, 2, opts, sheet_rules(opts))
    assert hs.below == (16, 0) and hs.above == (12, 0)


def test_english_count_puts_honours_below():
    # point 26 alternative: 1 a trick over six, honours count toward game
    opts = TwoHandOptions(two_hand_count="english")
    hs = hand_score((9, 4), (hand("AKQJ..."), 0), 0, 0, opts, sheet_rules(opts))
    assert hs.below == (3 + 4, 0) and hs.above == (0, 0)


def _rubber(name, **options):
    """N wins all (dealer N), S wins all (dealer S, S holds the spades), N again."""
    g = play_out(act(start(name, **options), "keep", "keep"))
    swapped = {"N": SUITS["S"], "S": SUITS["N"], "E": SUITS["E"], "W": SUITS["W"]}
    g.start_deal(deal(swapped, dealer="S"))
    play_out(act(g, "keep", "keep"))
    g.start_deal(deal())
    return play_out(act(g, "keep", "keep"))


def test_prussian_rubber_best_of_three():
    # rule L2, spec 4.10: rubber of three; Russian count: every point, game bonus 0,
    # rubber bonus 20: N 2 x (14 + 24) + 20 = 96, S 38 -> N by 58
    g = _rubber("prussian")
    s = g.score()
    assert g.phase == Phase.OVER and s["winner"] == "N" and len(s["games"]) == 3
    assert s["points"] == {"N": 58, "S": 0}


def test_humbug_rubber_bonuses():
    # spec 5.8: game bonus 5, rubber bonus 10; honours 5 (P2):
    # N 2 x (14 + 25) + 2 x 5 + 10 = 98, S 39 + 5 = 44 -> N by 54
    assert _rubber("humbug").score()["points"] == {"N": 54, "S": 0}


def test_humburg_bonuses_multiplied_on_option():
    # point 30 alternative: the game bonus of a hand played x4 is written 4 times
    plain = play_out(act(start("humburg"), "keep", "keep")).score()["games"][0]["above"]["N"]
    more = play_out(act(start("humburg", humburg_multiply_bonuses=True), "keep", "keep"))
    assert more.score()["games"][0]["above"]["N"] == plain + 3 * 5


def test_one_game_without_rubbers():
    # option rubbers=False: the first player to 10 below the line wins (L3)
    g = play_out(act(start(rubbers=False), "keep", "keep"))
    assert g.phase == Phase.OVER and g.score()["winner"] == "N"


def test_dead_packets_shown_after_the_hand_only_on_option():
    # point 31: never in views by default; the option shows them once the hand is scored
    g = act(start(reveal_dead_after_hand=True), "keep", "swap")
    assert "dead" not in g.view("S")
    play_out(g)
    assert set(g.view("S")["dead"]) == {"N", "E"}
    assert "dead" not in play_out(act(start(), "keep", "swap")).view("S")


# --- properties ------------------------------------------------------------------------

OTHER_ACTIONS = [parse_action(t) for t in ("keep", "swap", "pass", "1 uptown", "trump H", "NT")]
ALL_CARDS = [parse_action(card_str(c)) for c in range(52)]


def _visible_ok(game, seat):
    """The view shows the player's own cards, the cards played, the turn-up while
    it shows, and no other card (P1, spec 4.4)."""
    view = game.view(seat)
    text = json.dumps(view)
    t = game.tricks
    own = set(view["hand"])
    held = t.hands[0 if seat == "N" else 2] if t else game.packets[game.playing[seat]]
    assert own == {card_str(c) for c in cards_of(held)}
    allowed = own | {card_str(c) for c in (t.plays if t else ())}
    if view["trump_card"]:                            # S5, P1: until the dealer plays or swaps
        assert game.decisions.get(game.dealer) != "swap" and not (t and len(t.plays) >= 2)
        assert view["trump_card"] == game.deals[-1]["trump_card"]
        allowed.add(view["trump_card"])
    if game.options.swap_order == "simultaneous" and len(game.decisions) < 2:   # point 20
        assert all(d["seat"] == seat for d in view["exchange"])
    for c in range(52):
        if card_str(c) not in allowed:
            assert f'"{card_str(c)}"' not in text, (seat, card_str(c))


def _cards_conserved(game):
    """Every card of the deal once: held, played, or in a dead packet."""
    t = game.tricks
    held = [t.hands[0], t.hands[2]] if t else [game.packets[game.playing[p]] for p in "NS"]
    dead = [game.packets[label] for label in game.dead]
    played = list(t.plays) if t else []
    cards = [c for m in held + dead for c in cards_of(m)] + played
    assert sorted(cards) == list(range(52))


@FEW
@given(st.sampled_from(PRESETS), st.integers(0, 10**6),
       st.sampled_from(["elder_first", "simultaneous"]))
def test_every_step_conserves_hides_and_refuses(name, seed, order):
    # rules P1 (views, irrevocable), S6: only legal actions; state unchanged on refusal
    rng = random.Random(seed)
    game = find_variant({"name": name, "swap_order": order}).new_game(rng)
    for _ in range(2):
        game.deal(rng)
        while game.phase in (Phase.EXCHANGE, Phase.PLAY):
            _cards_conserved(game)
            for seat in "NS":
                _visible_ok(game, seat)
            legal = game.legal_actions()
            wrong = [a for a in OTHER_ACTIONS + ALL_CARDS if a not in legal]
            bad = rng.choice(wrong)
            before, view = game.record(), game.view(game.to_act)
            with pytest.raises(IllegalAction):
                game.apply(bad)
            assert game.record() == before and game.view(game.to_act) == view
            game.apply(rng.choice(legal))
        if game.phase == Phase.OVER:
            break


@FEW
@given(st.sampled_from(PRESETS), st.integers(0, 10**6), st.booleans())
def test_replay_json_round_trip_and_scores(name, seed, no_trump):
    # rules S6.5, P1-P3: the record replays to the same game; hand points as the rules say
    variant = find_variant({"name": name, "humbug_no_trump": no_trump} if no_trump else name)
    rng = random.Random(seed)
    game = play_random(variant.new_game(rng), rng)
    record = json.loads(json.dumps(game.record()))
    assert replay_game(record) == game
    opts = variant.options
    below = {"N": 0, "S": 0}
    for h in game.score()["hands"]:
        m = h["multiplier"]
        kept = list(h["decisions"].values()).count("keep")
        assert m == ((1, 2, 4)[kept] if opts.keep_multiplier else 1)                # P3
        for seat in "NS":
            assert h["below"][seat] == 2 * m * max(0, h["tricks"][seat] - 6)   # L5
            assert h["above"][seat] == sum(i["points"] for i in h["items"] if i["seat"] == seat)
            below[seat] += h["below"][seat]
        honours = [i for i in h["items"] if i["what"] == "honours"]
        assert len(honours) <= 1 and all(i["points"] <= 5 * m for i in honours)
    games = game.score()["games"]
    assert {s: sum(g["below"][s] for g in games) for s in "NS"} == below


# --- whole games through the command line ----------------------------------------------

def _cli(argv, stdin=None):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(argv) == 0
    return out.getvalue()


@pytest.mark.parametrize("name", PRESETS)
def test_play_and_check_whole_games(name):
    # many seeds: every game the command line plays is valid and complete
    for seed in range(150):
        record = json.loads(_cli(["play", "--rules", name, "--seed", str(seed), "--json"]))
        answer = check_game(record)
        assert answer["valid"] and answer["complete"], (seed, answer)
        assert answer["score"]["winner"] in ("N", "S")


@pytest.mark.parametrize("rules", [
    {"name": "humbug", "humbug_no_trump": True}, {"name": "prussian", "swap_order": "simultaneous"},
    {"name": "prussian", "two_hand_count": "english", "target": 5, "rubber_bonus": 2},
    {"name": "humburg", "humburg_multiply_bonuses": True, "rubbers": False},
    {"name": "prussian", "prussian_two_vs_none": "score", "slams": False}])   # "no_score" is the default
def test_whole_games_with_options(rules):
    # every open point's alternative plays whole games that check accepts (spec section 7)
    variant = find_variant(rules)
    for seed in range(30):
        rng = random.Random(seed)
        record = play_random(variant.new_game(rng), rng).record()
        assert record["rules"] == rules
        answer = check_game(json.loads(json.dumps(record)))
        assert answer["valid"] and answer["complete"], (seed, answer)


def test_check_command_reads_a_game_file(tmp_path):
    record = _cli(["play", "--rules", "humburg", "--seed", "5", "--json"])
    path = tmp_path / "game.json"
    path.write_text(record)
    answer = json.loads(_cli(["check", str(path)]))
    assert answer["valid"] and answer["complete"]


def test_check_names_the_rule_of_a_bad_action():
    record = {"rules": "prussian", "deals": [{**deal(), "actions": ["keep", "keep", "AH"]}]}
    answer = check_game(record)
    assert not answer["valid"] and answer["error"]["rule"] == "S5"
    bad = {"rules": "prussian", "deals": [{**deal(), "actions": ["AD"]}]}
    assert check_game(bad)["error"]["rule"] == "P1"


def test_engine_errors_only():
    with pytest.raises(EngineError):
        start().apply("nonsense")
