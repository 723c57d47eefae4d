"""The strong robot's deadline on the wall clock (issue 19).

A decision searches in a helper thread while the caller waits for
``deadline_seconds``: a solve that hangs (a starved process, a slow DDS call)
cannot hold the card back; at the deadline the best average so far is
played, or the rules robot's card if no layout was solved. DDS is never
entered by two threads at once (every solve uses DDS thread slot 0). With the deadline off or never reached, the cards are the ones the work
budget gave before the deadline existed.
"""

import copy
import math
import random
import threading
import time

import pytest

from engine.robots import solver
from engine.robots.rules import RulesRobot
from engine.robots.strong import StrongRobot
from engine.variants import find_variant

# Cards the strong robot chose before the deadline existed (commit 96bc36b,
# ``cap_seconds=math.inf``): (deal seed, random actions before, card).
OLD_CARDS = [(2, 5, "AD"), (3, 13, "JS"), (4, 22, "TS"), (5, 31, "8H"), (6, 40, "AD")]


def _view(seed: int, plays: int) -> dict:
    """A short-whist position with a choice: ``plays`` random actions in."""
    rng = random.Random(seed)
    game = find_variant("short").new_game(rng=rng)
    game.deal(rng)
    for _ in range(plays):
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    return game.view(game.to_act)


def _join_helpers() -> None:
    for t in threading.enumerate():
        if t.name == "strong-robot":
            t.join(5)


@pytest.fixture
def hanging_solve(monkeypatch):
    """solve_board answers the first ``fast`` calls, then hangs (holding the
    DDS lock) until the test ends."""
    release = threading.Event()
    real = solver.solve_board
    state = {"fast": 0, "calls": 0, "hanging": 0, "release": lambda: (release.set(), _join_helpers())}

    def solve(deal):
        state["calls"] += 1
        if state["calls"] > state["fast"]:
            state["hanging"] += 1
            release.wait(10)
            state["hanging"] -= 1
        return real(deal)

    monkeypatch.setattr(solver, "solve_board", solve)
    yield state
    release.set()
    _join_helpers()


@pytest.mark.parametrize("seed,plays", [(3, 13), (5, 31)])
def test_the_deadline_holds_when_a_solve_hangs(hanging_solve, seed, plays):
    """No layout solved by the deadline: the rules robot's card, on time."""
    view = _view(seed, plays)
    robot = StrongRobot(seed=1, deadline_seconds=0.3)
    action = robot.choose(copy.deepcopy(view))
    assert hanging_solve["hanging"] == 1            # answered while the solve still hangs: the deadline, not the solve
    assert str(action) in view["legal"]
    assert action == RulesRobot(1).choose(copy.deepcopy(view))
    assert robot.capped == 1


def test_at_the_deadline_the_best_average_so_far_is_played(hanging_solve):
    """Three layouts solved, then the solver hangs: the card is the one a
    robot sampling just those three layouts plays (uniform layouts: the
    first three of ten are the three of three). Here three layouts give QD,
    ten give 2D and the rules robot AD: neither the whole search nor the
    fallback."""
    hanging_solve["fast"] = 3
    view = _view(2, 5)
    late = StrongRobot(seed=2, samples=10, early_samples=10, candidates=0, deadline_seconds=1.0)
    card = late.choose(copy.deepcopy(view))
    assert late.capped == 1
    hanging_solve["release"]()                      # the late solve ends (its result dropped)
    three = StrongRobot(seed=2, samples=3, early_samples=3, candidates=0, deadline_seconds=None)
    assert card == three.choose(copy.deepcopy(view))
    assert str(card) == "QD"


@pytest.mark.parametrize("seed,plays,card", OLD_CARDS)
def test_with_the_deadline_off_or_unreached_the_cards_are_the_old_ones(seed, plays, card):
    view = _view(seed, plays)
    for robot in (StrongRobot(seed=seed, deadline_seconds=None),     # in the caller's thread
                  StrongRobot(seed=seed, deadline_seconds=60),       # in a helper, never cut
                  StrongRobot(seed=seed, cap_seconds=math.inf)):     # the old name of "off"
        assert str(robot.choose(copy.deepcopy(view))) == card
        assert robot.capped == 0


def test_no_two_dds_solves_overlap(monkeypatch):
    """Each solve is slower than the deadline, so every decision leaves a
    solve running in its helper while the next decision (and another thread)
    asks for DDS: the probe never sees two inside at once."""
    real = solver.solve_board
    probe = {"inside": 0, "most": 0, "calls": 0}
    guard = threading.Lock()

    def solve(deal):
        with guard:
            probe["inside"] += 1
            probe["calls"] += 1
            probe["most"] = max(probe["most"], probe["inside"])
        try:
            time.sleep(0.06)
            return real(deal)
        finally:
            with guard:
                probe["inside"] -= 1

    monkeypatch.setattr(solver, "solve_board", solve)
    views = [_view(seed, plays) for seed, plays, _ in OLD_CARDS]
    other = threading.Thread(target=lambda: [StrongRobot(seed=9, samples=3, deadline_seconds=None).choose(
        copy.deepcopy(v)) for v in views[-2:]])
    other.start()
    robot = StrongRobot(seed=3, deadline_seconds=0.1)
    for view in views:  # each cut by its deadline (capped below); the wall time is bench/strong.py's
        assert str(robot.choose(copy.deepcopy(view))) in view["legal"]
    other.join(10)
    _join_helpers()
    assert robot.capped == len(views)
    assert probe["calls"] > len(views)
    assert probe["most"] == 1
