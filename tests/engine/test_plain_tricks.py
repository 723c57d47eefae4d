"""PlainTricks, the trick core of the deals without jokers, against TrickPlay:
the same legal actions, the same refusals and the same state after every card,
in four-handed tricks, N and S's two-card tricks (P1), the downtown ranking and
no trump (S6, B3)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import BIT, NO_TRUMP
from engine.errors import IllegalAction
from engine.tricks import PlainTricks, TrickPlay, trick_play

from .kit import deals
from .test_properties import start

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def same_state(a: TrickPlay, b: TrickPlay) -> None:
    for name in TrickPlay.__slots__:
        assert getattr(a, name) == getattr(b, name), name


def refusal(core: TrickPlay, card: int) -> tuple[object, ...] | None:
    try:
        core.copy().play(card)
    except IllegalAction as exc:
        return (type(exc), str(exc), exc.rule, exc.reason, exc.params)
    return None


@FAST
@given(deals, st.lists(st.integers(0, 12), min_size=52, max_size=52), st.sampled_from(["uptown", "downtown"]),
       st.booleans(), st.booleans(), st.integers(0, 53))
def test_plays_as_trick_play(d, picks, ranking, no_trump, two_seats, odd):
    fast = start(d)
    hands = list(fast.hands)
    seats = (0, 2) if two_seats else (0, 1, 2, 3)
    if two_seats:
        hands[1] = hands[3] = 0
    trump = NO_TRUMP if no_trump else fast.trump
    plain = trick_play(hands, seats, 2 if two_seats else 1, trump, ranking)
    general = TrickPlay(hands, seats, 2 if two_seats else 1, trump, ranking)
    assert type(plain) is PlainTricks
    for pick in picks:
        if general.complete:
            break
        assert plain.legal_actions() == general.legal_actions()
        assert plain.legal_moves() == general.legal_moves()
        for tried in (odd, (odd * 7 + pick) % 54, 99, -1):    # any card, held or not, followed or not
            assert refusal(plain, tried) == refusal(general, tried)
        card = general.legal_moves()[pick % len(general.legal_moves())]
        plain.play(card)
        general.play(card)
        same_state(plain, general)
        same_state(plain.copy(), general)
        assert type(plain.copy()) is PlainTricks
    assert plain.complete == general.complete


def test_a_deal_with_a_joker_keeps_the_jokers_core():
    hands = [BIT[52] | BIT[0], BIT[1] | BIT[2], BIT[3] | BIT[4], BIT[5] | BIT[53]]
    assert type(trick_play(hands, (0, 1, 2, 3), 0, NO_TRUMP)) is TrickPlay


@pytest.mark.parametrize("seats", [(0, 1, 2, 3), (0, 2)])
def test_a_card_not_held_is_refused_alike(seats):
    hands = [BIT[0] | BIT[13], BIT[1], BIT[2] | BIT[14], BIT[3]] if len(seats) == 4 else \
        [BIT[0] | BIT[13], 0, BIT[2] | BIT[14], 0]
    for card in (5, 13 if seats == (0, 2) else 40):
        assert refusal(trick_play(hands, seats, 0, 1), card) == refusal(TrickPlay(hands, seats, 0, 1), card)
