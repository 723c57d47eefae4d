"""Pass 2 of bin/test proves the embedded default: the SQLite database, eager Celery and
the in-memory channel layer (`-p tests.embedded_pass`).

A test that cannot touch the database (pytest-django refuses it without the `django_db`
mark or a database fixture) and is not marked `embedded` runs the same code in both
passes: pass 1 has proved it, as it has the pure engine, so it is left out here. Mark
`embedded` a database-free test that is about the embedded default itself (its settings,
the in-memory layer, the cache or beat it falls back to).

A test marked `contract` walks the HTTP contract with generated input (schemathesis and
hypothesis: every operation, hundreds of odd bodies, ids and strings each) to find server
errors and undocumented statuses. The views, serializers and services it reaches are the
ones the rest of pass 2 runs on SQLite; what it adds is input, and for odd input
PostgreSQL is the stricter database (it refuses NUL characters, over-long strings and
integers out of range where SQLite stores them), so pass 1 runs it there and pass 2 does
not repeat it (it was a third of pass 2's time).
"""
import pytest

DATABASE_FIXTURES = ("db", "transactional_db", "live_server", "django_db_setup")


def uses_the_embedded_default(item) -> bool:
    if item.get_closest_marker("contract") is not None:
        return False
    return (item.get_closest_marker("django_db") is not None or item.get_closest_marker("embedded") is not None
            or any(name in item.fixturenames for name in DATABASE_FIXTURES))


def is_contract(function) -> bool:
    return any(mark.name == "contract" for mark in getattr(function, "pytestmark", []))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    """A contract walk is not even collected: schemathesis builds each operation's test
    (its coverage cases) at collection, about 2 s of CPU in each process of this pass."""
    collected = yield
    return [] if is_contract(obj) else collected


def pytest_collection_modifyitems(config, items):
    kept = [item for item in items if uses_the_embedded_default(item)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if not uses_the_embedded_default(item)])
        items[:] = kept
