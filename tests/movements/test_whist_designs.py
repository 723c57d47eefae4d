"""Every whist tournament Wh(v) the constructions reach is verified; their
build times (goal: under a second each) are measured by bench/movements.py."""
import pytest

from drive.movements.algorithms import whist_designs as wd
from drive.movements.algorithms.individual import full_design
from drive.movements.algorithms.quality import count, is_directed, is_whist_tournament, problems

COVERED = wd.coverage(400)


def test_every_v_0_or_1_mod_4_from_5_to_64_is_covered():
    missing = [v for v in range(5, 65) if v % 4 in (0, 1) and v not in COVERED]
    assert missing == []


def test_prime_powers_1_mod_4_and_powers_of_4_up_to_400_are_covered():
    from drive.movements.algorithms.fields import factor_prime_power

    wanted = [v for v in range(5, 401) if (factor_prime_power(v) and v % 4 == 1) or wd.power_of_four(v)]
    assert [v for v in wanted if v not in COVERED] == []


@pytest.mark.parametrize("v", sorted(COVERED))
def test_design_is_a_whist_tournament(v):
    wd._whist_design.cache_clear()
    wd.field.cache_clear()
    rounds = wd.whist_design(v)
    assert is_whist_tournament(rounds, v), COVERED[v]


@pytest.mark.parametrize("v", [v for v in sorted(COVERED) if COVERED[v] == "ring" and v <= 125])
def test_ring_designs_are_directed(v):
    # seated clockwise, each player has every other once on each side (EBU's third criterion)
    assert is_directed(wd.whist_design(v), v)


def test_ring_base_tables_are_r_times_1_w_minus1_minus_w():
    f = wd.Ring([13])
    w = f.fourth_root()
    assert f.op("mul", w, w) == f.neg(1)
    assert wd.ring_base(13)[0] == (1, w, 12, 13 - w)


def test_products_of_fields_reach_non_prime_powers():
    assert wd.construction(45) == "ring" and wd.construction(225) == "ring"  # 9*5, 9*25
    assert wd.construction(21) != "ring"  # 3 and 7 are 3 mod 4


@pytest.mark.parametrize("v", [v for v in range(7, 64, 4)])
def test_phantom_player_for_v_3_mod_4(v):
    rounds, _ = full_design(v)
    assert not problems(rounds, v) and len(rounds) == v
    c = count(rounds, v)
    for a in range(1, v + 1):
        assert len(c.sit_outs[a]) == 3  # the phantom meets each player three times
        for b in range(a + 1, v + 1):
            assert c.at(c.partner, a, b) <= 1 and c.at(c.opponent, a, b) <= 2


def test_no_design_for_2_mod_4():
    assert wd.construction(10) is None and wd.whist_design(10) is None


def test_stored_bases_name_their_search_method():
    for v, entry in wd.stored_bases().items():
        assert entry["method"] in ("patterned", "tables", "split")
        assert entry["modulus"] == (v - 1 if entry["infinity"] else v)
