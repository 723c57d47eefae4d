import random
import secrets
from collections import Counter

import pytest

from engine.cards import NO_TRUMP, SUIT_OF, parse_card
from engine.deal import (cut, cut_for_partners, cut_rank, deal, deal_hands, first_dealer, left_of,
                         new_rng, next_dealer, shuffled_deck, side_of, trump_for_hand)
from engine.rules import preset


def test_partners_sit_opposite():
    # rule S1: four players, two fixed partnerships, partners opposite
    assert side_of(0) == side_of(2) == 0 and side_of(1) == side_of(3) == 1


def test_first_dealer_random_then_left():
    # rule S3: first dealer at random; the deal passes to the left
    seen = Counter(first_dealer(random.Random(i)) for i in range(200))
    assert set(seen) == {0, 1, 2, 3}
    assert [next_dealer(d) for d in range(4)] == [1, 2, 3, 0] == [left_of(d) for d in range(4)]


def test_strong_shuffle_for_play_seeded_for_replay():
    # rule S4: online the server shuffles with a cryptographically strong generator
    assert isinstance(new_rng(), secrets.SystemRandom)
    assert shuffled_deck(new_rng(42)) == shuffled_deck(new_rng(42))
    assert sorted(shuffled_deck(new_rng())) == list(range(52))
    assert deal(1, new_rng(9)) == deal(1, new_rng(9))


def test_cut_keeps_six_each_side():
    # rule S4: right of the dealer cuts (seed 001: at least six cards)
    deck = list(range(52))
    assert cut(deck, 6)[:2] == [6, 7] and cut(deck, 6)[-6:] == [0, 1, 2, 3, 4, 5]
    for bad in (5, 47):
        with pytest.raises(ValueError):
            cut(deck, bad)


def test_deal_one_at_a_time_from_the_left():
    # rule S5: one card at a time, clockwise from the dealer's left; 13 each;
    # the 52nd card is the dealer's
    deck = list(range(52))
    hands = deal_hands(deck, dealer=3)          # W deals: N gets cards 0, 4, 8 ...
    assert hands[0] & 1 and hands[1] & 2 and hands[2] & 4 and hands[3] & 8
    assert all(bin(h).count("1") == 13 for h in hands)
    assert hands[3] >> 51 & 1                    # card 51 = the 52nd, the dealer's


def test_turned_card_is_trump_and_the_dealers():
    # rule S5: the dealer's last card is turned; its suit is trump
    for seed in range(20):
        d = deal(seed % 4, new_rng(seed))
        assert d.hands[d.dealer] >> d.trump_card & 1
        assert d.trump == SUIT_OF[d.trump_card]


def test_trump_rotation_over_the_evening():
    # rule D2: hearts, diamonds, spades, clubs, then hearts again or a no-trump hand,
    # counted over the whole evening
    plain = preset("drive_rotation")
    assert [trump_for_hand(plain, i, None) for i in range(6)] == [1, 2, 0, 3, 1, 2]
    nt = preset("drive_rotation_nt")
    assert [trump_for_hand(nt, i, None) for i in range(6)] == [1, 2, 0, 3, NO_TRUMP, 1]
    d = deal(0, new_rng(1), plain, hand_number=2)
    assert d.trump == 0 and d.trump_card is None
    assert trump_for_hand(preset("short", trump="fixed", fixed_suit="C"), 5, None) == 3
    assert trump_for_hand(preset("no_trump"), 0, None) == NO_TRUMP   # rule L11


def test_turned_trump_is_also_a_drive_option():
    # rule D2: trump per hand is turned up (S5) or a fixed rotation
    d = deal(2, new_rng(5), preset("drive"))
    assert d.trump_card is not None and d.trump == SUIT_OF[d.trump_card]


def test_cutting_for_partners_ace_low():
    # rule L1: two highest play two lowest; ace low; lowest deals and chooses seat
    assert cut_rank(parse_card("AS")) < cut_rank(parse_card("2S")) < cut_rank(parse_card("KS"))
    for seed in range(50):
        result = cut_for_partners(["ann", "bob", "cy", "di"], random.Random(seed))
        first = {p: cut_rank(cards[0]) for p, cards in result.draws.items()}
        ranks = [first[p] for p in result.order]
        assert ranks == sorted(ranks)
        assert result.dealer == result.order[0]
        low, high = result.pairs
        assert max(first[p] for p in low) <= min(first[p] for p in high)


def test_cutting_ties_redraw():
    # rule L1: equal cards redraw (only to settle the tied players)
    tied = [cut_for_partners("abcd", random.Random(s)) for s in range(300)]
    redrawn = [r for r in tied if any(len(c) > 1 for c in r.draws.values())]
    assert redrawn, "some seed should produce a tie"
    for r in redrawn:
        firsts = Counter(cut_rank(c[0]) for c in r.draws.values())
        for p, cards in r.draws.items():
            if len(cards) > 1:
                assert firsts[cut_rank(cards[0])] > 1
