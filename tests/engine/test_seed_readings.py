"""Readings of the rules settled from the seed texts (issue 23; docs/rules.md,
"Readings settled from the seeds"). Each test builds the hands of its case and
cites its rule and the seed line it follows; each fails if the reading were
reverted.
"""

import random

import pytest

from engine.cards import BIT, card_str, parse_card
from engine.game import Rubber
from engine.rules import RulesError, preset
from engine.scoring import score_hand
from engine.state import Phase, packets_json
from engine.variants import find_variant
from engine.variants.bid_rules import BidOptions, hand_points as bid_hand_points
from engine.variants.seating import DUMMY
from engine.variants.prussian import HUMBUG, HUMBURG, PRUSSIAN

from .kit import hand

SPADES = 0                      # the trump of the classic layouts below
ALL = [card_str(c) for c in range(52)]


def suit(letter: str, ranks: str = "23456789TJQKA") -> list[str]:
    return [r + letter for r in ranks]


def layout(**placed: str) -> tuple[int, int, int, int]:
    """Four hands of 13 (N, E, S, W masks): the cards named go to their seat
    (``N="AS KS"``), the rest are dealt round in order to fill each to 13."""
    seats = "NESW"
    hands: dict[str, list[str]] = {s: placed.get(s, "").split() for s in seats}
    used = {c for cards in hands.values() for c in cards}
    rest = [c for c in ALL if c not in used]
    for seat in seats:
        while len(hands[seat]) < 13:
            hands[seat].append(rest.pop(0))
    masks = []
    for seat in seats:
        mask = 0
        for text in hands[seat]:
            mask |= BIT[parse_card(text)]
        masks.append(mask)
    return masks[0], masks[1], masks[2], masks[3]


# --- 1. Prussian whist: two honours against none score nothing ----------------------------

# Trump diamonds (the 2D turned by S, the dealer). S's packet holds KD QD; N's packet no
# trump honour; AD and JD lie in E's packet, which is dead when both keep.
PRUSSIAN_PACKETS = {"N": "432.AKQJT98765..", "E": ".432.AJT9876543.",
                    "S": "AKQJT98765..KQ2.", "W": "...AKQJT98765432"}


def prussian_hand(**options):
    variant = find_variant({"name": "prussian", **options} if options else "prussian")
    game = variant.new_game(first_dealer="S")
    packets = {label: hand(pbn) for label, pbn in PRUSSIAN_PACKETS.items()}
    game.start_deal({"dealer": "S", "hands": packets_json(packets), "trump_card": "2D"})
    for decision in ("keep", "keep"):
        game.apply(decision)
    rng = random.Random(0)
    while game.phase == Phase.PLAY:
        game.apply(rng.choice(game.legal_actions()))
    return game.score()["hands"][0]


def test_prussian_two_honours_against_none_score_nothing():
    # rule P1, seed 001 (line 82): "два онера за два пункта, но только в случае, если у
    # противника лишь один онер": S holds KD QD, N none (AD JD are dead): no honours
    last = prussian_hand()
    assert not [i for i in last["items"] if i["what"] == "honours"]
    assert PRUSSIAN.prussian_two_vs_none == "no_score"


def test_prussian_two_against_none_score_two_on_option():
    # rule P1, the other reading kept as an option: prussian_two_vs_none = "score"
    last = prussian_hand(prussian_two_vs_none="score")
    assert {"what": "honours", "seat": "S", "points": 2} in last["items"]
    assert last["above"]["S"] >= 2


# --- 2. Long whist: honours count like tricks, toward the game ---------------------------

ONE_SUIT_EACH = {"N": suit("S"), "E": suit("H"), "S": suit("D"), "W": suit("C")}


def test_long_whist_game_reached_on_honours_in_one_hand():
    # rule L4, seed 001 (line 12): "Онеры засчитываются так же, как и взятки": N holds every
    # spade (trump, N deals and turns the 2S): 13 tricks = 7 points, four honours 4 more,
    # all below the line: 11 of 10 wins the first game in one hand
    game = find_variant("long").new_game(first_dealer="N")
    game.start_deal({"dealer": "N", "hands": ONE_SUIT_EACH, "trump_card": "2S"})
    while game.phase == Phase.PLAY:
        game.apply(game.legal_actions()[0])
    first = game.score()["games"][0]
    assert first["below"] == {"NS": 11, "EW": 0} and first["above"] == {"NS": 0, "EW": 0}
    assert first["winner"] == "NS" and len(game.score()["games"]) == 2


