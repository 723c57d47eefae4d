"""Helpers for the engine tests: layouts written like PBN, random deals."""

import io
import json
import random
from contextlib import redirect_stdout

import pytest
from hypothesis import strategies as st

from engine.cards import BIT, RANK_LETTERS, parse_card
from engine.deal import deal_hands
from engine.actions import parse_action
from engine.cli import main
from engine.errors import EngineError, IllegalAction
from engine.games import replay_game
from engine.play import HandState
from engine.robots import RulesRobot
from engine.robots.sampling import Memory
from engine.state import Phase
from engine.variants import find_variant


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


# --- whole games of any preset ---------------------------------------------------

def advance(rules, seed: int, steps: int, check=None):
    """A game of ``rules`` after ``steps`` random legal actions, dealing when
    due; ``check(game)`` after each step. Returns the game and its rng."""
    rng = random.Random(seed)
    game = find_variant(rules).new_game(rng)
    for _ in range(steps):
        if game.phase == Phase.OVER:
            break
        if game.phase in (Phase.DEAL, Phase.SCORED):
            game.deal(rng)
        else:
            game.apply(rng.choice(game.legal_actions()))
        if check:
            check(game)
    return game, rng


def rules_robots_play(game, cards: int) -> dict:
    """Four rules robots play ``cards`` actions of ``game``, each seat remembering what
    its views showed; answers the memories by seat (the strong and pimc robots' view)."""
    robots = {s: RulesRobot() for s in "NESW"}
    memories = {s: Memory() for s in "NESW"}
    for _ in range(cards):
        seat = game.to_act
        view = game.view(seat)
        memories[seat].observe(view)
        game.apply(robots[seat].choose(view))
    return memories


def run_cli(*argv) -> str:
    """``python -m engine ARGS`` in this process: its standard output."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(list(argv)) == 0
    return out.getvalue()


def cards_in(value) -> set:
    """Every card written anywhere in a view (a list, an object, or text)."""
    found = set()
    if isinstance(value, dict):
        for v in value.values():
            found |= cards_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= cards_in(v)
    elif isinstance(value, str):
        for word in value.split():
            try:
                found.add(parse_card(word))
            except EngineError:
                pass
    return found


def assert_replays(game) -> None:
    """The record, through JSON, rebuilds the same game, score and views."""
    again = replay_game(json.loads(json.dumps(game.record())))
    assert again == game and again.score() == game.score()
    assert [again.view(s) for s in game.variant.seats] == [game.view(s) for s in game.variant.seats]


def assert_refuses_the_illegal(game, candidates, pick: int) -> None:
    """One of ``candidates`` (action texts) that is not a legal action now is
    refused with a rule and a reason, and changes nothing: record, phase, the
    player to act, every view. Discards are single cards here: a longer one
    is its cards in turn, legal when each is."""
    legal = {str(a) for a in game.legal_actions()}
    refusable = [a for a in candidates if str(parse_action(a)) not in legal]
    assert all(len(parse_action(a).cards) <= 1 for a in refusable)
    before = (game.record(), game.phase, game.to_act, [game.view(s) for s in game.variant.seats])
    with pytest.raises(IllegalAction) as err:
        game.apply(refusable[pick % len(refusable)])
    assert err.value.rule and err.value.reason
    assert (game.record(), game.phase, game.to_act,
            [game.view(s) for s in game.variant.seats]) == before
