"""Bid whist (docs/rules.md part B; its open points: docs/engine.md): each rule B1-B5 by number,
the options, hypothesis properties and whole games through the command line."""

import io
import json
import random
from contextlib import redirect_stdout

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import bid, parse_action
from engine.cards import JOKER_DECK, NO_TRUMP, card_str, mask_of, parse_card, parse_suit
from engine.cli import main
from engine.errors import EngineError, IllegalAction
from engine.games import check_game, play_random, replay_game
from engine.play import IllegalPlay
from engine.rules import RulesError
from engine.seats import SEATS
from engine.state import BadRecord, Phase
from engine.variants import find_variant
from engine.variants.bid_play import BidTricks
from engine.variants.bid_rules import BidOptions, bid_key, game_decided, hand_points

from .kit import advance

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ALL_TRUMPS = "BJ LJ AS KS QS JS TS 9S 8S 7S 6S 5S"     # N: twelve top spades


def deal_of(dealer: str = "N", **packets: str) -> dict:
    """A deal record: the packets given (card texts), the rest in order."""
    given_ = {label: text.split() for label, text in packets.items()}
    used = {c for cards in given_.values() for c in cards}
    rest = [card_str(c) for c in range(54) if card_str(c) not in used]
    hands = {}
    for label in (*SEATS, "kitty"):
        count = 6 if label == "kitty" else 12
        hands[label] = given_.get(label) or rest[:count]
        if label not in given_:
            rest = rest[count:]
    return {"dealer": dealer, "hands": hands}


def game_of(rules="bid", dealer: str = "N", actions=(), **packets: str):
    game = find_variant(rules).new_game(first_dealer=dealer)
    game.start_deal(deal_of(dealer, **packets))
    for a in actions:
        game.apply(a)
    return game


def refused(game, action: str) -> IllegalAction:
    before = (game.record(), game.phase, game.to_act)
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    assert (game.record(), game.phase, game.to_act) == before
    return err.value