def test_long_whist_honours_alone_finish_a_game():
    # rule L4, seed 001 (line 12): N-S at 7 take six tricks but hold all four honours:
    # 7 + 4 = 11, they win the game though E-W took the hand (E-W 1)
    rubber = Rubber(preset("long"))
    rubber.add_hand((13, 0))
    honours = layout(N="AS KS", S="QS JS")
    rubber.add_hand((6, 7), deal_hands=honours, trump=SPADES)
    first = rubber.games[0]
    assert first.below == [11, 1] and first.winner == 0
    assert first.value == 2                      # L2b: losers at 1 of 10: a double game


def test_long_whist_losers_honours_make_a_single_game():
    # rules L2b, L4, seed 001 (line 12): the losers' honours count toward their points: E-W
    # lose the game at 3 + 4 = 7 of 10, a single game (at 3 it would be double)
    rubber = Rubber(preset("long"))
    rubber.add_hand((4, 9), deal_hands=layout(E="AS KS QS JS"), trump=SPADES)   # E-W 3 + 4
    assert rubber.games[0].below == [0, 7]
    rubber.add_hand((13, 0))                                                    # N-S 7
    rubber.add_hand((10, 3))                                                    # N-S 11
    assert rubber.games[0].winner == 0 and rubber.games[0].below == [11, 7]
    assert rubber.games[0].value == 1


def test_tricks_score_before_honours():
    # rule L4 (the seed is silent on the order): E-W at 9 take seven tricks (10), N-S at 6
    # hold four honours (10): both reach the target in one hand; the tricks count first
    rubber = Rubber(preset("long"))
    rubber.add_hand((12, 1))                                                    # N-S 6
    rubber.add_hand((0, 13))                                                    # E-W 7
    rubber.add_hand((5, 8))                                                     # E-W 9
    rubber.add_hand((6, 7), deal_hands=layout(N="AS KS QS JS"), trump=SPADES)
    assert rubber.games[0].below == [10, 10] and rubber.games[0].winner == 1


def test_long_whist_honours_above_the_line_on_option():
    # rule L4, the old reading kept as an option: honours_line = "above" writes them above
    # the line, where the English settlement (L2b) never counts them
    rules = preset("long", honours_line="above")
    rubber = Rubber(rules)
    rubber.add_hand((13, 0))
    rubber.add_hand((6, 7), deal_hands=layout(N="AS KS", S="QS JS"), trump=SPADES)
    assert rubber.games[0].below == [7, 1] and rubber.games[0].above == [4, 0]
    assert rubber.games[0].winner is None
    assert rules.to_json() == {"name": "long", "honours_line": "above"}
    with pytest.raises(RulesError):
        preset("long", honours_line="beside")


def test_long_whist_rubber_settled_with_honours():
    # rules L2b, L4, seed 001 (line 12): honours decide who wins the games, and so the
    # rubber; the old reading (honours above) gives another result from the same hands
    split = layout(N="AS KS", E="QS JS")             # two against two: nothing
    hands = [((6, 7), layout(N="AS KS QS JS")),      # N-S 4, E-W 1
             ((6, 7), layout(S="AS KS QS JS")),      # N-S 8, E-W 2
             ((8, 5), split),                        # N-S 10: game, E-W at 2: double
             ((5, 8), layout(N="AS KS QS JS")),      # game 2: N-S 4, E-W 2
             ((6, 7), layout(S="AS KS QS JS")),      # N-S 8, E-W 3
             ((8, 5), split)]                        # N-S 10: game and rubber, E-W at 3: double
    new = Rubber(preset("long"))
    for tricks, deal_hands in hands:
        new.add_hand(tricks, deal_hands=deal_hands, trump=SPADES)
    assert new.winner == 0 and [g.value for g in new.games] == [2, 2]
    assert new.points() == (2 + 2 + 2, 0)            # two double games and the rubber's 2
    old = Rubber(preset("long", honours_line="above"))
    for tricks, deal_hands in hands:
        old.add_hand(tricks, deal_hands=deal_hands, trump=SPADES)
    assert old.winner is None and old.games[0].below == [4, 5]    # tricks only, no game yet


# --- 3. the bonuses: Prussian whist against Humbug and Humburg ------------------------------

def test_prussian_bonuses_game_0_rubber_20():
    # rule P1, seed 001 laws after Prussian whist (line 89): "К партии не приписывается
    # ничего, а к робберу обыкновенно прибавляют 20"
    assert (PRUSSIAN.game_bonus, PRUSSIAN.rubber_bonus) == (0, 20)
    assert _rubber_points("prussian") == (2 * (14 + 24) + 20) - (14 + 24)


