"""The strong robot's inference from the play (engine/robots/inference.py).

Layouts are weighed by how well the rules robot's play explains the cards the
other seats played; the weighing reads only the seat's view (its memory of
the views) and the layout dealt, so two deals the seat cannot tell apart give
the same decisions, and a seed gives the same decisions on every run.
"""

import copy
import math
import random

from hypothesis import given, settings, strategies as st

from engine.cards import mask_of, parse_card
from engine.robots.inference import decisions, layout_weight, resample
from engine.robots.rules import RulesRobot
from engine.robots.sampling import deal_layouts
from engine.robots.strong import StrongRobot
from engine.state import ACTING, Phase
from engine.variants import find_variant

from .kit import rules_robots_play

P_OPP, P_PARTNER = 0.8, 0.6


def _game(seed: int, raw: dict | None = None):
    variant = find_variant("short")
    game = variant.new_game(first_dealer="NESW"[seed % 4])
    if raw is None:
        game.deal(random.Random(seed))
    else:
        game.start_deal(copy.deepcopy(raw))
    return game


def _raw(game) -> dict:
    return {k: v for k, v in copy.deepcopy(game.deals[0]).items() if k != "actions"}


def _played(seed, cards):
    """Four rules robots play `cards` actions of a deal, each seat remembering what it saw;
    answers the game and the situation of the seat to act next, as its memory has it."""
    game = _game(seed)
    memories = rules_robots_play(game, cards)
    seat = game.to_act
    return game, memories[seat].situation(game.view(seat))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(4, 48))
def test_the_replay_explains_every_card_of_rules_robots(seed, stop):
    """Four rules robots play; at any point the weighing, replaying the rules
    robot on the true hands, finds the card each seat played every time:
    with certainty (p = 1) the true layout weighs 1 and a layout weighs 0 or
    1; with p < 1 the true layout is never weighed 0."""
    game, sit = _played(seed, stop)
    assert decisions(sit) > 0
    truth = [mask_of(parse_card(c) for c in game.view(s)["hand"]) for s in "NESW"]
    assert layout_weight(sit, truth, 1.0, 1.0) == 1.0
    assert layout_weight(sit, truth, P_OPP, P_PARTNER) > 0
    for layout in deal_layouts(sit, random.Random(seed), 30):
        assert layout_weight(sit, sit.hands(layout), 1.0, 1.0) in (0.0, 1.0)


def test_second_hand_low_makes_a_lower_card_unlikely():
    """The rules robot plays second hand low (seed 001, A1): a layout giving
    the second hand a lower card of the suit than it played weighs less than
    one that does not."""
    for seed in range(40):
        _, sit = _played(seed, 2)
        weights = [layout_weight(sit, sit.hands(lay), P_OPP, P_PARTNER)
                   for lay in deal_layouts(sit, random.Random(seed), 60)]
        if len(set(weights)) > 1:
            assert max(weights) / min(weights) > 3
            return
    raise AssertionError("no deal where the first two cards told anything")


def test_resample_draws_in_proportion():
    drawn = resample([0.0, 1.0, 3.0, 0.0], 8, 0.5)
    assert drawn == {1: 2, 2: 6}
    assert sum(resample([0.2] * 7, 5, 0.99).values()) == 5
    assert sum(resample([0.0, 0.0], 3, 0.3).values()) >= 2      # no weight at all: the first layouts


def _swap_unplayed(raw: dict, played: set, keep: str) -> dict | None:
    """The same deal with two unplayed cards of one suit swapped between two
    hands other than ``keep``'s: every play so far stays legal and the same."""
    others = [s for s in "NESW" if s != keep]
    for i, a in enumerate(others):
        for b in others[i + 1:]:
            for ca in raw["hands"][a]:
                for cb in raw["hands"][b]:
                    if ca[1] == cb[1] and ca not in played and cb not in played and raw["trump_card"] not in (ca, cb):
                        out = copy.deepcopy(raw)
                        out["hands"][a] = sorted(set(out["hands"][a]) - {ca} | {cb})
                        out["hands"][b] = sorted(set(out["hands"][b]) - {cb} | {ca})
                        return out
    return None


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(6, 30))
def test_views_alike_hidden_cards_apart_give_the_same_decisions(seed, stop):
    """Two deals the strong seat cannot tell apart (hidden cards swapped
    between two other hands, the same cards played): its views are equal and
    its decisions, inference from the play included, are the same (the
    clock's cap off: a choice, not a speed)."""
    first = _game(seed)
    seat = "NESW"[seed % 4]
    actions = []
    for _ in range(stop):
        action = RulesRobot().choose(first.view(first.to_act))
        actions.append(action)
        first.apply(action)
    played = {str(a) for a in actions}
    raw = _swap_unplayed(_raw(first), played, seat)
    if raw is None:
        return
    games = [_game(seed, _raw(first)), _game(seed, raw)]
    assert games[0].deals[0]["hands"] != games[1].deals[0]["hands"]
    robots = [StrongRobot(seed=7, samples=4, early_samples=3, lead_samples=2, candidates=40,
                          cap_seconds=math.inf) for _ in games]
    inferred = False
    for action in actions + [None]:
        if games[0].to_act == seat and games[0].phase in ACTING:
            views = [g.view(seat) for g in games]
            assert views[0] == views[1]
            choices = [r.choose(copy.deepcopy(v)) for r, v in zip(robots, views)]
            assert choices[0] == choices[1]
            sit = robots[0].memories[seat].situation(views[0])
            inferred |= decisions(sit) > 0
        if action is None:
            break
        for g in games:
            g.apply(action)
    assert inferred or stop < 8


def test_the_same_seed_makes_the_same_choices_with_inference():
    """A whole short-whist hand, strong in every seat with the inference on:
    the same seed, the same cards, run after run."""
    runs = []
    for _ in range(2):
        game = _game(3)
        robots = {s: StrongRobot(seed=5, samples=4, early_samples=3, lead_samples=2, candidates=40,
                              cap_seconds=math.inf)
                  for s in "NESW"}
        out = []
        while game.phase in ACTING:
            action = robots[game.to_act].choose(game.view(game.to_act))
            out.append(str(action))
            game.apply(action)
        assert game.phase in (Phase.SCORED, Phase.OVER)
        runs.append(out)
    assert runs[0] == runs[1]
