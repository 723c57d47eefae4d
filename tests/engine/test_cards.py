import pytest

from engine.cards import (BIT, SUIT_MASK, CardError, Suit, card_name, card_str, cards_of, hand_str,
                          holding, mask_of, parse_card, parse_suit, suit_name)


def test_card_ints_suit_blocks_in_dds_order():
    # a card is suit*13 + rank, suits S H D C, so a hand is four 13-bit blocks
    assert parse_card("2S") == 0 and parse_card("AS") == 12
    assert parse_card("2H") == 13 and parse_card("AC") == 51
    assert [s.name for s in Suit] == ["SPADES", "HEARTS", "DIAMONDS", "CLUBS"]
    assert SUIT_MASK[1] == 0x1FFF << 13
    assert holding(BIT[parse_card("AH")] | BIT[parse_card("2H")], 1) == 0x1001


@pytest.mark.parametrize("text,expected", [("AS", "AS"), ("TD", "TD"), ("10D", "TD"),
                                           ("10d", "TD"), ("as", "AS"), (" qh ", "QH"),
                                           ("K♣", "KC")])
def test_parse_and_print(text, expected):
    assert card_str(parse_card(text)) == expected


@pytest.mark.parametrize("bad", ["", "1S", "AX", "11D", "A", "ASS", None, 12, "ТП"])
def test_unknown_card_text(bad):
    with pytest.raises(CardError):
        parse_card(bad)


def test_every_card_round_trips():
    assert [parse_card(card_str(c)) for c in range(52)] == list(range(52))


def test_rank_order_high_to_low():
    # rule S2: A K Q J 10 9 8 7 6 5 4 3 2 in every suit; a higher int is a higher card
    order = [parse_card(t + "H") for t in "AKQJT98765432"]
    assert order == sorted(order, reverse=True)


def test_display_names_english_russian_ukrainian():
    # rule S2: Russian letters Т К Д В
    assert [card_name(parse_card(t), "ru") for t in ("AS", "KH", "QD", "JC", "TS")] == \
        ["Т♠", "К♥", "Д♦", "В♣", "10♠"]
    assert card_name(parse_card("AS"), "uk") == "Т♠"
    assert card_name(parse_card("QH")) == "Q♥"
    assert suit_name(3, "ru") == "трефы" and suit_name(0, "uk") == "піки"


def test_masks_and_hand_text():
    m = mask_of([parse_card("AS"), parse_card("2C")])
    assert cards_of(m) == (12, 39)
    assert hand_str(m) == "A.-.-.2"
    assert parse_suit("nt") == 4 and parse_suit("d") == 2