def test_humbug_and_humburg_bonuses_game_5_rubber_10():
    # rules P2, P3, seed 001 (line 168: Humbug "играется по всем правилам обыкновенного",
    # line 150: "К окончанию партии приписывают 5 очков, к окончанию робера — 10")
    for opts in (HUMBUG, HUMBURG):
        assert (opts.game_bonus, opts.rubber_bonus) == (5, 10)
    assert _rubber_points("humbug") == (2 * (14 + 25) + 2 * 5 + 10) - (14 + 25 + 5)
    assert _rubber_points("humburg") == (2 * 4 * (14 + 25) + 2 * 5 + 10) - (4 * (14 + 25) + 5)


def _rubber_points(name: str) -> int:
    """N wins a game holding every spade (trump), S the next holding them, N the third:
    each a grand slam (14 below, slam 20 and honours above); N's net points."""
    packets = {"N": "AKQJT98765432...", "E": ".AKQJT98765432..",
               "S": "..AKQJT98765432.", "W": "...AKQJT98765432"}
    swapped = {**packets, "N": packets["S"], "S": packets["N"]}
    game = find_variant(name).new_game(first_dealer="N")
    for dealer, layout_ in (("N", packets), ("S", swapped), ("N", packets)):
        turned = "2S"
        raw = {"dealer": dealer, "hands": packets_json({k: hand(v) for k, v in layout_.items()}),
               "trump_card": turned}
        game.start_deal(raw)
        game.apply("keep")
        game.apply("keep")
        while game.phase == Phase.PLAY:
            game.apply(game.legal_actions()[0])
    score = game.score()
    assert game.phase == Phase.OVER and score["winner"] == "N" and score["points"]["S"] == 0
    return int(score["points"]["N"])


# --- 3. Russian scoring: a flat 5 a game and 10 a rubber ----------------------------------

def test_russian_rubber_has_flat_bonuses_no_game_values():
    # rules L5, L6, seed 001 (line 150): "К окончанию партии приписывают 5 очков, к окончанию
    # робера — 10"; lines 159-161: the difference of all points settles it. A game won
    # with the losers at nothing earns no treble: the same 5 as any other
    rules = preset("russian", coronets=False, honours=None)
    clean = Rubber(rules)
    for tricks in [(11, 2), (11, 2)]:               # 10 and 10, E-W nothing
        clean.add_hand(tricks)
    assert clean.points() == (20 + 2 * 5 + 10, 0)
    close = Rubber(rules)
    for tricks in [(8, 5), (5, 8), (5, 8), (8, 5), (7, 6), (11, 2)]:   # E-W at 8 in game 1
        close.add_hand(tricks)
    assert [g.below for g in close.games] == [[10, 8], [10, 0]]
    assert close.points() == (20 - 8 + 2 * 5 + 10, 0)


def test_russian_three_game_rubber_every_game_won_writes_its_5():
    # rule L6, seed 001 (line 150): each game won writes its 5, the rubber's losers' too;
    # no game value of theirs is taken off (the English count, L2b, would)
    rules = preset("russian", coronets=False, honours=None)
    rubber = Rubber(rules)
    for tricks in [(11, 2), (2, 11), (11, 2)]:
        rubber.add_hand(tricks)
    assert rubber.winner == 0 and rubber.points() == ((20 + 10 + 10) - (10 + 5), 0)


# --- 3. bid whist: the loss stops at the bid below six books -----------------------------

E_TRUMPS = "BJ LJ AS KS QS JS TS 9S 8S 7S 6S 5S"       # E: the twelve top trumps


def bid_set_hand(**options):
    """N bids 4 uptown and names spades; E holds the twelve top trumps and wins every
    trick: N-S have the kitty's one book."""
    given = {"N": "2H 3H 4H 5H 6H 7H 2D 3D 4D 5D 6D 7D".split(), "E": E_TRUMPS.split(),
             "kitty": "2C 3C 4C 5C 6C 7C".split()}
    rest = [card_str(c) for c in range(54) if card_str(c) not in sum(given.values(), [])]
    hands = {"N": given["N"], "E": given["E"], "S": rest[:12], "W": rest[12:], "kitty": given["kitty"]}
    game = find_variant({"name": "bid", **options} if options else "bid").new_game(first_dealer="W")
    game.start_deal({"dealer": "W", "hands": hands})
    for action in ("4 uptown", "pass", "pass", "pass", "trump S", "discard 2C 3C 4C 5C 6C 7C"):
        game.apply(action)
    while game.phase == Phase.PLAY:
        game.apply(game.legal_actions()[0])
    return game


def test_bid_whist_set_below_six_books_loses_the_bid():
    # rule B5, seed 002 (line 62, 86): "перші шість хабарів не варті очок"; line 87: a side
    # set "втрачає стільки очок, скільки не було вгадано": one book is no points, 4 not
    # reached: -4, not the 9 books short
    game = bid_set_hand()
    entry = game.hand_log[-1]
    assert entry["books"] == 1 and entry["points"] == -4
    assert game.score()["totals"] == {"NS": -4, "EW": 0}
    books = bid_set_hand(set_loss="shortfall_books").hand_log[-1]
    assert books["points"] == -9                  # the other reading, an option


