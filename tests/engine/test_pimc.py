"""The ``pimc`` robot (issue 23): plain Perfect Information Monte Carlo from one
seat's view.

It plays only legal cards, given a copy of its view and nothing else; its
layouts never contradict the view (the seat's own hand, the cards gone, the
voids shown, the turned card with the dealer); the hidden cards do not change
its choice; a seed and a position give the same card. Small budgets keep it
quick: strength is bench/robots.py's business, not the tests'.
"""

import copy
import random

import pytest

from engine.cards import BIT, SUIT_MASK, parse_card
from engine.deal import deal as deal_cards
from engine.play import HandState
from engine.robots import ROBOTS, LiveView
from engine.robots import pimc as pimc_module
from engine.robots.pimc import PimcRobot, best_of
from engine.rules import PRESETS
from engine.state import ACTING, Phase
from engine.variants import find_variant

from .kit import rules_robots_play


def _start(name: str, seed: int):
    rng = random.Random(seed)
    game = find_variant(name).new_game(rng=rng)
    game.deal(rng)
    return game


def test_pimc_is_registered():
    assert ROBOTS["pimc"] is PimcRobot
    assert PimcRobot().samples == 20              # the yardstick: 20 layouts a decision


@pytest.mark.parametrize("seed, name", list(enumerate(("short", "bid", "dummy", "three_handed", "siberian"))))
def test_pimc_plays_only_legal_actions_from_a_copy_of_the_view(name, seed):
    game = _start(name, seed)
    robots = {s: PimcRobot(seed=seed, samples=2, nodes=60) for s in game.variant.seats}
    while game.phase in ACTING:
        view = copy.deepcopy(game.view(game.to_act))
        action = robots[game.to_act].choose(view)
        assert str(action) in view["legal"]
        game.apply(action)
    assert game.phase in (Phase.SCORED, Phase.OVER)


def test_pimc_plays_legal_cards_on_the_fast_path():
    rng = random.Random(5)
    for number in range(2):
        d = deal_cards(number, rng, PRESETS["short"])
        state = HandState.from_deal(d)
        live = LiveView(d.dealer, d.trump, d.trump_card)
        robots = [PimcRobot(seed=number, samples=3) for _ in range(4)]
        while not state.complete:
            seat = state.turn
            view = live.show(seat, state.hands[seat])
            view.legal = tuple(state.legal_moves())
            card = robots[seat].choose_card(view)
            assert card in view.legal
            state.play(card)
            live.advance(card, None if state.n else state.winners[-1])


def _position(seed: int, cards: int):
    """A short-whist game ``cards`` cards in (rules robots playing), with the
    memory of each seat of what its views showed."""
    game = _start("short", seed)
    return game, rules_robots_play(game, cards)


def test_the_same_seed_and_position_give_the_same_card():
    game, _ = _position(3, 21)
    view = game.view(game.to_act)
    cards = {str(PimcRobot(seed=4, samples=6).choose(copy.deepcopy(view))) for _ in range(3)}
    assert len(cards) == 1 and cards <= set(view["legal"])


def test_the_hidden_cards_do_not_change_the_card():
    """Two deals alike for the seat to act, its partner's and an opponent's
    hands swapped: the same view, the same card."""
    base = find_variant("short").new_game(first_dealer="W")
    base.deal(random.Random(8))
    raw = {k: v for k, v in copy.deepcopy(base.deals[0]).items() if k != "actions"}
    twin_raw = copy.deepcopy(raw)
    twin_raw["hands"]["E"], twin_raw["hands"]["S"] = raw["hands"]["S"], raw["hands"]["E"]
    twin = find_variant("short").new_game(first_dealer="W")
    twin.start_deal(twin_raw)
    for game in (base, twin):                   # W leads its lowest club, or any card: the same in both
        game.apply(game.legal_actions()[0])
    assert base.view("N")["hand"] == twin.view("N")["hand"]
    first = PimcRobot(seed=1, samples=5).choose(base.view("N"))
    assert first == PimcRobot(seed=1, samples=5).choose(twin.view("N"))


def test_layouts_respect_what_the_seat_knows(monkeypatch):
    """Every layout the robot solves holds no card the seat saw played or
    holds, no card of a suit a seat showed out of, and the turned trump card
    with the dealer while it is unplayed."""
    for seed in range(40):
        game, memories = _position(seed, 14 + seed % 20)
        seat = game.to_act
        view = game.view(seat)
        sit = memories[seat].situation(view)
        voids = {p: m for p, m in sit.forbidden.items() if p in sit.counts and any(   # a suit shown out of
            m & SUIT_MASK[s] == sit.pool & SUIT_MASK[s] != 0 for s in range(4))}
        if voids:
            break
    else:
        raise AssertionError("no position with a void shown")
    gone = 0
    for card in view.get("played") or []:
        gone |= BIT[parse_card(card)]
    seen: list[list[int]] = []

    def spy(sit_, layout, legal, nodes):
        hands = sit_.hands(layout)
        seen.append(hands)
        return {c: 0.0 for c in legal}

    monkeypatch.setattr(pimc_module, "layout_values", spy)
    robot = PimcRobot(seed=2, samples=12)
    robot.memories[seat] = copy.deepcopy(memories[seat])   # what the seat's earlier views showed
    robot.choose(copy.deepcopy(view))
    assert len(seen) == 12
    own = sit.to_play
    for hands in seen:
        assert hands[own] == sit.known[own]
        for p in sit.counts:
            assert hands[p] & sit.known[own] == 0 and hands[p] & sit.forbidden[p] == 0
            assert hands[p].bit_count() == sit.counts[p]
        for p, mask in voids.items():
            assert hands[p] & mask == 0
        assert not any(hands[p] & gone for p in range(4))


def test_a_turned_trump_card_stays_with_the_dealer(monkeypatch):
    """Before the dealer plays it, the turned card is in the dealer's hand in every layout."""
    game = _start("short", 12)
    view = game.view(game.to_act)
    turned = view.get("trump_card")
    assert turned and game.to_act != view["dealer"]
    seen: list[list[int]] = []
    monkeypatch.setattr(pimc_module, "layout_values",
                        lambda sit, layout, legal, nodes: seen.append(sit.hands(layout)) or {c: 0.0 for c in legal})
    robot = PimcRobot(seed=3, samples=8)
    robot.choose(copy.deepcopy(view))
    dealer = "NESW".index(view["dealer"])
    assert len(seen) == 8 and all(h[dealer] & BIT[parse_card(turned)] for h in seen)


def test_ties_go_to_the_lowest_card():
    game, memories = _position(6, 9)
    sit = memories[game.to_act].situation(game.view(game.to_act))
    legal = [parse_card(c) for c in game.view(game.to_act)["legal"]]
    level = {c: 5.0 for c in legal}
    low = min(legal, key=lambda c: (c % 13, c))
    assert best_of(level, legal, sit) == low
    level[legal[-1]] = 6.0
    assert best_of(level, legal, sit) == legal[-1]
