"""The long tests spread over the pytest-xdist workers from the start (`-p tests.worker_order`).

pytest-django puts the transactional tests (a live server and Chromium, real daphne,
Celery and Redis outages, whole evenings committed: most of the suite's long and waiting
tests) after all the others, and xdist's `worksteal` hands each worker one contiguous share
of that order. So the waiting tests all ran in the second half of a pass, beside each
other, while the first half had only CPU-bound ones: the cores were short first and idle
later (a clean pass 1 used 1.6 of its 2 cores). Here each worker's share holds an equal
part of the transactional tests, in their order, spread over its first two thirds among its
part of the others: waiting and working tests run side by side all through, and the long
ones have started before the end (stealing takes from the end of a share).

A worker may then run a test that is not transactional after one that is, as stealing
already made it do: each transactional test leaves the database flushed, as it found it.
"""
import os

import pytest


def _transactional(item) -> bool:
    marker = item.get_closest_marker("django_db")
    if marker is not None and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")):
        return True
    return any(name in getattr(item, "fixturenames", ()) for name in ("transactional_db", "live_server"))


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
    long = [item for item in items if _transactional(item)]
    rest = iter([item for item in items if not _transactional(item)])
    sizes = shares(len(items), workers)
    firsts: list[list] = [[] for _ in sizes]
    for i, item in enumerate(long):   # dealt in turn to the shares with room
        worker = next(w for w in [*range(i % workers, workers), *range(i % workers)]
                      if len(firsts[w]) < sizes[w])
        firsts[worker].append(item)
    ordered = []
    for first, size in zip(firsts, sizes):
        share = [next(rest) for _ in range(size - len(first))]
        for j, item in enumerate(first):   # evenly over the share's first two thirds
            share.insert(j * 2 * size // (3 * len(first)), item)
        ordered += share
    assert len(ordered) == len(items) and not list(rest)
    items[:] = ordered
