"""Agreement with the DDS double-dummy solver bundled in endplay.

Legal cards at every step and trick winners (endplay's own trick_winner, and
DDS values of the last three tricks against the engine's exhaustive search).
DDS keeps state in thread slot 0: call it from this one thread only.
"""

import random

import pytest

from engine.cards import NO_TRUMP, RANK_LETTERS, SUIT_LETTERS, card_str, parse_card

from .dds_oracle import best_tricks, dds_deal, endplay  # endplay: a test dependency, never skipped
from .kit import random_state


def dds_card(card: int):
    return endplay().Card(SUIT_LETTERS[card // 13] + RANK_LETTERS[card % 13])


def our_card(card) -> int:
    return parse_card(card.rank.abbr + card.suit.abbr)


def ns_final(state) -> int:
    """N-S tricks at the end under perfect play (N-S maximise, E-W minimise)."""
    if state.complete:
        return state.tricks[0]
    values = []
    for c in state.legal_moves():
        nxt = state.copy()
        nxt.play(c)
        values.append(ns_final(nxt))
    return max(values) if state.turn & 1 == 0 else min(values)


def dds_tricks_for_leader(state) -> int:
    return best_tricks(state.hands, state.turn, state.trump)


@pytest.mark.parametrize("seed", range(40))
def test_legal_cards_and_trick_winners_agree_with_dds(seed):
    trump = None if seed % 3 else NO_TRUMP
    state = random_state(seed, dealer=seed % 4, trump=trump)
    deal = dds_deal(state.hands, state.turn, state.trump)
    ep = endplay()
    rng = random.Random(seed)
    while not state.complete:
        if state.n == 0 and len(state.winners) == 10:
            # the last three tricks: DDS value vs exhaustive search through our play()
            left = 13 - len(state.winners)
            ns_more = ns_final(state) - state.tricks[0]
            ours = ns_more if state.turn & 1 == 0 else left - ns_more
            assert dds_tricks_for_leader(state) == ours
        dds_legal = {our_card(c) for c, _ in ep.solve_board(deal, ep.SolveMode.LegalAll)}
        assert dds_legal == set(state.legal_moves()), f"play {len(state.plays)}"
        moves = state.legal_moves()
        card = moves[rng.randrange(len(moves))]
        state.play(card)
        deal.play(dds_card(card))
        if state.n == 0:
            assert int(deal.first) == state.winners[-1], card_str(card)
