"""Post-hand analysis (issue 13): the deal's double-dummy result agrees with
DDS asked directly, and a card known to lose a trick is flagged."""

import random

import pytest

from engine.analysis import AnalysisError, analyse, card_values
from engine.cards import card_str
from engine.state import ACTING
from engine.tricks import TrickPlay
from engine.variants import find_variant

from .dds_oracle import best_tricks


def finished(name: str, seed: int, choose=None):
    rng = random.Random(seed)
    game = find_variant(name).new_game(rng=rng)
    game.deal(rng)
    while game.phase in ACTING:
        actions = game.legal_actions()
        game.apply(choose(game, actions) if choose else actions[rng.randrange(len(actions))])
    return game


@pytest.mark.parametrize("seed", range(4))
def test_the_deals_result_agrees_with_dds(seed):
    name = ("short", "no_trump", "siberian", "short")[seed]
    game = finished(name, seed)
    core = game.hand
    leader = core.first_leader if isinstance(core, TrickPlay) else (core.dealer + 1) & 3
    best = best_tricks(core.deal_hands, leader, core.trump)
    out = analyse(game.record())
    side = "NS" if leader & 1 == 0 else "EW"
    assert out["double_dummy"][side] == best
    assert sum(out["double_dummy"].values()) == 13
    assert sum(out["tricks"].values()) == 13
    assert all(p["cost"] >= 0 and p["before"] - p["after"] == p["cost"] for p in out["plays"])


def test_a_losing_card_in_an_ending_is_flagged():
    """Perfect leads until three tricks are left, then a lead that gives a trick
    away (found double dummy): the analysis flags it with its cost."""
    blunder = {}

    def choose(game, actions):
        tp = TrickPlay(game.hand.hands, (0, 1, 2, 3), game.hand.turn, game.hand.trump)
        values = card_values(tp) if not game.hand.n else None
        cards = [a.card for a in actions]
        if values is None:
            return actions[0]
        best = max(values.values())
        if not blunder and len(game.hand.plays) >= 40:
            worse = [c for c in cards if values[c] < best]
            if worse:
                blunder["card"], blunder["index"] = worse[0], len(game.hand.plays)
                return actions[cards.index(worse[0])]
        return actions[[values[c] for c in cards].index(best)]

    for seed in range(20):
        blunder.clear()
        game = finished("no_trump", seed, choose)
        if blunder:
            break
    out = analyse(game.record())
    flagged = [i for i, p in enumerate(out["plays"]) if p["cost"]]
    assert blunder["index"] in flagged
    assert out["plays"][blunder["index"]]["card"] == card_str(blunder["card"])
    assert out["plays"][blunder["index"]]["cost"] >= 1


def test_two_card_tricks_are_not_analysed():
    with pytest.raises(AnalysisError):
        analyse(finished("prussian", 1).record())


@pytest.mark.parametrize("name, seed", [("short", 1), ("short", 2), ("enfilade", 3), ("no_trump", 4), ("siberian", 5)])
def test_the_whole_play_in_one_dds_call_values_every_card_as_each_position_solved(name, seed):
    """analyse() values a hand DDS can play with one AnalysePlay call (its table kept along
    the play); each card's before, after and cost are those of solving the position before
    it, card by card, as the review did before (the last trick's forced cards too)."""
    game = finished(name, seed)
    core = game.hand
    leader = core.first_leader if isinstance(core, TrickPlay) else (core.dealer + 1) & 3
    tp = TrickPlay(core.deal_hands, (0, 1, 2, 3), leader, core.trump, getattr(core, "ranking", "uptown"))
    out = analyse(game.record())
    assert len(out["plays"]) == 52
    for entry, card in zip(out["plays"], core.plays):
        side = tp.turn & 1
        won = tp.won[side] + tp.won[side + 2]
        values = card_values(tp)
        assert entry["card"] == card_str(card)
        assert (entry["before"], entry["after"]) == (won + max(values.values()), won + values[card]), entry
        tp.play(card)
