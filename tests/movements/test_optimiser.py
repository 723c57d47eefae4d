"""Exactly R rounds for any v: no partner twice, no opponent over twice,
sit-outs within one, within the search's default budget of steps, so
the same on any machine. Build times are measured by bench/movements.py."""
import random

import pytest

from drive.movements.algorithms.individual import default_rounds, forget_searches, individual
from drive.movements.algorithms.optimiser import Budget, Search
from drive.movements.algorithms.quality import problems, report


def most_rounds(v):
    """The longest evening with no partner twice that a design (or Wh(v-1) plus one) gives."""
    return default_rounds(v)


def check(v, rounds):
    budget = Budget()
    plan, _ = individual(v, rounds, budget=budget, polish=False)
    assert not problems(plan, v)
    q = report(plan, v)
    assert len(plan) == rounds
    assert q["partner_max"] <= 1, (v, rounds, q)
    assert q["opponent_max"] <= 2, (v, rounds, q)
    assert q["sit_out_spread"] <= 1, (v, rounds, q)
    assert not budget.cap_hit


@pytest.mark.parametrize("v", range(5, 41))
def test_every_short_evening_small_v(v):
    for rounds in range(1, min(12, most_rounds(v)) + 1):
        check(v, rounds)


def sample():
    rng = random.Random(4)
    return [(v, rng.choice([rng.randint(1, 11), 12])) for v in range(41, 401)]


@pytest.mark.parametrize("v,rounds", sample())
def test_evenings_up_to_400_players(v, rounds):
    check(v, rounds)


@pytest.mark.parametrize("v", [16, 22, 30])
def test_polish_meets_the_same_table_bound_where_known_reachable(v):
    plan, _ = individual(v, 5)
    q = report(plan, v)
    assert q["gap_same_table"] == 0
    assert q["partner_max"] <= 1


def test_full_design_is_perfect_and_cut_design_is_improved():
    q = report(individual(16)[0], 16)
    assert q["perfect"] and q["rounds"] == 15
    plan, _ = individual(16, 5)
    q = report(plan, 16)
    assert q["same_table_max"] == q["bound_same_table_max"] == 1  # five classes of AG(2,4)


@pytest.mark.parametrize("v, rounds", [(4, 2), (5, 4), (8, 6), (9, 8)])
def test_the_search_stops_at_the_opponent_repeats_no_plan_avoids(v, rounds, monkeypatch):
    """Four players for two rounds meet one opponent twice each however they sit: once the
    plan is down to those, the rest of the budget cannot improve it. The search stops there,
    with the very rounds a search spending its whole budget returns."""
    stopped = Budget(work=5_000)
    plan, _ = individual(v, rounds, budget=stopped, seed=3)
    monkeypatch.setattr(Search, "floor", lambda self: 0)  # the search as it was: to the budget's end
    forget_searches()
    spent = Budget(work=5_000)
    assert individual(v, rounds, budget=spent, seed=3)[0] == plan
    assert spent.used == 5_000
    assert stopped.used < spent.used