def test_bid_whist_set_above_six_books_loses_the_shortfall():
    # rule B5, seed 002 (line 87): bid 7, three points made (9 books): -4; so bid 4 with 8
    # books: -2 (the option set_loss = "bid" would say -4)
    assert bid_hand_points(7, 9, False, BidOptions()) == -4
    assert bid_hand_points(4, 8, False, BidOptions()) == -2
    assert bid_hand_points(4, 8, False, BidOptions(set_loss="bid")) == -4


# --- 3. dummy whist: 7 NT doubled once ------------------------------------------------------

DUMMY_SUITS = {"N": suit("S"), "E": suit("H"), "S": suit("D"), DUMMY: suit("C")}


def seven_nt(hands, **options):
    """N bids 7 NT (E and S pass first: N deals), uptown; N leads spades while he can."""
    variant = find_variant({"name": "dummy", **options} if options else "dummy")
    game = variant.new_game(first_dealer="N")
    game.start_deal({"dealer": "N", "hands": hands})
    for action in ("pass", "pass", "7 NT", "uptown"):
        game.apply(action)
    while game.phase == Phase.PLAY:
        legal = [str(a) for a in game.legal_actions()]
        spades = [c for c in legal if c.endswith("S")] if game.to_act == "N" else []
        game.apply((spades or legal)[0])
    return game.score()


def test_dummy_seven_no_trump_made_doubles_once():
    # rule Y4, seed 003 (line 38: a bid of 7 "часто дает двойной результат"; line 39: no
    # trump "иногда может забить дважды"): 7 NT is doubled once: 13 books, 7 x 2 = 14
    score = seven_nt(DUMMY_SUITS)
    assert score["hands"][0]["books"] == 13 and score["hands"][0]["made"]
    assert score["totals"] == {"N": 14, "E": 0, "S": 0}
    assert seven_nt(DUMMY_SUITS, double_stack="multiply")["totals"]["N"] == 28


def test_dummy_seven_no_trump_set_doubles_once():
    # rule Y4, seed 003 (lines 35, 38, 39): set, each opponent scores the bid, doubled once:
    # N's twelve spades win, E's last heart takes the thirteenth book
    hands = {**DUMMY_SUITS, "N": suit("S", "3456789TJQKA") + ["2H"],
             "E": suit("H", "3456789TJQKA") + ["2S"]}
    score = seven_nt(hands)
    assert score["hands"][0]["books"] == 12 and not score["hands"][0]["made"]
    assert score["totals"] == {"N": 0, "E": 14, "S": 14}
    assert seven_nt(hands, double_stack="multiply")["totals"] == {"N": 0, "E": 28, "S": 28}


# --- 3. the russian preset's honours: five, three scoring 2 --------------------------------

@pytest.mark.parametrize("placed, russian, general", [
    ({"N": "AS KS", "S": "QS", "E": "JS", "W": "TS"}, 2, 3),   # three of five: 2; of four: 3
    ({"N": "KS QS JS TS", "E": "AS"}, 4, 3),                   # the ten is an honour there
    ({"N": "AS KS QS JS TS"}, 5, 4),
    ({"N": "AS KS", "E": "QS JS", "S": "TS"}, 2, 0),           # the ten breaks two against two
])
def test_russian_preset_five_honours_three_score_two(placed, russian, general):
    # rule L4, seed 001, Russian laws (line 89): "онерами считаются туз, король, дама, валет
    # и десятка козырная"; line 145: "за них записывается 5 очков, за четыре онера — 4, за
    # три — 2"; the general default, line 12: "за три онера — 3 понта"
    deal_hands = layout(**placed)
    ru = score_hand((7, 6), preset("russian"), deal_hands=deal_hands, trump=SPADES)
    assert [(side, p) for what, side, p in ru.items if what == "honours"] == [(0, russian)]
    assert ru.below == (2, 0)                    # L5; the honours above the line (line 151)
    long = score_hand((7, 6), preset("long"), deal_hands=deal_hands, trump=SPADES)
    assert long.below == (1 + general, 0) and long.above == (0, 0)   # honours like tricks


def test_russian_honours_stay_above_the_line():
    # rule L5, seed 001 (line 152): the game needs 10 below the line; honours are written
    # above it (line 151) and count only in the settlement
    rubber = Rubber(preset("russian", coronets=False))
    rubber.add_hand((10, 3), deal_hands=layout(N="AS KS QS JS TS"), trump=SPADES)
    assert rubber.games[0].below == [8, 0] and rubber.games[0].above == [5, 0]
    assert rubber.games[0].winner is None
