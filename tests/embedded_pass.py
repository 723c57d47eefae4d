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
DATABASE_FIXTURES = ("db", "transactional_db", "live_server", "django_db_setup")


def uses_the_embedded_default(item) -> bool:
    if item.get_closest_marker("contract") is not None:
        return False
    return (item.get_closest_marker("django_db") is not None or item.get_closest_marker("embedded") is not None
            or any(name in item.fixturenames for name in DATABASE_FIXTURES))


def pytest_collection_modifyitems(config, items):
    kept = [item for item in items if uses_the_embedded_default(item)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if not uses_the_embedded_default(item)])
        items[:] = kept
