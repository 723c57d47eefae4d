"""The engine's command-line contract, through real subprocesses."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cards import card_str
from engine.deal import deal, new_rng
from engine.play import HandState
from engine.record import to_record
from engine.rules import preset

ROOT = Path(__file__).resolve().parents[2]


def run(*args, stdin=""):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "engine", *args], input=stdin, text=True,
                          capture_output=True, cwd=ROOT, env=env, timeout=60)


def make(seed=1, plays=52, dealer="N"):
    rng = new_rng(seed)
    st = HandState.from_deal(deal("NESW".index(dealer), rng))
    for _ in range(plays):
        moves = st.legal_moves()
        st.play(moves[rng.randrange(len(moves))])
    rec = to_record(st, preset("short"), with_result=False)
    return rec, st


def test_complete_record():
    rec, st = make()
    out = run("check", "-", stdin=json.dumps(rec))
    assert out.returncode == 0 and out.stderr == ""
    answer = json.loads(out.stdout)
    assert answer == {
        "valid": True, "complete": True,
        "tricks": {"NS": st.tricks[0], "EW": st.tricks[1]},
        "winners": ["NESW"[w] for w in st.winners],
        "to_play": None, "legal": [], "trump_card_visible": False,
        "score": {"NS": max(0, st.tricks[0] - 6), "EW": max(0, st.tricks[1] - 6)},   # rule S7.1
    }
    assert list(answer) == ["valid", "complete", "tricks", "winners", "to_play", "legal",
                            "trump_card_visible", "score"]


def test_partial_record_from_a_file(tmp_path):
    rec, st = make(seed=2, plays=2, dealer="E")
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(rec))
    answer = json.loads(run("check", str(path)).stdout)
    hand = rec["hands"]["NESW"[st.to_play]]
    legal = set(map(card_str, st.legal_moves()))
    assert answer == {"valid": True, "complete": False, "tricks": {"NS": 0, "EW": 0},
                      "winners": [], "to_play": "NESW"[st.to_play],
                      "legal": [c for c in hand if c in legal], "trump_card_visible": True}


def _deal_where_follower_can_follow():
    """The first seeded deal whose second player holds the suit led (and another suit)."""
    for seed in range(100):
        rec, st = make(seed=seed, plays=1)
        follower = rec["hands"]["NESW"[st.to_play]]
        led = rec["plays"][0][-1]
        suits = {c[-1] for c in follower}
        if led in suits and len(suits) > 1:
            return rec, st, follower, led
    raise AssertionError("no such deal in 100 seeds")


def test_must_follow_suit_answer():
    rec, st, follower, led = _deal_where_follower_can_follow()
    bad = next(c for c in follower if c[-1] != led)
    rec["plays"].append(bad)
    answer = json.loads(run("check", stdin=json.dumps(rec)).stdout)
    assert answer == {"valid": False, "error": {"index": 1, "seat": "NESW"[st.to_play],
                                                "card": bad, "reason": "must_follow_suit"}}


def test_not_in_hand_answer():
    rec, st = make(seed=4, plays=0)
    leader = "NESW"[st.to_play]
    other = rec["hands"]["NESW"[(st.to_play + 2) % 4]][0]
    rec["plays"] = [other.replace("T", "10").lower()]
    answer = json.loads(run("check", stdin=json.dumps(rec)).stdout)
    assert answer == {"valid": False, "error": {"index": 0, "seat": leader, "card": other,
                                                "reason": "not_in_hand"}}


def test_bad_deal_answer():
    rec, _ = make(plays=0)
    rec["trump_card"] = rec["hands"]["E"][0]
    answer = json.loads(run("check", stdin=json.dumps(rec)).stdout)
    assert answer["valid"] is False and answer["error"]["reason"] == "bad_deal"
    assert set(answer["error"]) == {"reason", "detail"}


def test_jsonl_answers_in_order():
    lines = []
    for seed, plays in [(1, 52), (2, 7), (3, 0)]:
        lines.append(json.dumps(make(seed=seed, plays=plays)[0]))
    broken = json.loads(lines[1])
    broken["plays"].append(broken["plays"][0])            # a card already played
    lines.insert(2, json.dumps(broken))
    out = run("check", "--jsonl", stdin="\n".join(lines) + "\n")
    answers = [json.loads(x) for x in out.stdout.splitlines()]
    assert out.returncode == 0 and len(answers) == 4
    assert [a["valid"] for a in answers] == [True, True, False, True]
    assert answers[0]["complete"] and not answers[1]["complete"]
    assert answers[2]["error"]["reason"] == "not_in_hand" and answers[2]["error"]["index"] == 7


@pytest.mark.parametrize("stdin,args", [
    ("{not json", ("check",)),
    ("not json at all\n", ("check", "--jsonl")),
    (None, ("check",)),                                          # unknown card text
    ('{"rules": "short", "tricks": [[7, 7]]}', ("game",)),      # does not sum to 13
    ("[1, 2", ("game",)),
])
def test_unreadable_input_exits_2_with_one_line(stdin, args):
    if stdin is None:
        rec, _ = make(plays=3)
        rec["plays"][2] = "XQ"
        stdin = json.dumps(rec)
    out = run(*args, stdin=stdin)
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


def test_game_stops_at_the_winning_hand():
    # rules S7.2, S8
    out = run("game", stdin=json.dumps({"rules": "short", "tricks": [[8, 5], [9, 4], [13, 0]]}))
    assert out.returncode == 0
    assert json.loads(out.stdout) == {"winner": "NS", "hands_played": 2,
                                      "totals": {"NS": 5, "EW": 0}}
    out = run("game", stdin=json.dumps({"rules": "short", "tricks": [[6, 7], [7, 6]]}))
    assert json.loads(out.stdout) == {"winner": None, "hands_played": 2,
                                      "totals": {"NS": 1, "EW": 1}}


def test_deal_command_makes_a_checkable_record():
    rec = json.loads(run("deal", "--seed", "5", "--dealer", "S", "--play").stdout)
    assert rec["dealer"] == "S" and len(rec["plays"]) == 52
    answer = json.loads(run("check", stdin=json.dumps(rec)).stdout)
    assert answer["valid"] and answer["complete"]
