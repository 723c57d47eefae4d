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

from engine.actions import play
from engine.cards import mask_of, parse_card
from engine.robots.inference import decisions, equal_choice, layout_weight, resample
from engine.robots.rules import RulesRobot
from engine.robots.sampling import Memory, deal_layouts
from engine.robots.strong import StrongRobot
from engine.state import ACTING, Phase
from engine.variants import find_variant

from .kit import hand, rules_robots_play

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


def test_equal_choice_is_the_rules_card_among_equals_else_the_lowest():
    """Seed 001, necessary rule 15: of equal cards, the lower when not leading.
    Cards of quitted tricks join a sequence; a card still out parts it."""
    ks, qs, ts = parse_card("KS"), parse_card("QS"), parse_card("TS")
    held = hand("KQT.A..")
    assert equal_choice(ks, parse_card("AH"), held, 0) == qs        # K and Q equal: the lower
    assert equal_choice(ks, ks, held, 0) == ks                      # ... unless the rules card is the K
    assert equal_choice(ts, parse_card("AH"), held, 0) == ts        # the J is out: the 10 stands alone
    assert equal_choice(ks, parse_card("AH"), held, hand("J...")) == ts   # the J gone: K, Q and 10 are equal
    assert equal_choice(ks, qs, held, hand("J...")) == qs



def _equal_players_play(seed: int, cards: int):
    """Each seat picks a random legal card and plays the one of its equals it would
    play (``equal_choice``, the rules robot advising); answers the game and the
    situation of the seat to act next, as its memory has it."""
    game, rng = _game(seed), random.Random(seed)
    robots = {s: RulesRobot() for s in "NESW"}
    memories = {s: Memory() for s in "NESW"}
    for _ in range(cards):
        seat = game.to_act
        view = game.view(seat)
        memories[seat].observe(view)
        advice = robots[seat].choose(view).card
        legal = [parse_card(a) for a in view["legal"]]
        core = game.hand
        gone = mask_of(core.plays[:4 * len(core.winners)])
        card = equal_choice(legal[rng.randrange(len(legal))], advice, core.hands["NESW".index(seat)], gone)
        game.apply(play(card))
    seat = game.to_act
    return game, memories[seat].situation(game.view(seat))


def test_reading_equal_cards_keeps_the_truth_and_drops_what_the_play_denies():
    """With the reading of equal cards certain (p_equal = 1), the true layout of
    players who keep it always weighs something, and over a few deals some
    layouts the play so far allows weigh nothing: a seat that followed with
    the higher of two equal cards did not hold the lower."""
    dropped = 0
    for seed in range(12):
        game, sit = _equal_players_play(seed, 6 + 3 * seed)
        truth = [mask_of(parse_card(c) for c in game.view(s)["hand"]) for s in "NESW"]
        assert layout_weight(sit, truth, P_OPP, P_PARTNER, p_equal=1.0) > 0
        for layout in deal_layouts(sit, random.Random(seed), 40):
            plain = layout_weight(sit, sit.hands(layout), P_OPP, P_PARTNER)
            read = layout_weight(sit, sit.hands(layout), P_OPP, P_PARTNER, p_equal=1.0)
            assert read in (0.0, plain)
            dropped += read == 0.0 < plain
    assert dropped > 0
