"""The `movement` command's exact JSON contract."""
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from drive.movements.algorithms.quality import is_whist_tournament
from drive.movements.algorithms.schedule import Round


def run(*args):
    out = StringIO()
    call_command("movement", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def as_rounds(data):
    return [Round(tuple((t["N"], t["E"], t["S"], t["W"]) for t in r["tables"]), tuple(r["sit_out"]))
            for r in data["rounds"]]


@pytest.mark.parametrize("v", [5, 8, 12, 13, 16, 21, 64])
def test_individual_without_rounds_is_the_full_design(v):
    data = run("--players", str(v), "--kind", "individual")
    assert data["players"] == v and data["kind"] == "individual"
    assert [t["table"] for t in data["rounds"][0]["tables"]] == list(range(1, v // 4 + 1))
    assert is_whist_tournament(as_rounds(data), v)
    assert data["quality"]["perfect"] is True


def test_individual_with_rounds():
    data = run("--players", "30", "--kind", "individual", "--rounds", "6")
    assert len(data["rounds"]) == 6 and all(len(r["sit_out"]) == 2 for r in data["rounds"])
    assert data["quality"]["partner_max"] == 1


def test_pairs_full_round_robin():
    data = run("--players", "14", "--kind", "pairs")
    assert data["kind"] == "pairs" and len(data["rounds"]) == 7
    assert data["quality"]["pair_meetings_max"] == 1 and data["quality"]["pairs_never_met"] == 0


def test_bad_input_is_a_command_error():
    with pytest.raises(CommandError):
        run("--players", "7", "--kind", "pairs")
