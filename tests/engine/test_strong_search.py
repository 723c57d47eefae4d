"""The strong robot's search (issue 23): where it spends its layouts.

- a choice among equal cards is no choice: no layout is solved;
- the budget by the stage of the hand (the opening lead, the first tricks,
  the last ones) and more layouts only where the top two cards are close.
"""

import copy
import random

from engine.cards import parse_card
from engine.robots.sampling import Memory
from engine.robots.strong import StrongRobot, equivalent
from engine.state import ACTING
from engine.variants import find_variant


def _view(hand: list[str], legal: list[str], played: list[str], trick: list[tuple[str, str]]) -> dict:
    """A bare short-whist view of N's, the tricks before it summed up."""
    done = (len(played) - len(trick)) // 4
    return {"rules": "short", "seat": "N", "phase": "play", "to_act": "N", "dealer": "W", "hands_played": 0,
            "legal": legal, "hand": hand, "trump": "H", "trump_card": None,
            "trick": [{"seat": s, "card": c} for s, c in trick], "tricks": {"NS": done, "EW": 0},
            "last_trick": None, "played": played, "auction": [], "open_hands": {}, "score": {}}


def _situation(view: dict):
    return Memory().situation(view)


# --- equal cards: no search ------------------------------------------------------

def test_touching_cards_are_equivalent():
    view = _view(["QS", "JS", "2H"], ["QS", "JS"], [], [("E", "3S")])
    sit = _situation(view)
    assert equivalent(sit, [parse_card("QS"), parse_card("JS")])


def test_a_card_out_between_parts_them():
    view = _view(["QS", "9S", "2H"], ["QS", "9S"], [], [("E", "3S")])
    sit = _situation(view)
    assert not equivalent(sit, [parse_card("QS"), parse_card("9S")])
    gone = ["TS", "JS", "4D", "5D"]              # the ten and the jack already played: equal now
    view = _view(["QS", "9S", "2H"], ["QS", "9S"], gone + ["3S"], [("E", "3S")])
    assert equivalent(_situation(view), [parse_card("QS"), parse_card("9S")])


def test_a_card_in_the_trick_in_progress_parts_them():
    gone = ["TS", "4D", "5D", "6D"]             # the ten gone, the jack led to this trick: the queen covers it, the nine does not
    view = _view(["QS", "9S", "2H"], ["QS", "9S"], gone + ["JS"], [("E", "JS")])
    assert not equivalent(_situation(view), [parse_card("QS"), parse_card("9S")])


def test_two_suits_are_never_equivalent():
    view = _view(["QS", "JH"], ["QS", "JH"], [], [])
    assert not equivalent(_situation(view), [parse_card("QS"), parse_card("JH")])


def test_no_layout_is_solved_for_equal_cards(monkeypatch):
    solved = []
    monkeypatch.setattr(StrongRobot, "card_values", lambda self, *a, **k: solved.append(1) or {})
    view = _view(["QS", "JS", "2H"], ["QS", "JS"], [], [("E", "3S")])
    robot = StrongRobot(seed=1, deadline_seconds=None)
    assert str(robot.choose(view)) in view["legal"] and not solved


# --- the budget --------------------------------------------------------------------

def _decision(seed: int, cards: int):
    """A short-whist game ``cards`` cards in, the seat to act with a choice, and its situation."""
    rng = random.Random(seed)
    game = find_variant("short").new_game(rng=rng)
    game.deal(rng)
    memories: dict = {}
    for _ in range(cards):
        memories.setdefault(game.to_act, Memory()).observe(game.view(game.to_act))
        game.apply(game.legal_actions()[0])
    while len(game.legal_actions()) < 2:
        memories.setdefault(game.to_act, Memory()).observe(game.view(game.to_act))
        game.apply(game.legal_actions()[0])
    view = game.view(game.to_act)
    return game, view, memories.setdefault(game.to_act, Memory()).situation(view)


