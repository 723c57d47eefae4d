"""bin/test's order for pytest-xdist (tests/worker_order.py): every worker's first share holds
an equal part of the transactional tests, spread over its first two thirds, and no test is
lost or run twice."""
import pytest

from tests import worker_order


class Item:
    def __init__(self, number, transactional):
        self.number = number
        self.fixturenames = ("live_server",) if transactional else ("db",)

    def get_closest_marker(self, name):
        return None

    @property
    def transactional(self):
        return "live_server" in self.fixturenames


def ordered(total, long, workers, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", str(workers))
    items = [Item(i, i >= total - long) for i in range(total)]  # pytest-django's order: them last
    worker_order.pytest_collection_modifyitems(None, items)
    assert sorted(item.number for item in items) == list(range(total))
    cuts, start = [], 0
    for size in worker_order.shares(total, workers):
        cuts.append(items[start:start + size])
        start += size
    return cuts


def test_the_shares_are_xdists():
    assert worker_order.shares(3500, 6) == [583, 583, 583, 583, 584, 584]
    assert sum(worker_order.shares(1517, 3)) == 1517


def test_each_share_gets_its_part_of_the_long_tests_spread_early(monkeypatch):
    for share in ordered(3500, 300, 6, monkeypatch):
        positions = [i for i, item in enumerate(share) if item.transactional]
        assert len(positions) == 50
        assert positions[0] == 0 and positions[-1] < len(share) * 2 // 3
        gaps = [b - a for a, b in zip(positions, positions[1:])]
        assert max(gaps) - min(gaps) <= 1  # evenly among the others


@pytest.mark.parametrize("total, long, workers", [(10, 10, 6), (7, 3, 3), (5, 0, 2), (1517, 40, 3)])
def test_small_and_lopsided_runs_lose_nothing(total, long, workers, monkeypatch):
    counts = [sum(item.transactional for item in share) for share in ordered(total, long, workers, monkeypatch)]
    assert sum(counts) == long
    assert max(counts) - min(counts) <= 1


def test_without_xdist_the_order_stays(monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)
    items = [Item(i, i % 2) for i in range(20)]
    worker_order.pytest_collection_modifyitems(None, items)
    assert [item.number for item in items] == list(range(20))
