"""Round k+1 from round k's results, for each named convention (rule D4b)."""
import random

import pytest

from drive.movements.algorithms.progressive import CONVENTIONS, next_progressive_round
from drive.movements.algorithms.quality import problems, report
from drive.movements.algorithms.schedule import Round

FOUR_TABLES = Round(((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)))


def test_winners_move_up_and_split_top_winners_stay_top_losers_go_bottom():
    # rule D4b "progressive": winners move; partners change every hand
    nxt = next_progressive_round(FOUR_TABLES, ["NS", "EW", "NS", "NS"], "winners_move")
    assert set(nxt.tables[0]) == {1, 3, 6, 8}  # top winners stay, table 2's winners arrive
    assert set(nxt.tables[1]) == {5, 7, 9, 11}  # table 2's losers stay
    assert set(nxt.tables[3]) == {14, 16, 2, 4}  # top losers go to the bottom
    for t in nxt.tables:  # every newcomer partners one who stayed
        assert {t[0], t[2]} not in ({1, 3}, {6, 8}, {5, 7}, {9, 11}, {14, 16}, {2, 4})


def test_semi_partner_winners_stay_together():
    nxt = next_progressive_round(FOUR_TABLES, ["NS"] * 4, "semi_partner")
    assert [(t[0], t[2]) for t in nxt.tables] == [(1, 3), (5, 7), (9, 11), (13, 15)]


def test_partner_drive_keeps_partnerships():
    nxt = next_progressive_round(FOUR_TABLES, ["EW", "NS", "NS", "EW"], "partner")
    pairs = {frozenset(p) for t in nxt.tables for p in ((t[0], t[2]), (t[1], t[3]))}
    assert pairs == {frozenset(p) for t in FOUR_TABLES.tables for p in ((t[0], t[2]), (t[1], t[3]))}


def test_maidenhead_gents_and_ladies_go_opposite_ways():
    gents = {1, 2, 5, 6, 9, 10, 13, 14}
    nxt = next_progressive_round(FOUR_TABLES, ["NS"] * 4, "maidenhead", gents=gents)
    # table 2's winning gent 5 goes up to table 1, table 4's winning lady 15 round to table 1
    assert {5, 15} <= set(nxt.tables[0])


@pytest.mark.parametrize("convention", CONVENTIONS)
@pytest.mark.parametrize("v", [4, 9, 14, 23, 40])
def test_every_convention_seats_everyone_and_rotates_sit_outs(convention, v):
    rng = random.Random(v)
    n = v // 4
    r = Round(tuple(tuple(range(4 * i + 1, 4 * i + 5)) for i in range(n)), tuple(range(4 * n + 1, v + 1)))
    counts = {p: 1 for p in r.sit_out}
    rounds = [r]
    for _ in range(20):
        r = next_progressive_round(r, [rng.choice(("NS", "EW")) for _ in r.tables], convention,
                                   sit_out_counts=counts)
        for p in r.sit_out:
            counts[p] = counts.get(p, 0) + 1
        rounds.append(r)
    assert not problems(rounds, v)
    # sit-outs shared out within one (no rule orders it; each is credited an average, rule D5)
    assert report(rounds, v)["sit_out_spread"] <= 1


def test_unknown_convention_is_refused():
    with pytest.raises(ValueError):
        next_progressive_round(FOUR_TABLES, ["NS"] * 4, "howell")