def test_the_budget_follows_the_stage_of_the_hand():
    robot = StrongRobot(samples=20, early_samples=10, lead_samples=8, late_samples=40, late_from=6,
                        extra=30, extend_from=9, deadline_seconds=None)
    _, _, lead = _decision(1, 0)
    assert robot.budget(lead) == (8, 8)
    _, _, early = _decision(1, 2)
    assert early.tricks_left >= 12 and robot.budget(early) == (10, 10)
    _, _, middle = _decision(1, 4 * 4)
    assert middle.tricks_left == 9 and robot.budget(middle) == (20, 50)
    _, _, late = _decision(1, 4 * 8)
    assert late.tricks_left <= 6 and robot.budget(late) == (40, 70)


def _count_solves(monkeypatch, robot, view, values) -> int:
    calls = []

    def fake(self, sit, layout, legal, stop=None):
        calls.append(layout)
        return values(legal)

    monkeypatch.setattr(StrongRobot, "card_values", fake)
    robot.choose(copy.deepcopy(view))
    return len(calls)


def test_more_layouts_only_where_the_top_two_are_close(monkeypatch):
    _, view, sit = _decision(4, 4 * 5)
    assert not equivalent(sit, [parse_card(c) for c in view["legal"]])
    kwargs = dict(samples=6, late_samples=6, extra=10, close=0.5, candidates=0, deadline_seconds=None)
    level = _count_solves(monkeypatch, StrongRobot(seed=2, **kwargs), view, lambda legal: dict.fromkeys(legal, 3.0))
    assert level == 16                          # a close call: the budget and the extension
    apart = _count_solves(monkeypatch, StrongRobot(seed=2, **kwargs), view,
                          lambda legal: {c: 3.0 + 2 * (c == legal[0]) for c in legal})
    assert apart == 6                           # one card clear of the rest: the budget only


def test_the_same_seed_and_position_give_the_same_card_with_the_extension():
    _, view, _ = _decision(5, 4 * 7 + 1)
    cards = {str(StrongRobot(seed=3, samples=4, late_samples=4, extra=6, close=0.3,
                             deadline_seconds=None).choose(copy.deepcopy(view))) for _ in range(2)}
    assert len(cards) == 1 and cards <= set(view["legal"])


def _bid_whist_play(seed: int):
    """A bid-whist hand bid and begun by rules robots, up to the first play
    with a choice where DDS cannot value the layouts (the jokers make a suit
    of more than 13 cards, or sit in no trump): the engine's search does."""
    from engine.robots.rules import RulesRobot
    rng = random.Random(seed)
    game = find_variant("bid").new_game(rng=rng)
    game.deal(rng)
    robots = {s: RulesRobot() for s in "NESW"}
    probe = StrongRobot(seed=0, deadline_seconds=None)
    while game.phase in ACTING:
        view = game.view(game.to_act)
        if view["phase"] == "play" and len(view["legal"]) > 1:
            sit = Memory().situation(view)
            if not probe.solvable(sit):
                return view
        game.apply(robots[game.to_act].choose(view))
    return None


def test_the_engine_search_solves_at_most_search_samples_layouts(monkeypatch):
    """The engine's own search costs several times a DDS solve: where it
    values the layouts, ``search_samples`` caps them (the decision's CPU time
    in bid whist, issue 23)."""
    view = next(v for v in map(_bid_whist_play, range(1, 30)) if v is not None)
    kwargs = dict(samples=20, early_samples=20, lead_samples=20, late_samples=20, extra=10, close=9.0,
                  candidates=0, deadline_seconds=None)
    capped = _count_solves(monkeypatch, StrongRobot(seed=2, search_samples=4, **kwargs), view,
                           lambda legal: dict.fromkeys(legal, 1.0))
    assert capped == 4
    free = _count_solves(monkeypatch, StrongRobot(seed=2, search_samples=None, **kwargs), view,
                         lambda legal: dict.fromkeys(legal, 1.0))
    assert free > 4
