import random

import pytest

from engine.cards import NO_TRUMP
from engine.game import Game, GameOver, Rubber, play_game
from engine.rules import preset
from engine.scoring import (coronet_points, coronet_value, game_value, hand_points, honours_points,
                            revoke_adjustment, score_hand, slam_points)

from .kit import hand


def layout(n, e, s, w):
    return (hand(n), hand(e), hand(s), hand(w))


# Honours layouts in spades (trump 0); the rest of each hand does not matter here.
def with_spades(n="", e="", s="", w=""):
    return layout(n + "...", e + "...", s + "...", w + "...")


def test_only_the_side_over_six_scores():
    # rule S7.1: one point per trick over six; the other side scores zero, never negative
    assert hand_points((9, 4)) == (3, 0)
    assert hand_points((6, 7)) == (0, 1)
    assert hand_points((0, 13)) == (0, 7)


def test_running_total_first_to_five_wins_no_exact_hit():
    # rule S7.2: points add up; the first side to reach at least 5 after a hand wins
    game = Game(preset("short"))
    game.add_hand((8, 5))
    game.add_hand((5, 8))
    assert game.winner is None and game.below == [2, 2]
    game.add_hand((11, 2))
    assert game.winner == 0 and game.below == [7, 2]      # 7 > 5 still wins
    with pytest.raises(GameOver):
        game.add_hand((7, 6))


def test_no_draw_possible():
    # rule S7.2: only one side scores a hand, so both never reach the target together
    for seed in range(200):
        rng = random.Random(seed)
        game = Game(preset("short"))
        while game.winner is None:
            ns = rng.randrange(14)
            game.add_hand((ns, 13 - ns))
        assert sum(1 for b in game.below if b >= 5) == 1


def test_worked_example():
    # rule S8: 9 tricks to 4: 9-6 = 3 points; a side at 2 goes to 5 and wins;
    # the 4 tricks give the losers nothing
    assert hand_points((9, 4)) == (3, 0)
    game, used = play_game(preset("short"), [(8, 5), (9, 4), (7, 6)])
    assert used == 2 and game.winner == 0
    assert game.below == [5, 0]


def test_game_continues_until_won():
    # rule S7.3: otherwise play another hand (the deal passes left: deal.next_dealer)
    game, used = play_game(preset("short"), [(7, 6), (6, 7), (7, 6)])
    assert game.winner is None and used == 3 and game.below == [2, 1]


@pytest.mark.parametrize("target", [7, 10])
def test_longer_targets(target):
    # rules S9, L3: targets of 7 or 10
    game, used = play_game(preset(f"short{target}"), [(11, 2)] * 3)   # 5 points a hand
    assert game.winner == 0 and used == 2 and game.below[0] == 10
    game, used = play_game(preset(f"short{target}"), [(8, 5)] * 6)     # 2 points a hand
    assert used == (4 if target == 7 else 5)


def test_no_honours_in_short_whist():
    # rule S9: no honours
    hands = with_spades(n="AKQJ")
    assert score_hand((7, 6), preset("short"), deal_hands=hands, trump=0).above == (0, 0)


def test_honours_scheme_three():
    # rule L4 (first scheme, the default): all four 4, three 3; two each nothing
    r = preset("short", honours="three")
    assert honours_points(with_spades(n="AK", s="QJ"), 0, r) == (4, 0)
    assert honours_points(with_spades(e="AKQ", s="J"), 0, r) == (0, 3)
    assert honours_points(with_spades(n="AK", e="QJ"), 0, r) == (0, 0)


def test_honours_scheme_two_for_three():
    # rule L4 (second scheme, "за три — 2")
    r = preset("short", honours="two")
    assert honours_points(with_spades(e="AKQ", s="J"), 0, r) == (0, 2)
    assert honours_points(with_spades(w="AKQJ"), 0, r) == (0, 4)


def test_honours_with_the_ten():
    # rule L4: the ten optionally an honour: all five 5, four 4, three by the scheme
    three = preset("short", honours="three", honours_ten=True)
    two = preset("short", honours="two", honours_ten=True)
    assert honours_points(with_spades(n="AKQJT"), 0, three) == (5, 0)
    assert honours_points(with_spades(n="AKQJ", e="T"), 0, three) == (4, 0)
    assert honours_points(with_spades(n="AKQ", e="JT"), 0, three) == (3, 0)
    assert honours_points(with_spades(n="AKQ", e="JT"), 0, two) == (2, 0)


def test_russian_trick_value_double():
    # rule L5: two points a trick over six; game at 10 = five odd tricks
    r = preset("russian")
    assert hand_points((11, 2), r) == (10, 0)
    game = Game(r)
    game.add_hand((11, 2))
    assert game.winner == 0


def test_slams():
    # rule L6: small slam +10, grand slam +20, above the line
    r = preset("russian")
    assert slam_points((12, 1), r) == (10, 0) and slam_points((0, 13), r) == (0, 20)
    assert slam_points((12, 1), preset("short")) == (0, 0)
    hs = score_hand((13, 0), r)
    assert hs.below == (14, 0) and hs.above == (20, 0)


def test_coronets_values():
    # rule L7: A-K-Q 5 (10), A-K-Q-J 10 (20), A to 10 20 (40), A to 8 25 (50), +5 (+10) a card
    assert [coronet_value(n, False) for n in (2, 3, 4, 5, 7, 8, 13)] == [0, 5, 10, 20, 25, 30, 55]
    assert [coronet_value(n, True) for n in (3, 4, 5, 7, 8)] == [10, 20, 40, 50, 60]
    assert coronet_value(6, False) == 20     # A to 9 is not listed: it scores as A to 10