def legal(game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


# --- B1: the pack and the deal ------------------------------------------------------

def test_b1_deal_is_54_cards_twelve_each_and_a_kitty_of_six():
    game = find_variant("bid").new_game(random.Random(4))
    game.deal(random.Random(4))
    hands = game.deals[0]["hands"]
    assert set(hands) == {"N", "E", "S", "W", "kitty"}
    assert [len(hands[s]) for s in SEATS] == [12] * 4 and len(hands["kitty"]) == 6
    assert sorted(parse_card(c) for p in hands.values() for c in p) == list(range(54))


@pytest.mark.parametrize("how, positions", [("last_six", range(48, 54)), ("first_six", range(6)),
                                            ("after_first_rounds", range(4, 30, 5))])
def test_b1_kitty_deal_takes_the_positions_its_option_names(how, positions):
    # B1 with seed 1.2: one card at a time clockwise from the dealer's left
    game = find_variant({"name": "bid", "kitty_deal": how}).new_game(first_dealer="E")
    game.deal(random.Random(9))
    deck = list(range(54))
    random.Random(9).shuffle(deck)
    hands = game.deals[0]["hands"]
    assert sorted(map(parse_card, hands["kitty"])) == sorted(deck[p] for p in positions)
    first = [c for p, c in enumerate(deck) if p not in positions][0]
    assert card_str(first) in hands["S"]        # the first card to the dealer's left


@pytest.mark.parametrize("change", [
    lambda h: h["N"].pop(),                                  # 11 cards
    lambda h: h["kitty"].append(h["N"][0]),                  # a card twice
    lambda h: h.pop("kitty"),                                # no kitty
    lambda h: h["kitty"].__setitem__(0, "XX"),               # not a card
])
def test_b1_bad_deals_are_refused(change):
    deal = deal_of("N")
    change(deal["hands"])
    game = find_variant("bid").new_game(first_dealer="N")
    with pytest.raises(BadRecord):
        game.start_deal(deal)
    assert game.phase == Phase.DEAL


# --- B2: the auction ----------------------------------------------------------------

@pytest.mark.parametrize("dealer", SEATS)
def test_b2_auction_starts_left_of_the_dealer_and_ends_with_the_dealer(dealer):
    game = game_of(dealer=dealer)
    order = []
    for call in ("pass", "pass", "pass", "1 uptown"):
        order.append(game.to_act)
        game.apply(call)
    i = SEATS.index(dealer)
    assert order == [SEATS[(i + k) % 4] for k in (1, 2, 3, 4)]
    assert game.phase == Phase.EXCHANGE and game.to_act == dealer


def test_b2_worked_example_downtown_and_no_trump_overcall():
    # spec 3.3, first example (dealer N: E, S, W, N)
    game = game_of(actions=["2 uptown", "2 downtown"])
    err = refused(game, "2 uptown")
    assert (err.rule, err.reason) == ("B2", "bid_too_low")
    game.apply("2 NT")
    game.apply("pass")
    assert game.high == ("W", bid(2, "NT")) and game.phase == Phase.EXCHANGE


def test_b2_worked_example_once_round_and_no_matching():
    game = game_of(actions=["3 NT"])
    refused(game, "3 downtown")
    game.apply("pass")
    game.apply("4 uptown")
    assert refused(game, "4 uptown").reason == "bid_too_low"     # equal does not beat
    game.apply("pass")
    assert game.high == ("W", bid(4, "uptown")) and len(game.calls) == 4
    assert game.phase == Phase.EXCHANGE and game.to_act == "W"   # E had no second turn


def test_b2_forced_dealer_must_bid_and_wins():
    game = game_of(actions=["pass"] * 3)
    assert "pass" not in legal(game) and legal(game)[0] == "1 uptown" and len(legal(game)) == 21
    err = refused(game, "pass")
    assert (err.rule, err.reason) == ("B2", "dealer_must_bid")
    game.apply("5 downtown")
    assert game.high == ("N", bid(5, "downtown"))


def test_b2_variant_minimum_three_holds_for_the_forced_dealer_too():
    game = game_of("bid_min3", actions=["pass"] * 3)
    assert legal(game)[0] == "3 uptown" and len(legal(game)) == 15
    for call in ("1 uptown", "2 NT", "8 uptown"):
        assert refused(game, call).reason == "bid_out_of_range"
    opener = game_of("bid_min3")
    assert legal(opener)[:2] == ["pass", "3 uptown"]
    refused(opener, "2 uptown")


def test_b2_order_of_bids():
    # a higher number beats a lower; downtown beats uptown; no trump beats both
    opts = BidOptions()
    bids = [bid(n, k) for n in range(1, 8) for k in ("uptown", "downtown", "NT")]
    assert sorted(bids, key=lambda b: bid_key(b, opts)) == bids
    assert bid_key(bid(4, "uptown"), opts) > bid_key(bid(3, "NT"), opts)


def test_b2_partner_may_be_overcalled_and_the_dealer_may_overcall():
    game = game_of(actions=["1 uptown", "pass", "1 NT", "2 uptown"])
    assert game.high == ("N", bid(2, "uptown"))


def test_option_dealer_may_match():
    game = game_of({"name": "bid", "dealer_may_match": True}, actions=["pass", "pass", "4 uptown"])
    assert "4 uptown" in legal(game) and "3 NT" not in legal(game)
    game.apply("4 uptown")
    assert game.high[0] == "N"
    other = game_of({"name": "bid", "dealer_may_match": True}, actions=["4 uptown"])
    refused(other, "4 uptown")                  # only the dealer may match


def test_option_downtown_does_not_beat_uptown():
    game = game_of({"name": "bid", "downtown_beats_uptown": False}, actions=["2 uptown"])
    refused(game, "2 downtown")
    game.apply("2 NT")


def test_option_stuck_dealer_bids_the_minimum():
    game = game_of({"name": "bid", "forced_dealer_min": "minimum_only"}, actions=["pass"] * 3)
    assert legal(game) == ["1 uptown", "1 downtown", "1 NT"]
    assert refused(game, "2 uptown").reason == "forced_bid_minimum"


def test_b2_calls_are_public():
    game = game_of(actions=["pass", "3 downtown"])
    for seat in SEATS:
        assert game.view(seat)["auction"] == [{"seat": "E", "call": "pass"},
                                              {"seat": "S", "call": "3 downtown"}]


# --- B4: naming trump, the kitty, the exchange, the lead -----------------------------------

AUCTION_W_4 = ["pass", "pass", "4 uptown", "pass"]       # dealer N: W wins 4 uptown
AUCTION_W_NT = ["pass", "pass", "3 NT", "pass"]


def test_b4_trump_bid_names_a_suit_first():
    game = game_of(actions=AUCTION_W_4)
    assert legal(game) == ["trump S", "trump H", "trump D", "trump C"]
    err = refused(game, "uptown")
    assert (err.rule, err.reason) == ("B4", "must_name_trump")
    refused(game, "discard 2C 3C 4C 5C 6C 7C")
    game.apply("trump D")
    assert (game.trump, game.ranking) == (parse_suit("D"), "uptown")
    assert game.view("N")["trump"] == "D"


def test_b4_no_trump_bid_names_the_ranking():
    game = game_of(actions=AUCTION_W_NT)
    assert legal(game) == ["uptown", "downtown"]
    assert refused(game, "trump H").reason == "must_name_ranking"
    game.apply("downtown")
    assert (game.trump, game.ranking) == (NO_TRUMP, "downtown")
    assert game.view("E")["trump"] == "NT" and game.view("E")["ranking"] == "downtown"


def test_b4_kitty_shown_to_all_after_naming_trump_except_in_no_trump():
    kitty = "2H 3H 4H 5H 6H 7H"
    game = game_of(actions=AUCTION_W_4, kitty=kitty)
    assert all(game.view(s)["kitty"] is None for s in SEATS)     # named first, then seen
    game.apply("trump C")
    for seat in SEATS:
        assert game.view(seat)["open_hands"] == {"kitty": kitty.split()}
    nt = game_of(actions=AUCTION_W_NT + ["uptown"], kitty=kitty)
    assert nt.view("W")["kitty"] == kitty.split() and nt.view("W")["open_hands"] == {}
    assert all(nt.view(s)["kitty"] is None for s in "NES")


@pytest.mark.parametrize("option, nt, shown", [("always", True, True), ("never", False, False)])
def test_option_expose_kitty(option, nt, shown):
    game = game_of({"name": "bid", "expose_kitty": option},
                   actions=(AUCTION_W_NT + ["uptown"]) if nt else (AUCTION_W_4 + ["trump S"]))
    assert (game.view("E")["kitty"] is not None) == shown
    assert game.view("W")["kitty"] is not None


def test_option_bidder_sees_the_kitty_before_naming_trump():
    game = game_of({"name": "bid", "declare_before_kitty": False}, actions=AUCTION_W_4)
    assert game.view("W")["kitty"] and game.view("N")["open_hands"]


def test_b4_exchange_any_six_of_eighteen_one_at_a_time_and_the_bidder_leads():
    hands = deal_of("N", kitty="BJ LJ 2H 3H 4H 5H")["hands"]
    w = hands["W"]
    game = game_of(actions=AUCTION_W_4 + ["trump S"], kitty="BJ LJ 2H 3H 4H 5H")
    held = sorted(w + ["BJ", "LJ", "2H", "3H", "4H", "5H"])
    assert sorted(str(a) for a in game.legal_actions()) == sorted(f"discard {c}" for c in held)
    # several cards at once are those cards one at a time: all, or none if one is refused
    assert refused(game, f"discard 2H 3H 4H 5H BJ {hands['N'][0]}").reason == "not_in_hand"
    assert refused(game, "discard 2H 3H 4H 5H BJ LJ 6H").reason == "not_a_card"   # a seventh
    game.apply(f"discard BJ LJ {' '.join(w[:3])}")       # jokers may be buried (default)
    assert game.phase == Phase.EXCHANGE and len(game.legal_actions()) == 13
    assert game.view("W")["exchanged"] is None and len(game.view("W")["discards"]) == 5
    game.apply(f"discard {w[3]}")
    assert game.record()["deals"][0]["actions"][-6:] == [f"discard {c}" for c in ["BJ", "LJ", *w[:4]]]
    assert game.phase == Phase.PLAY and game.to_act == "W"
    view = game.view("W")
    assert len(view["hand"]) == 12 and {"2H", "3H", "4H", "5H"} <= set(view["hand"])
    assert sorted(view["discards"]) == sorted(["BJ", "LJ", *w[:4]])
    assert all(game.view(s)["exchanged"] == 4 and game.view(s)["discards"] is None for s in "NES")
    assert all(game.view(s)["kitty"] is None and game.view(s)["open_hands"] == {} for s in "NES")
    assert game.view("N")["books"] == {"NS": 0, "EW": 1}     # the kitty is the first book


def test_option_no_jokers_buried_in_a_trump_hand():
    game = game_of({"name": "bid", "kitty_discard": "no_jokers_in_trump"},
                   actions=AUCTION_W_4 + ["trump S"], kitty="BJ LJ 2H 3H 4H 5H")
    assert len(game.legal_actions()) == 16 and "discard BJ" not in map(str, game.legal_actions())
    assert refused(game, "discard BJ").reason == "kitty_jokers"
    assert refused(game, "discard 2H 3H 4H 5H BJ " + game.view("W")["hand"][0]).reason == "kitty_jokers"


def test_option_no_trump_jokers_must_be_buried():
    game = game_of({"name": "bid", "nt_jokers": "must_discard"},
                   actions=AUCTION_W_NT + ["uptown"], kitty="BJ LJ 2H 3H 4H 5H")
    game.apply("discard 2H 3H 4H")
    assert len(game.legal_actions()) == 15           # two jokers must still fit in three
    game.apply("discard 5H")
    assert sorted(map(str, game.legal_actions())) == ["discard BJ", "discard LJ"]
    assert refused(game, "discard LJ " + game.view("W")["hand"][0]).reason == "kitty_jokers"
    game.apply("discard LJ BJ")
    assert game.phase == Phase.PLAY


# --- B3: ranking and jokers --------------------------------------------------------------

def tricks(hands: dict, trump: str = "S", ranking: str = "uptown", leader: str = "N", **opts) -> BidTricks:
    masks = [mask_of(parse_card(c) for c in hands.get(s, "").split()) for s in SEATS]
    return BidTricks(masks, SEATS.index(leader), parse_suit(trump), ranking, BidOptions(**opts))


def winner(t: BidTricks, *cards: str) -> str:
    for c in cards:
        t.play(parse_card(c))
    return SEATS[t.winners[-1]]


def test_b3_downtown_king_low_ace_high():
    hands = {"N": "2C", "E": "3C", "S": "KC", "W": "QC"}
    assert winner(tricks(hands, "H", "uptown"), "2C", "3C", "KC", "QC") == "S"
    assert winner(tricks(hands, "H", "downtown"), "2C", "3C", "KC", "QC") == "N"
    hands["S"] = "AC"
    assert winner(tricks(hands, "H", "downtown"), "2C", "3C", "AC", "QC") == "S"   # the ace stays top


def test_b3_jokers_are_the_top_trumps():
    hands = {"N": "AH", "E": "LJ", "S": "BJ", "W": "2H"}
    assert winner(tricks(hands, "H"), "AH", "LJ", "BJ", "2H") == "S"
    hands = {"N": "AH", "E": "LJ", "S": "2C", "W": "KH"}
    assert winner(tricks(hands, "H", "downtown"), "AH", "LJ", "2C", "KH") == "E"


def test_b3_a_joker_led_is_a_trump_lead():
    t = tricks({"N": "LJ 2C", "E": "5H 2D", "S": "3C 4C", "W": "BJ 5C"}, "H")
    t.play(parse_card("LJ"))
    assert t.legal_moves() == (parse_card("5H"),)
    t.play(parse_card("5H"))
    t.play(parse_card("3C"))
    assert t.legal_moves() == (parse_card("BJ"),)     # a joker is W's only trump


def test_b3_void_in_a_side_suit_a_joker_trumps():
    t = tricks({"N": "2C", "E": "LJ", "S": "3C", "W": "AC"}, "H")
    assert winner(t, "2C", "LJ", "3C", "AC") == "E"


def test_b3_no_trump_jokers_cannot_win_and_follow_only_when_void():
    t = tricks({"N": "2C", "E": "BJ", "S": "3C", "W": "4C"}, "NT")
    assert winner(t, "2C", "BJ", "3C", "4C") == "W"
    t = tricks({"N": "2C 2D", "E": "BJ 5C", "S": "3C 3D", "W": "4C 4D"}, "NT")
    t.play(parse_card("2C"))
    assert t.legal_moves() == (parse_card("5C"),)
    with pytest.raises(IllegalPlay):
        t.play(parse_card("BJ"))


def test_b3_no_trump_joker_led_sets_no_suit():
    t = tricks({"N": "BJ", "E": "2D", "S": "9D", "W": "AS"}, "NT")
    t.play(parse_card("BJ"))
    assert len(t.legal_moves()) == 1
    assert winner(t, "2D", "9D", "AS") == "S"       # the first card after the joker sets diamonds


def test_option_no_trump_joker_any_time_and_lead_only_if_forced():
    t = tricks({"N": "2C 2D", "E": "BJ 5C", "S": "3C 3D", "W": "4C 4D"}, "NT", nt_joker_follow="any_time")
    t.play(parse_card("2C"))
    assert set(t.legal_moves()) == {parse_card("5C"), parse_card("BJ")}
    t = tricks({"N": "BJ 2C", "E": "3C 4C", "S": "5C 6C", "W": "7C 8C"}, "NT", nt_joker_lead="only_if_forced")
    with pytest.raises(IllegalPlay) as err:
        t.play(parse_card("BJ"))
    assert (err.value.rule, err.value.reason) == ("B3", "joker_lead")
    assert t.copy().legal_moves() == (parse_card("2C"),)


# --- B5: scoring and the game ------------------------------------------------------------

@pytest.mark.parametrize("level, books, nt, points", [
    (4, 10, False, 4), (4, 12, False, 6), (2, 7, True, -1), (7, 13, False, 7), (7, 9, False, -4),
    (3, 11, False, 5), (4, 5, False, -4), (1, 7, True, 1), (1, 0, False, -1)])
def test_b5_worked_examples(level, books, nt, points):
    assert hand_points(level, books, nt, BidOptions()) == points


@pytest.mark.parametrize("changes, level, books, points", [
    ({"set_loss": "shortfall_books"}, 4, 5, -5), ({"set_loss": "bid"}, 4, 9, -4),
    ({"made_scores": "bid"}, 3, 11, 3), ({"nt_double": True}, 2, 10, 8),
    ({"boston": "bonus"}, 7, 13, 14)])
def test_b5_scoring_options(changes, level, books, points):
    assert hand_points(level, books, True, BidOptions(**changes)) == points


def test_b5_game_at_plus_five_loss_at_minus_five():
    opts = BidOptions()
    assert game_decided(3 + hand_points(2, 8, False, opts), 2, 8, opts) == "won"
    assert game_decided(-3 + hand_points(4, 8, False, opts), 4, 8, opts) == "lost"
    assert game_decided(4, 1, 8, opts) is None and game_decided(-4, 4, 8, opts) is None
    seven = BidOptions(bid_target=7, bid_loss=-7)
    assert game_decided(6, 1, 7, seven) is None
    assert game_decided(1, 7, 13, BidOptions(boston="wins_game")) == "won"


def test_b5_a_made_seven_scores_seven_and_wins_the_game():
    game = game_of(dealer="W", N=ALL_TRUMPS, kitty="4S 3S 2S 2H 3H 4H",
                   actions=["7 uptown", "pass", "pass", "pass", "trump S", "discard 2H 3H 4H 2S 3S 4S"])
    assert game.to_act == "N"
    while game.phase == Phase.PLAY:
        game.apply(game.legal_actions()[-1 if game.to_act == "N" else 0])
    assert game.hand_log[-1]["books"] == 13 and game.hand_log[-1]["points"] == 7
    score = game.score()
    assert score["totals"] == {"NS": 7, "EW": 0} and score["winner"] == "NS"
    assert game.phase == Phase.OVER and "won" in score["result"]
    assert check_game(game.record())["complete"]


def test_b5_only_the_bidding_side_scores():
    # N bids 7 NT: the defenders take books, and score nothing
    game = game_of(dealer="W", N=ALL_TRUMPS, actions=["7 NT", "pass", "pass", "pass", "uptown"])
    while game.phase == Phase.EXCHANGE:
        game.apply(game.legal_actions()[0])
    rng = random.Random(1)
    while game.phase == Phase.PLAY:
        game.apply(rng.choice(game.legal_actions()))
    entry = game.hand_log[-1]
    assert game.score()["totals"]["EW"] == 0
    assert game.score()["totals"]["NS"] == entry["points"] == hand_points(7, entry["books"], True, BidOptions())


def test_option_drive_scores_a_fixed_number_of_hands():
    for how in ("b5", "books"):
        game = play_random(find_variant({"name": "bid", "scoring": "drive", "hands_per_round": 3,
                                         "bid_drive_score": how}).new_game(random.Random(2)),
                           random.Random(2))
        assert game.hands_played == 3 and game.phase == Phase.OVER
        if how == "books":
            assert sum(game.score()["totals"].values()) == 39


def test_options_are_checked():
    for bad in ({"min_bid": 8}, {"min_bid": "3"}, {"nt_joker_led": "leader_names_suit"},
                {"bid_loss": 3}, {"expose_kitty": "sometimes"}, {"no_such": 1}):
        with pytest.raises(RulesError):
            find_variant({"name": "bid", **bad})
    with pytest.raises(EngineError):
        BidOptions(kitty_book="defenders")


# --- properties ---------------------------------------------------------------------

OPTION_SETS = [
    "bid", "bid_min3",
    {"name": "bid", "nt_joker_follow": "any_time", "nt_joker_lead": "only_if_forced",
     "kitty_book": "first_trick_winner", "dealer_may_match": True},
    {"name": "bid", "kitty_discard": "no_jokers_in_trump", "nt_jokers": "must_discard",
     "downtown_beats_uptown": False, "declare_before_kitty": False, "set_loss": "bid"},
]




def conserved(game) -> None:
    # B1, B4: every card of the deal once among hands, kitty or discards, and cards played
    if game.tricks is None:
        packets = [*game.held.values(), game.kitty]
    else:
        packets = [*game.tricks.hands, game.discards, mask_of(game.tricks.plays)]
    total = 0
    for m in packets:
        assert not total & m
        total |= m
    assert total == JOKER_DECK
    books = game.books()
    if game.tricks is not None:
        assert sum(books) == len(game.tricks.winners) + (game.options.kitty_book == "bidder"
                                                         or bool(game.tricks.winners))


@FAST
@given(st.sampled_from(range(len(OPTION_SETS))), st.integers(0, 10**6), st.integers(0, 200))
def test_cards_conserved_and_books_counted(which, seed, steps):
    advance(OPTION_SETS[which], seed, steps, conserved)


@FAST
@given(st.sampled_from(range(len(OPTION_SETS))), st.integers(0, 10**6), st.integers(0, 200),
       st.integers(0, 10**6))
def test_only_legal_actions_are_accepted(which, seed, steps, pick):
    game, _ = advance(OPTION_SETS[which], seed, steps)
    if not game.legal_actions():
        return
    ok = {str(a) for a in game.legal_actions()}
    hand = game.view(game.to_act)["hand"]
    pool = [card_str(c) for c in range(54)] + ["pass", "1 uptown", "3 NT", "7 NT", "8 uptown",
                                              "trump H", "uptown", "keep", "discard " + " ".join(hand[:6]),
                                              "discard " + " ".join(hand[:5])]
    wrong = [a for a in pool if str(parse_action(a)) not in ok]
    before = (game.record(), game.phase, [game.view(s) for s in SEATS])
    with pytest.raises(IllegalAction) as err:
        game.apply(wrong[pick % len(wrong)])
    assert err.value.rule
    assert (game.record(), game.phase, [game.view(s) for s in SEATS]) == before


@FAST
@given(st.sampled_from(range(len(OPTION_SETS))), st.integers(0, 10**6), st.integers(0, 200))
def test_views_hide_other_hands_and_the_buried_kitty(which, seed, steps):
    game, _ = advance(OPTION_SETS[which], seed, steps)
    if not game.deals:
        return
    public = mask_of(game.tricks.plays) if game.tricks else 0
    if game.phase == Phase.EXCHANGE and game.view("N")["open_hands"]:
        public |= game.kitty
    for seat in SEATS:
        view = game.view(seat)
        own = game.tricks.hands[SEATS.index(seat)] if game.tricks else game.held[seat]
        if seat == (game.high and game.high[0]):
            own |= game.kitty | (game.discards or 0) | game.held[seat]
        seen = {parse_card(c) for k in ("hand", "kitty", "discards", "open_hands", "trick", "last_trick")
                for c in _cards(view[k])}
        assert not mask_of(seen) & ~(own | public), (seat, view)


def _cards(value) -> list:
    if isinstance(value, dict):
        return [c for v in value.values() for c in _cards(v)]
    if isinstance(value, list):
        return [c for v in value for c in _cards(v)]
    return [value] if isinstance(value, str) and value not in SEATS else []


@FAST
@given(st.sampled_from(range(len(OPTION_SETS))), st.integers(0, 10**6), st.integers(0, 300))
def test_replay_and_json_round_trip(which, seed, steps):
    game, _ = advance(OPTION_SETS[which], seed, steps)
    again = replay_game(json.loads(json.dumps(game.record())))
    assert again == game and again.score() == game.score()
    assert [again.view(s) for s in SEATS] == [game.view(s) for s in SEATS]


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(range(len(OPTION_SETS))), st.integers(0, 10**6))
def test_scores_follow_b5_and_the_game_ends_at_five(which, seed):
    game = play_random(find_variant(OPTION_SETS[which]).new_game(random.Random(seed)),
                       random.Random(seed))
    opts, totals = game.options, [0, 0]
    for n, entry in enumerate(game.hand_log):
        side = SEATS.index(entry["bidder"]) % 2
        level = int(entry["contract"].split()[0])
        assert entry["points"] == hand_points(level, entry["books"], entry["trump"] == "NT", opts)
        totals[side] += entry["points"]                     # defenders score nothing
        ended = game_decided(totals[side], level, entry["books"], opts)
        assert (ended is not None) == (n == len(game.hand_log) - 1)
    assert game.score()["totals"] == {"NS": totals[0], "EW": totals[1]}
    winner = game.score()["winner"]
    assert winner in ("NS", "EW") and (totals[0] >= 5 or totals[1] <= -5) == (winner == "NS")


# --- whole games through the command line ---------------------------------------------

@pytest.mark.parametrize("name", ["bid", "bid_min3"])
def test_whole_games_from_play_are_accepted_by_check(name):
    for seed in range(40):
        out = io.StringIO()
        with redirect_stdout(out):
            assert main(["play", "--rules", name, "--seed", str(seed), "--json"]) == 0
        record = json.loads(out.getvalue())
        answer = check_game(record)
        assert answer["valid"] and answer["complete"], (seed, answer)
        assert answer["score"]["winner"] in ("NS", "EW")
        for deal in record["deals"]:
            actions = deal["actions"]
            assert len(actions) == 4 + 1 + 6 + 48     # calls, declaration, six discards, 12 tricks
            assert all(a.startswith("discard") for a in actions[5:11])
