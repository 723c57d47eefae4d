"""bin/test's pass-1 order (tests/worker_order.py): every test kept once, each kind in its
own order, and the waiting kinds spread through the run instead of gathered at its end."""
from tests.worker_order import interleaved


def test_the_kinds_are_spread_in_proportion_and_nothing_is_lost_or_reordered():
    browser = [[f"b{i}-{j}" for j in range(4)] for i in range(10)]  # 40 tests
    servers = [[f"s{i}"] for i in range(20)]  # 20 tests
    rest = [[f"r{i}-{j}" for j in range(10)] for i in range(54)]  # 540 tests
    groups = browser + servers + rest  # gathered, as pytest-django leaves them
    kinds = [0] * len(browser) + [1] * len(servers) + [2] * len(rest)
    ordered = interleaved(groups, kinds)
    assert sorted(ordered) == sorted(t for g in groups for t in g)
    for prefix in ("b", "s", "r"):
        own = [t for t in ordered if t.startswith(prefix)]
        assert own == [t for g in groups for t in g if t.startswith(prefix)]  # each kind in its own order
    for sixth in range(6):  # each of six xdist shares holds about a sixth of each kind
        share = ordered[sixth * 100:(sixth + 1) * 100]
        assert 4 <= sum(t.startswith("b") for t in share) <= 12, share
        assert 1 <= sum(t.startswith("s") for t in share) <= 6, share
