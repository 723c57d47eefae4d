"""The same request gives the same movement on any machine, however loaded.

The optimiser spends a budget of seeded annealing steps, not seconds; its wall-clock
safety net is reported whenever it cuts a search short.
"""
import json
import logging
import subprocess
import sys
from contextlib import contextmanager
from io import StringIO

import pytest
from django.core.management import call_command

from drive.movements.algorithms.build import Budget, build_movement, replan
from drive.movements.algorithms.individual import forget_searches, individual

# Sizes with no whole design: the optimiser runs, polishing included.
REQUESTS = [(22, 8), (38, 12), (97, 6)]


def movement_json(v, rounds, **kw):
    forget_searches()  # the search itself, each time, not the one this process kept
    m = build_movement(v, "individual", rounds, budget=Budget(5_000), **kw)
    return json.dumps(m.to_json(m.meta["quality"]), sort_keys=True)


@contextmanager
def cpu_burner():
    """A process spinning on the CPU beside the search (killed by its own pid)."""
    proc = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("v,rounds", REQUESTS)
def test_same_request_twice_gives_the_same_movement(v, rounds):
    first = movement_json(v, rounds)
    assert movement_json(v, rounds) == first
    assert json.loads(first)["quality"]["search"]["work_done"] > 0  # the search did run


def test_same_movement_with_a_cpu_burning_process_beside_it():
    quiet = movement_json(22, 8)
    with cpu_burner(), cpu_burner():
        loaded = movement_json(22, 8)
    assert loaded == quiet


def test_the_seed_is_part_of_the_request():
    assert movement_json(22, 8, seed=0) != movement_json(22, 8, seed=1)
    assert json.loads(movement_json(22, 8, seed=7))["quality"]["search"]["seed"] == 7


def test_replan_is_the_same_twice_and_under_load():
    plan, _ = individual(21, 8, budget=Budget(2_000))
    present = [p for p in range(1, 23)]  # one late arrival

    def again():
        current = plan[3]
        return replan(plan[:3], present, 5, current=current, seated=set(current.players()),
                      planned=plan[3:], budget=Budget(5_000))

    first = again()
    with cpu_burner():
        assert again() == first


def test_search_report_in_the_quality_and_never_the_safety_net_in_a_normal_run():
    m = build_movement(22, "individual", 8, budget=Budget(5_000, cap_seconds=600))
    search = m.meta["quality"]["search"]
    assert search == {"seed": 0, "work_budget": 5_000, "work_done": search["work_done"],
                      "safety_cap_seconds": 600, "safety_cap_hit": False}
    assert 0 < search["work_done"] <= 5_000


def test_safety_net_stops_a_search_and_says_so(caplog):
    budget = Budget(10**9, cap_seconds=0.0)  # a budget no machine finishes: the clock must stop it
    with caplog.at_level(logging.WARNING, logger="drive.movements.algorithms.optimiser"):
        m = build_movement(40, "individual", 10, budget=budget)
    search = m.meta["quality"]["search"]
    assert search["safety_cap_hit"] is True and search["work_done"] < 10**9
    assert m.meta["quality"]["partner_max"] <= 1  # still a checked movement, the best found
    assert "safety net" in caplog.text


def test_command_json_reports_the_search():
    out = StringIO()
    call_command("movement", "--players", "22", "--kind", "individual", "--rounds", "8", "--work-budget", "3000",
                 "--seed", "3", "--json", stdout=out)
    search = json.loads(out.getvalue())["quality"]["search"]
    assert search["seed"] == 3 and search["work_budget"] == 3000 and search["safety_cap_hit"] is False


@pytest.mark.django_db
def test_stored_movement_reports_its_search(make_event, organiser, settings):
    from drive.movements.models import Movement
    from drive.movements.services.movements import compute_movement, request_movement

    event = make_event(movement_kind="individual", rounds=8)
    request_movement(event=event, players=22)
    compute_movement(event_id=event.pk)
    stored = Movement.objects.get(event=event)
    assert stored.quality["search"] == {
        "seed": 0, "work_budget": settings.MOVEMENT_WORK_BUDGET, "work_done": stored.quality["search"]["work_done"],
        "safety_cap_seconds": settings.MOVEMENT_SAFETY_SECONDS, "safety_cap_hit": False}
    plan = stored.plan["rounds"]
    forget_searches()
    compute_movement(event_id=event.pk)  # the same request again, searched again: the same plan
    assert Movement.objects.get(event=event).plan["rounds"] == plan
