import random

import pytest

from engine.cards import NO_TRUMP, card_str, parse_card
from engine.play import MUST_FOLLOW_SUIT, NOT_IN_HAND, IllegalPlay, trick_winner

from .kit import SUIT_EACH, cards, play_all, random_state, state

# N: high spades, low hearts; E: all diamonds; S: high hearts, low clubs; W: the rest
MIXED = ("AKQJT98.765432..", "..AKQJT98765432.", ".AKQJT98..765432", "765432...AKQJT98")


def mixed(trump=0, dealer=3):
    return state(*MIXED, dealer=dealer, trump=trump)


def test_mixed_layout_is_a_full_deck():
    st = mixed()
    assert sum(bin(h).count("1") for h in st.hands) == 52
    assert st.hands[0] | st.hands[1] | st.hands[2] | st.hands[3] == (1 << 52) - 1


def test_left_of_dealer_leads_any_card_trump_included():
    # rule S6.1
    st = mixed(trump=0, dealer=3)
    assert st.to_play == 0
    assert len(st.legal_moves()) == 13
    st.play(parse_card("AS"))                     # a trump lead is allowed
    st = mixed(trump=0, dealer=0)
    assert st.to_play == 1


def test_must_follow_suit():
    # rule S6.2
    for seed in range(200):
        st = random_state(seed)
        lead = st.legal_moves()[0]
        st.play(lead)
        follower = st.hands[st.to_play]
        same = [c for c in range(52) if follower >> c & 1 and c // 13 == lead // 13]
        other = [c for c in range(52) if follower >> c & 1 and c // 13 != lead // 13]
        if same and other:
            assert set(st.legal_moves()) == set(same)
            with pytest.raises(IllegalPlay) as exc:
                st.play(other[0])
            assert exc.value.reason == MUST_FOLLOW_SUIT and exc.value.index == 1
            return
    pytest.fail("no position with a choice found")


def test_void_may_play_any_card_no_duty_to_trump():
    # rule S6.3: void in the suit led, any card; no duty to trump or to overtrump
    st = state(*SUIT_EACH, dealer=3, trump=1)       # hearts trump, E holds them all
    st.play(parse_card("2S"))
    assert len(st.legal_moves()) == 13             # E is void in spades
    st.play(parse_card("2H"))                       # E trumps
    st.play(parse_card("AD"))                       # S discards: no duty to overtrump
    st.play(parse_card("AC"))
    assert st.winners == [1]


def test_highest_trump_wins_else_highest_of_suit_led():
    # rule S6.4
    c = cards
    assert trick_winner(c("5S", "KS", "AH", "2S"), 0, trump=3) == 1     # no trump in it: K of suit led
    assert trick_winner(c("5S", "KS", "AH", "2C"), 0, trump=3) == 3     # a trump wins
    assert trick_winner(c("5S", "3C", "AH", "4C"), 2, trump=3) == 1     # higher trump wins (seat 2+3)
    assert trick_winner(c("5S", "AD", "AH", "AC"), 0, trump=NO_TRUMP) == 0  # discards never win


def test_engine_trick_winner_matches_function_on_random_hands():
    # rule S6.4, through HandState.play
    for seed in range(50):
        st = random_state(seed)
        rngs = random.Random(seed)
        while not st.complete:
            moves = st.legal_moves()
            st.play(moves[rngs.randrange(len(moves))])
        for t in range(13):
            leader, trick, winner = st.trick(t)
            assert trick_winner(trick, leader, st.trump) == winner


def test_winner_leads_next_and_all_13_tricks_pooled():
    # rule S6.5
    st = random_state(11)
    rng = random.Random(1)
    while not st.complete:
        if st.n == 0 and st.winners:
            assert st.to_play == st.winners[-1]
        moves = st.legal_moves()
        st.play(moves[rng.randrange(len(moves))])
    assert len(st.winners) == 13 and sum(st.tricks) == 13
    assert st.tricks[0] == sum(1 for w in st.winners if w in (0, 2))
    assert st.to_play is None and st.legal_moves() == ()


def test_not_in_hand_leaves_state_unchanged():
    st = random_state(2)
    foreign = next(c for c in range(52) if st.hands[(st.turn + 1) & 3] >> c & 1)
    before = st.copy()
    with pytest.raises(IllegalPlay) as exc:
        st.play(foreign)
    assert exc.value.reason == NOT_IN_HAND and st == before


def test_trump_card_visible_until_dealer_plays_to_first_trick():
    # rule S5: the turned card stays visible until the dealer plays to the first trick
    st = random_state(5, dealer=2)
    assert st.trump_card is not None and st.trump_card_visible
    rng = random.Random(0)
    for i in range(3):
        st.play(st.legal_moves()[rng.randrange(len(st.legal_moves()))])
        assert st.trump_card_visible
        seat = (st.dealer + 2 + i) & 3
        assert st.view(seat).trump_card == st.trump_card
    assert st.to_play == st.dealer
    st.play(st.legal_moves()[0])
    assert not st.trump_card_visible and st.view(0).trump_card is None


def test_seat_view_hides_other_hands():
    # a per-seat view holds exactly what that seat may see
    st = random_state(7)
    v = st.view(2)
    assert v.hand == st.hands[2] and v.open_hands == {}
    assert not hasattr(v, "hands")
    assert v.legal == (st.legal_moves() if st.to_play == 2 else ())
    play_all(st, card_str(st.legal_moves()[0]))
    assert st.view(3).played == 1 << st.plays[0]


def test_look_back_last_trick_or_more():
    # rule L2c: the last trick is always viewable; an event may allow more
    st = random_state(8)
    rng = random.Random(3)
    while len(st.winners) < 3:
        st.play(st.legal_moves()[rng.randrange(len(st.legal_moves()))])
    assert st.view(0).quitted_tricks == [st.trick(2)] == [st.last_trick()]
    assert st.view(0, look_back=13).quitted_tricks == [st.trick(0), st.trick(1), st.trick(2)]


def test_dummy_lies_open_to_the_player_who_plays_it():
    # rule L12: three players, one plays with an open dummy; the engine is seat-based,
    # the dummy's hand shows in the views and scoring is as for four
    st = random_state(9)
    view = st.view(0, open_seats=(2,))
    assert view.open_hands == {2: st.hands[2]}
    assert st.view(1, open_seats=(2,)).open_hands == {2: st.hands[2]}


def test_revoke_impossible_online():
    # rule L8: online play makes a revoke impossible
    st = state(*MIXED, dealer=3, trump=0)
    st.play(parse_card("7H"))                 # N leads a heart; E has none, S has hearts
    st.play(parse_card("AD"))
    with pytest.raises(IllegalPlay):
        st.play(parse_card("2C"))               # S holds hearts: must follow
    st.play(parse_card("AH"))


def test_copy_is_independent_and_equal():
    st = random_state(4)
    st.play(st.legal_moves()[0])
    twin = st.copy()
    assert twin == st and twin is not st
    twin.play(twin.legal_moves()[0])
    assert twin != st and len(st.plays) == 1


def test_event_log():
    st = random_state(6)
    rng = random.Random(6)
    for _ in range(8):
        st.play(st.legal_moves()[rng.randrange(len(st.legal_moves()))])
    log = st.events()
    assert log[0]["event"] == "deal"
    assert [e["event"] for e in log[1:]].count("play") == 8
    assert [e["winner"] for e in log if e["event"] == "trick"] == ["NESW"[w] for w in st.winners]
    assert [e["seat"] for e in log if e["event"] == "play"][0] == "NESW"[(st.dealer + 1) & 3]


def test_playout_finishes_from_the_middle_of_a_trick():
    st = random_state(12)
    st.play(st.legal_moves()[0])
    st.play(st.legal_moves()[0])
    tricks = st.playout(random.Random(1))
    assert st.complete and sum(tricks) == 13 and tricks == tuple(st.tricks)
    assert st.playout(random.Random(2)) == tricks       # a finished hand stays finished
