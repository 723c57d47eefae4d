"""Helpers for the engine tests: layouts written like PBN, random deals."""

import random

from hypothesis import strategies as st

from engine.cards import BIT, RANK_LETTERS, parse_card
from engine.deal import deal_hands
from engine.play import HandState


def hand(pbn: str) -> int:
    """``"AKQ.JT9..432"`` (spades.hearts.diamonds.clubs) -> mask."""
    mask = 0
    for suit, ranks in enumerate(pbn.split(".")):
        for r in ranks:
            mask |= BIT[13 * suit + RANK_LETTERS.index(r)]
    return mask


def state(n, e, s, w, dealer=3, trump=0, trump_card=None) -> HandState:
    """A hand state from four PBN hands; by default W deals so N leads."""
    return HandState((hand(n), hand(e), hand(s), hand(w)), dealer, trump, trump_card)


def cards(*texts):
    return [parse_card(t) for t in texts]


def play_all(state: HandState, *texts) -> HandState:
    for t in texts:
        state.play(parse_card(t))
    return state


def random_state(seed: int, dealer: int = 0, trump: int | None = None) -> HandState:
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = deal_hands(deck, dealer)
    t = deck[51] // 13 if trump is None else trump
    return HandState(hands, dealer, t, deck[51] if trump is None else None)


def play_random(state: HandState, rng: random.Random, count: int = 52) -> HandState:
    for _ in range(min(count, 52 - len(state.plays))):
        moves = state.legal_moves()
        state.play(moves[rng.randrange(len(moves))])
    return state


# A deal where every seat holds one whole suit: every follow is a void.
SUIT_EACH = ("AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432")

deals = st.builds(lambda perm, dealer, trump: (tuple(perm), dealer, trump),
                  st.permutations(range(52)), st.integers(0, 3), st.integers(0, 4))