def test_coronets_in_one_hand_trumps_double():
    # rule L7: sequences in one hand; in trumps double
    r = preset("russian")
    hands = layout("AKQ.AKQJ..", "", "", "")
    assert coronet_points(hands, 1, r) == (5 + 20, 0)
    split = layout("AK...", "...", "Q...", "...")
    assert coronet_points(split, 0, r) == (0, 0)       # split between partners: no coronet


def test_no_trump_whist():
    # rule L11: no trump suit, aces are the honours, coronets all count double
    r = preset("no_trump")
    aces = layout("A.A.A.", "...A", "", "")
    assert honours_points(aces, NO_TRUMP, r) == (3, 0)
    assert coronet_points(layout("AKQ...", "", "", ""), NO_TRUMP, r) == (10, 0)


def test_revoke_penalty_three_tricks_or_five_points():
    # rule L8: three tricks to the opponents, or 5 points; applied as an adjustment
    tricks = preset("short", revoke_penalty="tricks")
    points = preset("short", revoke_penalty="points")
    assert revoke_adjustment((8, 5), 0, tricks) == ((5, 8), (0, 0))
    assert revoke_adjustment((8, 5), 1, tricks) == ((11, 2), (0, 0))
    assert revoke_adjustment((12, 1), 1, tricks) == ((13, 0), (0, 0))   # only what they have
    assert revoke_adjustment((8, 5), 0, points) == ((8, 5), (0, 5))
    assert score_hand((8, 5), tricks, revoke_by=0).below == (0, 2)
    assert score_hand((8, 5), points, revoke_by=0).above == (0, 5)


def test_special_suit_doubles_every_score():
    # rule L9: when trump is the special suit, every score of the hand counts double
    r = preset("special_suit")
    hands = with_spades(n="AKQJT")
    plain = score_hand((9, 4), r, deal_hands=hands, trump=0, special_suit=2)
    double = score_hand((9, 4), r, deal_hands=hands, trump=0, special_suit=0)
    assert double.below == (plain.below[0] * 2, 0) and double.above == (plain.above[0] * 2, 0)


def test_special_suit_turned_each_game():
    # rule L9: a special suit is turned at the start of each game
    rubber = Rubber(preset("special_suit"), random.Random(3))
    assert rubber.current.special_suit in range(4)
    rubber.add_hand((13, 0))
    assert len(rubber.games) == 2 and rubber.games[1].special_suit in range(4)


def test_enfilade_carries_points_over():
    # rule L10: points beyond the target carry to the next game (8 + 4 -> 2 carried)
    rubber = Rubber(preset("enfilade", special_suit=False))
    rubber.add_hand((10, 3))       # 8
    rubber.add_hand((8, 5))        # +4 = 12 of 10
    assert rubber.games[0].winner == 0 and rubber.games[1].below == [2, 0]
    plain = Rubber(preset("russian"))
    plain.add_hand((10, 3))
    plain.add_hand((8, 5))
    assert plain.games[1].below == [0, 0]


def test_rubber_best_of_three():
    # rule L2: best of three games; after 2-0 the third is not played
    r = preset("rubber")
    rubber = Rubber(r)
    for _ in range(2):
        rubber.add_hand((13, 0))       # 7 points: a game each hand
    assert rubber.winner == 0 and len(rubber.games) == 2
    assert rubber.cut_again          # players cut again for partners after each rubber
    with pytest.raises(GameOver):
        rubber.add_hand((7, 6))
    third = Rubber(r)
    for tricks in [(13, 0), (0, 13), (13, 0)]:
        third.add_hand(tricks)
    assert third.winner == 0 and len(third.games) == 3


def test_game_values_single_double_treble():
    # rule L2b: to five, losers at 3-4 single, 1-2 double, 0 treble;
    # to ten (and the Russian count) 5+ single, 1-4 double, 0 treble
    five, ten = preset("short"), preset("long")
    assert [game_value(p, five) for p in (4, 3, 2, 1, 0)] == [1, 1, 2, 2, 3]
    assert [game_value(p, ten) for p in (8, 5, 4, 1, 0)] == [1, 1, 2, 2, 3]
    russian = preset("russian")
    assert [game_value(p, russian) for p in (6, 4, 0)] == [1, 2, 3]   # seed 001: six, four, none


def test_english_rubber_points():
    # rule L2b: +2 to the winners; the value of a game the losers won is deducted
    rubber = Rubber(preset("rubber"))
    for tricks in [(13, 0),                      # game 1: N-S 7-0, treble
                   (3, 10), (7, 6), (5, 8),      # game 2: E-W 6-1, double
                   (10, 3), (6, 7), (8, 5)]:     # game 3: N-S 6-1, double
        rubber.add_hand(tricks)
    assert [g.value for g in rubber.games] == [3, 2, 2]
    assert rubber.winner == 0
    assert rubber.points() == (3 + 2 + 2 - 2, 0)


def test_russian_rubber_points():
    # rules L5, L6: game bonus 5, rubber bonus 10; the difference is the result
    rubber = Rubber(preset("russian", coronets=False, honours=None))
    rubber.add_hand((11, 2))       # 10: game
    rubber.add_hand((11, 2))       # 10: game and rubber
    assert rubber.points() == (10 + 10 + 5 + 5 + 10, 0)


def test_hand_scores_never_negative_with_everything_on():
    r = preset("russian")
    for ns in range(14):
        hs = score_hand((ns, 13 - ns), r)
        assert min(hs.below + hs.above) >= 0
