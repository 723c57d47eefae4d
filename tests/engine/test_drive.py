import random

import pytest

from engine.drive_scoring import (drive_hand_score, drive_hand_scores, hand_won, player_total, rank,
                                  sit_out_score)
from engine.rules import preset


def test_each_hand_scored_alone_fixed_hands_per_round():
    # rule D1: a fixed number of hands a round, set per event; no play "to five"
    drive = preset("drive")
    assert drive.scoring == "drive" and drive.hands_per_round == 1
    assert preset("drive", hands_per_round=4).hands_per_round == 4
    with pytest.raises(ValueError):
        preset("drive", hands_per_round=0)


def test_score_is_the_partnership_tricks_or_over_six():
    # rule D3: the tricks the partnership took (0-13), both partners record it;
    # an event may score tricks over six instead
    assert drive_hand_scores((9, 4), preset("drive")) == (9, 4)
    assert drive_hand_scores((9, 4), preset("drive_over_six")) == (3, 0)
    assert drive_hand_score(0, preset("drive")) == 0
    with pytest.raises(ValueError):
        drive_hand_score(14, preset("drive"))
    with pytest.raises(ValueError):
        drive_hand_scores((9, 5), preset("drive"))


def test_totals_prizes_and_tie_breaks():
    # rule D4: total = sum over hands played; ties broken by a documented rule:
    # most hands won, then best second half, then shared or by lot
    assert player_total([7, 6, 9]) == 22 and hand_won(7) and not hand_won(6)
    entries = {
        "ann": {"total": 90, "hands_won": 14, "second_half": 40},
        "bob": {"total": 90, "hands_won": 15, "second_half": 30},
        "cy": {"total": 90, "hands_won": 15, "second_half": 35},
        "di": {"total": 80, "hands_won": 9, "second_half": 41},
        "ed": {"total": 80, "hands_won": 9, "second_half": 41},
    }
    assert rank(entries) == [(1, "cy"), (2, "bob"), (3, "ann"), (4, "di"), (4, "ed")]
    by_lot = rank(entries, rng=random.Random(1))
    assert [p for p, _ in by_lot] == [1, 2, 3, 4, 5]
    assert {name for _, name in by_lot[3:]} == {"di", "ed"}
    assert rank(entries, tiebreaks=())[0][0] == rank(entries, tiebreaks=())[2][0] == 1


def test_sit_out_gets_an_average_never_zero():
    # rule D5: own average per hand so far, or the room average; never zero by default
    assert sit_out_score([8, 6], [5, 7, 9]) == 7
    assert sit_out_score([8, 6], [5, 7, 9], method="room_average") == 7
    assert sit_out_score([], [6, 8]) == 7          # nothing of one's own yet: the room's
    with pytest.raises(ValueError):
        sit_out_score([1], [1], method="zero")
