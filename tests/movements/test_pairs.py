"""Fixed pairs meet exactly once; rule D4b "partner" drives."""
from collections import Counter
from itertools import pairwise

import pytest

from drive.movements.algorithms.pairs import mitchell, pairs_movement, round_robin
from drive.movements.algorithms.quality import problems


def meetings(rounds):
    return Counter(frozenset(((t[0] + 1) // 2, (t[1] + 1) // 2)) for r in rounds for t in r.tables)


@pytest.mark.parametrize("pairs", range(2, 61))
def test_round_robin_every_pair_meets_every_other_exactly_once(pairs):
    rounds = round_robin(pairs)
    assert not problems(rounds, 2 * pairs)
    m = meetings(rounds)
    assert len(m) == pairs * (pairs - 1) // 2 and set(m.values()) == {1}
    assert len(rounds) == (pairs if pairs % 2 else pairs - 1)
    for r in rounds:  # partners never change; an odd number gives one pair a sit-out a round
        assert all((t[0] + 1) // 2 == (t[2] + 1) // 2 for t in r.tables)
        assert len(r.sit_out) == (2 if pairs % 2 else 0)
    outs = Counter(p for r in rounds for p in r.sit_out)
    assert pairs % 2 == 0 or set(outs.values()) == {1}


@pytest.mark.parametrize("pairs", [4, 7, 12, 25])
def test_mitchell_ns_stay_ew_move_up_one_table(pairs):
    rounds = mitchell(pairs)
    assert not problems(rounds, 2 * pairs)
    assert max(meetings(rounds).values()) == 1
    home = {t[0]: i for i, t in enumerate(rounds[0].tables)}
    for r in rounds:
        assert {t[0]: i for i, t in enumerate(r.tables)} == home
    ew_table = [{t[1]: i for i, t in enumerate(r.tables)} for r in rounds]
    for a, b in pairwise(ew_table):
        assert all(b[p] == (a[p] + 1) % len(home) for p in a if p in b and a[p] + 1 < len(home))


def test_auto_style_uses_mitchell_for_short_evenings():
    assert pairs_movement(40, 5)[1] == "mitchell"
    assert pairs_movement(40)[1] == "round robin"
    with pytest.raises(ValueError):
        pairs_movement(9)
