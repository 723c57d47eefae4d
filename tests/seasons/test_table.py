"""The pure season table (drive.seasons.table): plain data in, the table out (issue 22)."""
from decimal import Decimal
from fractions import Fraction

import pytest

from drive.seasons import table
from drive.seasons.table import Evening, Line, Rules


def evening(event, *lines):
    """lines: (player, place, total, hands_played[, unit])."""
    return Evening(event=event, lines=tuple(Line(*line) for line in lines))


def rows(evenings, rules, names=None):
    return [(r.place, r.player, r.evenings, r.counted, str(r.score), r.qualified)
            for r in table.compute(evenings, rules, names)]


@pytest.mark.parametrize("value, shown", [
    (Fraction(1, 200), "0.01"), (Fraction(1, 300), "0.00"), (Fraction(2, 3), "0.67"), (Fraction(1, 3), "0.33"),
    (Fraction(2469, 200), "12.35"), (Fraction(-1, 200), "-0.01"), (0, "0.00"), (24, "24.00"),
    (Decimal("2.675"), "2.68"),  # exact: 2.675 as a float would round down
])
def test_two_places_rounded_half_up(value, shown):
    assert str(table.rounded(value)) == shown


def test_tied_players_share_the_points_of_the_places_they_fill():
    points = (10, 8, 6)
    lines = [Line(1, 1, 30, 8), Line(2, 2, 20, 8), Line(3, 2, 20, 8), Line(4, 4, 10, 8)]
    assert table.placing_points(lines, points) == {1: 10, 2: 7, 3: 7, 4: 0}  # two tied 2nd: (8 + 6) / 2
    three = [Line(1, 1, 9, 8), Line(2, 1, 9, 8), Line(3, 1, 9, 8)]
    assert table.placing_points(three, points) == {1: 8, 2: 8, 3: 8}
    beyond = [Line(1, 3, 9, 8), Line(2, 3, 9, 8)]  # places 3 and 4: 6 and 0 beyond the list
    assert table.placing_points(beyond, points) == {1: 3, 2: 3}


def test_a_fixed_pair_is_one_unit_and_both_partners_take_its_points():
    # Pairs (1, 2) and (3, 4) tied first fill places 1 and 2; pair (5, 6) is third.
    lines = [Line(1, 1, 30, 8, unit=1), Line(2, 1, 30, 8, unit=1), Line(3, 1, 30, 8, unit=3),
             Line(4, 1, 30, 8, unit=3), Line(5, 3, 20, 8, unit=5), Line(6, 3, 20, 8, unit=5)]
    assert table.placing_points(lines, (10, 8, 6)) == {1: 9, 2: 9, 3: 9, 4: 9, 5: 6, 6: 6}


def test_evening_scores_by_total_and_by_average():
    night = evening(1, (1, 1, Decimal("80.5"), 23), (2, 2, 70, 24), (3, 3, 0, 0))
    assert table.evening_scores(night, Rules(score="total")) == {1: Fraction(161, 2), 2: 70}
    assert table.evening_scores(night, Rules(score="average")) == {1: Fraction(161, 46), 2: Fraction(70, 24)}
    # Nobody who played no hand has an evening; their place still counts for the others'.
    assert table.evening_scores(night, Rules(score="placing_points", placing_points=(3, 2, 1))) == {1: 3, 2: 2}


def test_best_n_of_m_sums_the_best_and_counts_them():
    rules = Rules(score="total", best_of=2)
    nights = [evening(1, (7, 1, 10, 8)), evening(2, (7, 1, 30, 8)), evening(3, (7, 1, 20, 8))]
    assert rows(nights, rules) == [(1, 7, 3, 2, "50.00", True)]
    assert rows(nights, Rules(score="total")) == [(1, 7, 3, 3, "60.00", True)]  # best_of None: every evening
    assert rows(nights[:1], rules) == [(1, 7, 1, 1, "10.00", True)]  # fewer than N: all of them


def test_the_average_is_the_mean_of_the_best_evening_averages():
    rules = Rules(score="average", best_of=2)
    nights = [evening(1, (7, 1, 48, 24)), evening(2, (7, 1, 60, 24)), evening(3, (7, 1, 30, 20))]
    # Averages 2, 2.5 and 1.5: the best two, 2.5 and 2, give 2.25.
    assert rows(nights, rules) == [(1, 7, 3, 2, "2.25", True)]


def test_qualified_first_with_shared_places_then_the_rest_without_a_place():
    rules = Rules(score="total", min_evenings=2)
    nights = [
        evening(1, (1, 1, Decimal("10.004"), 8), (2, 2, Decimal("10.001"), 8), (3, 3, 9, 8), (4, 4, 50, 8),
                (5, 5, 8, 8)),
        evening(2, (1, 1, 0, 8), (2, 2, 0, 8), (3, 3, 0, 8), (5, 4, 1, 8)),
    ]
    names = {1: "Ada", 2: "Bob", 3: "Cy", 4: "Di", 5: "Eve"}
    # 10.004 and 10.001 are both 10.00 after rounding: they share first; Di has one evening.
    assert rows(nights, rules, names) == [
        (1, 1, 2, 2, "10.00", True), (1, 2, 2, 2, "10.00", True), (3, 3, 2, 2, "9.00", True),
        (3, 5, 2, 2, "9.00", True), (None, 4, 1, 1, "50.00", False)]


def test_places_go_1_2_2_4():
    nights = [evening(1, (1, 1, 30, 8), (2, 2, 20, 8), (3, 2, 20, 8), (4, 4, 10, 8))]
    assert [r[0] for r in rows(nights, Rules(score="total"))] == [1, 2, 2, 4]


def test_rows_of_one_score_go_by_name_and_every_player_with_an_evening_is_listed():
    nights = [evening(1, (1, 1, 5, 8), (2, 1, 5, 8)), evening(2, (3, 1, 5, 8))]
    assert [r[1] for r in rows(nights, Rules(score="total"), {1: "zed", 2: "Amy", 3: "bob"})] == [2, 3, 1]
    assert rows([], Rules(score="total")) == []


def test_unknown_score_is_refused():
    with pytest.raises(ValueError):
        Rules(score="masterpoints")
