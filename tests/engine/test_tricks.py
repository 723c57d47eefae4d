"""The general trick core against the fast one, and its own rules: two-card
tricks, the downtown ranking and the jokers (S6, B3, P1)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import BIG_JOKER, BIT, LITTLE_JOKER, NO_TRUMP, parse_card
from engine.play import IllegalPlay
from engine.tricks import TrickPlay

from .kit import deals, hand
from .test_properties import start

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(deals, st.lists(st.integers(0, 12), min_size=52, max_size=52))
def test_agrees_with_the_fast_core_on_plain_whist(d, picks):
    fast = start(d)
    general = TrickPlay(fast.hands, (0, 1, 2, 3), (fast.dealer + 1) & 3, fast.trump)
    for pick in picks:
        assert general.legal_moves() == fast.legal_moves()
        card = fast.legal_moves()[pick % len(fast.legal_moves())]
        fast.play(card)
        general.play(card)
    assert general.complete and general.winners == fast.winners


def c(*texts):
    return [parse_card(t) for t in texts]


def trick(cards_by_seat, trump, ranking="uptown", leader=0):
    """Play one trick from single-card hands; return the winner."""
    hands = [0, 0, 0, 0]
    for seat, card in cards_by_seat.items():
        hands[seat] = BIT[parse_card(card)]
    tp = TrickPlay(hands, tuple(sorted(cards_by_seat)), leader, trump, ranking)
    while tp.to_play is not None and not tp.winners:
        tp.play(parse_card(cards_by_seat[tp.to_play]))
    return tp.winners[0]


def test_downtown_puts_the_king_lowest_and_the_ace_highest():
    # rule B3: downtown K low, Q, J, 10 .. 2, then A
    assert trick({0: "2H", 1: "KH", 2: "3H", 3: "QH"}, trump=NO_TRUMP, ranking="downtown") == 0
    assert trick({0: "2H", 1: "AH", 2: "3H", 3: "QH"}, trump=NO_TRUMP, ranking="downtown") == 1


def test_jokers_top_the_trumps_big_over_little():
    # rule B3: ... A, little joker, big joker; jokers are trumps
    assert trick({0: "AS", 1: "LJ", 2: "AH", 3: "KS"}, trump=1) == 1
    assert trick({0: "AS", 1: "LJ", 2: "BJ", 3: "KS"}, trump=1) == 2


def test_jokers_follow_as_trumps():
    # rule B3, S6.2: jokers are trumps, so a trump lead must be followed by a joker if no other
    hands = [hand("..2."), BIT[LITTLE_JOKER] | hand("3..."), hand("..4."), hand("..5.")]
    tp = TrickPlay(hands, (0, 1, 2, 3), 0, trump=2)          # diamonds trump
    tp.play(parse_card("2D"))
    assert tp.legal_moves() == (LITTLE_JOKER,)
    with pytest.raises(IllegalPlay) as err:
        tp.play(parse_card("3S"))
    assert err.value.rule == "S6.2"


def test_in_no_trump_a_joker_never_wins_and_a_joker_led_sets_no_suit():
    # rule B3: in no trump jokers cannot win; the first ordinary card sets the suit
    assert trick({0: "BJ", 1: "2C", 2: "AS", 3: "3C"}, trump=NO_TRUMP) == 3
    hands = [BIT[BIG_JOKER], hand("..2.5"), hand("...3"), hand("A...")]
    tp = TrickPlay(hands, (0, 1, 2, 3), 0, trump=NO_TRUMP)
    tp.play(BIG_JOKER)
    assert set(tp.legal_moves()) == set(c("2D", "5C"))   # anything: no suit led yet


def test_in_no_trump_a_joker_is_played_only_when_void():
    hands = [hand("2..."), BIT[LITTLE_JOKER] | hand("3..."), hand("4..."), hand("5...")]
    tp = TrickPlay(hands, (0, 1, 2, 3), 0, trump=NO_TRUMP)
    tp.play(parse_card("2S"))
    assert tp.legal_moves() == tuple(c("3S"))


def test_two_card_tricks_between_north_and_south():
    # rules P1, S6.5: two players, the winner leads
    hands = [hand("AK..."), 0, hand("Q2..."), 0]
    tp = TrickPlay(hands, (0, 2), 2, trump=NO_TRUMP)
    tp.play(parse_card("2S"))
    tp.play(parse_card("KS"))
    assert tp.winners == [0] and tp.to_play == 0 and tp.won[0] == 1
    tp.play(parse_card("AS"))
    tp.play(parse_card("QS"))
    assert tp.complete and tp.won == [2, 0, 0, 0]
    leader, cards, winner = tp.completed_trick(0)
    assert (leader, winner) == (2, 0) and cards == [(2, parse_card("2S")), (0, parse_card("KS"))]
