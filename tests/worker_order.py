"""The tests that mostly wait start first, one at the head of each xdist worker's share
(`-p tests.worker_order`, bin/test).

A test marked `waits` spends most of its time waiting on purpose: Redis stopped for 30 s, a
server killed and started again, a screen left to take hundreds of updates. They are
transactional, so pytest-django puts them after all the others, and they sit together in
the collection order: worksteal handed one worker a contiguous run of them (seven, eight
minutes of waiting on one worker, the pass's last), and stealing takes from the end of a
share, never its head. Here each one heads a share of its own instead, so the waiting runs
beside the CPU-bound tests from the first minute and leaves no tail.

A worker may then run a test that is not transactional after one that is, as stealing
already made it do: each transactional test leaves the database flushed, as it found it.
"""
import os

import pytest


def shares(total: int, workers: int) -> list[int]:
    """The sizes of the workers' first shares as xdist's worksteal cuts them."""
    sizes = []
    for i in range(workers):
        sizes.append(total // (workers - i))
        total -= sizes[-1]
    return sizes


@pytest.hookimpl(trylast=True)  # after pytest-django's order
def pytest_collection_modifyitems(config, items):
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if workers < 2:
        return
    waiting = [item for item in items if item.get_closest_marker("waits")]
    if not waiting:
        return
    rest = iter([item for item in items if not item.get_closest_marker("waits")])
    sizes = shares(len(items), workers)
    heads: list[list] = [[] for _ in sizes]
    for i, item in enumerate(waiting):  # in turn: the first to each share, then the second...
        worker = next(w for w in [*range(i % workers, workers), *range(i % workers)] if len(heads[w]) < sizes[w])
        heads[worker].append(item)
    ordered = []
    for head, size in zip(heads, sizes):
        ordered += head + [next(rest) for _ in range(size - len(head))]
    assert len(ordered) == len(items) and not list(rest)
    items[:] = ordered
