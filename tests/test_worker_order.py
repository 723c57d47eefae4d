"""bin/test's order for pytest-xdist (tests/worker_order.py): the tests marked `waits` head
the workers' first shares, one each in turn, and no test is lost or run twice."""
import pytest

from tests import worker_order


class Item:
    def __init__(self, number, waits):
        self.number, self.waits = number, waits

    def get_closest_marker(self, name):
        return object() if name == "waits" and self.waits else None


def ordered(total, waiting, workers, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", str(workers))
    items = [Item(i, i >= total - waiting) for i in range(total)]  # pytest-django's order: last
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


def test_each_share_starts_with_its_waiting_tests(monkeypatch):
    for share in ordered(3500, 9, 6, monkeypatch):
        positions = [i for i, item in enumerate(share) if item.waits]
        assert positions == list(range(len(positions))) and 1 <= len(positions) <= 2


@pytest.mark.parametrize("total, waiting, workers", [(10, 10, 6), (7, 3, 3), (5, 0, 2), (12, 2, 6)])
def test_small_and_lopsided_runs_lose_nothing(total, waiting, workers, monkeypatch):
    counts = [sum(item.waits for item in share) for share in ordered(total, waiting, workers, monkeypatch)]
    assert sum(counts) == waiting
    assert max(counts) - min(counts) <= 1


def test_without_xdist_the_order_stays(monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)
    items = [Item(i, i % 2) for i in range(20)]
    worker_order.pytest_collection_modifyitems(None, items)
    assert [item.number for item in items] == list(range(20))
