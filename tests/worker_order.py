"""The transactional tests (browser, live server, real workers and servers) spread evenly
through each pass-1 xdist worker's share, the browser tests apart (`-p tests.worker_order`, bin/test).

pytest-django runs the transactional tests after all the others, so they used to sit
together at the end of the collection order: for the pass's last five minutes or so all
six workers ran browser and server tests, which mostly wait (on the page, on a poll, on a
restarted server), and the 2 cores stood a third idle. Here whole test files of the two
kinds (browser, other transactional, the rest) are interleaved in proportion, so that each worker's share (worksteal cuts the order
into contiguous shares) mixes waiting with computing from the first minute.

A worker then runs tests that are not transactional after ones that are, as stealing
already made it do: each transactional test leaves the database flushed, as it found it.
"""
import os
from itertools import groupby

import pytest

CHUNK = 4  # the most tests of one file's waiting kind kept together

def kind(item: pytest.Item) -> int:
    """0: a browser test; 1: another transactional one (a live server, real workers); 2: the rest."""
    if item.get_closest_marker("browser"):
        return 0
    marker = item.get_closest_marker("django_db")
    fixtures = set(getattr(item, "fixturenames", ()))
    if (marker and marker.kwargs.get("transaction")) or fixtures & {"transactional_db", "live_server"}:
        return 1
    return 2


def interleaved(groups: list[list[pytest.Item]], kinds: list[int]) -> list[pytest.Item]:
    """The files of each kind in turn, each kind in its own order, so that any stretch of
    the result holds the kinds in about the proportion of the whole (by test count)."""
    queues = [[g for g, k in zip(groups, kinds) if k == wanted] for wanted in sorted(set(kinds))]
    totals = [sum(map(len, queue)) for queue in queues]
    placed, at, ordered = [0] * len(queues), [0] * len(queues), []
    while any(a < len(q) for a, q in zip(at, queues)):
        behind = min((i for i in range(len(queues)) if at[i] < len(queues[i])), key=lambda i: placed[i] / totals[i])
        group = queues[behind][at[behind]]
        ordered += group
        placed[behind] += len(group)
        at[behind] += 1
    return ordered


@pytest.hookimpl(trylast=True)  # after pytest-django's order
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0")) < 2:
        return
    groups, kinds = [], []
    for _path, run in groupby(items, key=lambda item: item.path):
        tests = list(run)
        group_kind = min(map(kind, tests))
        step = CHUNK if group_kind < 2 else len(tests)  # a long browser file is cut, to spread it too
        for start in range(0, len(tests), step):
            groups.append(tests[start:start + step])
            kinds.append(group_kind)
    ordered = interleaved(groups, kinds)
    assert sorted(map(id, ordered)) == sorted(map(id, items))
    items[:] = ordered
