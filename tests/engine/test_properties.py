"""Hypothesis properties of play, records and scoring."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import BIT, SUIT_MASK, SUIT_OF
from engine.deal import deal_hands
from engine.game import Game
from engine.play import HandState, IllegalPlay
from engine.record import replay, to_record
from engine.rules import preset
from engine.scoring import hand_points

from .kit import deals

# No deadline and no "too slow" check: a loaded machine is slow, not wrong.
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
choices = st.lists(st.integers(0, 12), min_size=52, max_size=52)


def start(d) -> HandState:
    perm, dealer, trump = d
    hands = deal_hands(list(perm), dealer)
    if trump == 4:
        return HandState(hands, dealer, 4)
    turned = perm[51]
    return HandState(hands, dealer, SUIT_OF[turned], turned)


def play_through(state, picks, check=None):
    for pick in picks:
        if state.complete:
            break
        moves = state.legal_moves()
        if check:
            check(state, moves)
        state.play(moves[pick % len(moves)])
    return state


@FAST
@given(deals, choices)
def test_each_card_once_and_13_tricks(d, picks):
    # rules S6.5, S5: every card played exactly once, 13 tricks, pooled per side
    s = play_through(start(d), picks)
    assert s.complete and sorted(s.plays) == list(range(52))
    assert len(s.winners) == 13 and sum(s.tricks) == 13
    assert s.hands == [0, 0, 0, 0]


def _no_revoke(state, moves):
    hand = state.hands[state.turn]
    if state.n:
        follow = hand & SUIT_MASK[state.led_suit]
        if follow:
            assert all(BIT[c] & follow for c in moves)
        for c in range(52):
            if hand & BIT[c] and c not in moves:
                try:
                    state.copy().play(c)
                except IllegalPlay as exc:
                    assert exc.reason == "must_follow_suit"
                else:
                    raise AssertionError("play accepted a card legal_moves refused")
    else:
        assert set(moves) == {c for c in range(52) if hand & BIT[c]}


@FAST
@given(deals, choices)
def test_legal_never_allows_a_revoke(d, picks):
    # rules S6.2, S6.3, L8: legal moves follow suit when possible, anything when void
    play_through(start(d), picks, _no_revoke)


@FAST
@given(deals, choices, st.integers(0, 52))
def test_replay_reproduces_the_state(d, picks, stop):
    s = play_through(start(d), picks[:stop])
    rules = preset("short") if s.trump_card is not None else preset("short", trump="none")
    assert replay(to_record(s, rules)) == s


@FAST
@given(deals, st.integers(0, 2**32), st.integers(0, 51))
def test_playout_plays_by_the_same_rules(d, seed, stop):
    # playout() is the inlined rollout: it must pick and score exactly like play()
    a = play_through(start(d), [seed % 13] * stop)
    b = a.copy()
    tricks = a.playout(random.Random(seed))
    rnd = random.Random(seed).random
    while not b.complete:
        moves = b.legal_moves()
        b.play(moves[int(rnd() * len(moves))])
    assert a == b and tricks == tuple(b.tricks)


@FAST
@given(st.lists(st.integers(0, 13), min_size=1, max_size=40))
def test_short_whist_points_never_negative(ns_tricks):
    # rule S7.1: never negative; totals only grow (S7.2)
    game = Game(preset("short"))
    before = [0, 0]
    for ns in ns_tricks:
        pts = hand_points((ns, 13 - ns))
        assert min(pts) == 0 and max(pts) == max(0, ns - 6, 7 - ns)
        if game.winner is None:
            game.add_hand((ns, 13 - ns))
            assert game.below[0] >= before[0] and game.below[1] >= before[1]
            before = list(game.below)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(
        ["AS", "10D", "td", "N", "E", "S", "W", "NT", "H", "short", "drive", "XX", ""]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["rules", "dealer", "hands", "trump_card", "trump", "plays", "result",
                         "hand_number", "N", "E", "S", "W", "NS", "EW"]), inner, max_size=6),
    max_leaves=30)


@FAST
@given(json_values)
def test_check_record_never_crashes_on_any_json(data):
    # the command-line contract: an answer, or a ValueError the CLI turns into exit 2
    from engine.validate import check_record
    try:
        answer = check_record(data)
    except ValueError:
        return
    assert answer["valid"] in (True, False)


@FAST
@given(st.integers(0, 1000), st.integers(0, 52), st.lists(st.tuples(
    st.sampled_from(["rules", "dealer", "hands", "trump_card", "trump", "plays", "result",
                     "hand_number"]), json_values), max_size=3))
def test_check_record_never_crashes_on_damaged_records(seed, stop, damage):
    from engine.deal import deal, new_rng
    from engine.validate import check_record
    rng = new_rng(seed)
    s = HandState.from_deal(deal(seed % 4, rng))
    play_through(s, [rng.randrange(13) for _ in range(stop)])
    rec = to_record(s, preset("short"))
    for key, value in damage:
        rec[key] = value
    try:
        answer = check_record(rec)
    except ValueError:
        return
    assert answer["valid"] in (True, False)
