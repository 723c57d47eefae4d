"""Duplicate matches (issue 13): ``python -m engine match`` for every preset,
rules against random, and the same result for the same seed."""

import io
import json
from contextlib import redirect_stdout

import pytest

from engine import VARIANTS
from engine.cli import main
from engine.robots.match import run_match

KEYS = {"deals", "tricks_per_deal", "se", "points_per_hand", "decision_ms_p95"}


def match(*args) -> dict:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["match", *args, "--json"]) == 0
    return json.loads(out.getvalue())


def test_rules_beat_random_by_three_tricks_a_deal():
    # issue 13: at least 3 tricks a deal over 500 duplicate short-whist deals
    result = match("--ns", "rules", "--ew", "random", "--deals", "500", "--seed", "1")
    assert set(result) == KEYS and result["deals"] == 500
    assert result["tricks_per_deal"] - 3 * result["se"] >= 3.0, result


def test_sides_swap_in_duplicate():
    there = run_match("rules", "random", 60, 4)
    back = run_match("random", "rules", 60, 4)
    assert there["tricks_per_deal"] > 2 and back["tricks_per_deal"] < -2   # A is always --ns


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_match_completes_for_every_preset(name):
    result = match("--rules", name, "--ns", "rules", "--ew", "rules", "--deals", "4", "--seed", "3")
    assert set(result) == KEYS and result["deals"] == 4
    assert result["tricks_per_deal"] == 0 and result["se"] == 0     # the same robot both ways


def test_same_seed_same_match():
    a, b = run_match("rules", "random", 30, 9, "bid"), run_match("rules", "random", 30, 9, "bid")
    a.pop("decision_ms_p95"), b.pop("decision_ms_p95")
    assert a == b


def test_unknown_robot_is_refused():
    assert main(["match", "--ns", "nobody", "--ew", "rules", "--deals", "1", "--json"]) == 2
