"""A search this process has run is not run again: the same request (players, rounds,
seed, polish, steps) gives the same rounds, so the second answer is the first one's,
with the same report of steps; a search the safety net cut short is never kept."""
import pytest

from drive.movements.algorithms import individual as module
from drive.movements.algorithms.build import Budget, build_movement
from drive.movements.algorithms.individual import SEARCHES_KEPT, forget_searches, individual


@pytest.fixture
def searches(monkeypatch):
    """Counts the optimiser's runs."""
    runs = []
    real = module.optimise

    def counted(*args, **kwargs):
        runs.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "optimise", counted)
    return runs


def test_the_same_request_again_is_answered_without_a_search(searches):
    first_budget, again_budget = Budget(500), Budget(500)
    first = build_movement(10, "individual", 3, budget=first_budget)
    again = build_movement(10, "individual", 3, budget=again_budget)
    assert searches == [10]
    assert again.to_json(again.meta["quality"]) == first.to_json(first.meta["quality"])
    assert again_budget.used == first_budget.used > 0


def test_the_kept_rounds_are_those_a_new_search_finds(searches):
    kept, _ = individual(10, 3, budget=Budget(500), seed=2)
    individual(10, 3, budget=Budget(500), seed=2)
    forget_searches()
    searched, _ = individual(10, 3, budget=Budget(500), seed=2)
    assert searches == [10, 10] and searched == kept


@pytest.mark.parametrize("other", [dict(seed=1), dict(budget=Budget(499)), dict(polish=False), dict(rounds=2)])
def test_any_other_request_is_searched(searches, other):
    individual(10, 3, budget=Budget(500))
    request = dict(rounds=3, budget=Budget(500)) | other
    individual(10, request.pop("rounds"), **request)
    assert searches == [10, 10]


def test_a_search_the_safety_net_stopped_is_not_kept(searches):
    stopped = [Budget(10**9, cap_seconds=0.0) for _ in range(2)]
    for budget in stopped:
        individual(10, 3, budget=budget)
    assert searches == [10, 10] and all(budget.cap_hit for budget in stopped)


def test_a_caller_changing_the_answer_does_not_change_the_kept_one():
    first, _ = individual(10, 3, budget=Budget(500))
    first.pop()
    assert len(individual(10, 3, budget=Budget(500))[0]) == 3


def test_only_the_latest_searches_are_kept(searches):
    for v in range(22, 22 + SEARCHES_KEPT + 1):
        individual(v, 3, budget=Budget(200))
    individual(22 + SEARCHES_KEPT, 3, budget=Budget(200))  # the latest: kept
    individual(22, 3, budget=Budget(200))  # the oldest: gone
    assert searches[SEARCHES_KEPT + 1:] == [22]
