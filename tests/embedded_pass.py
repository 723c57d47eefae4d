"""Pass 2 of bin/test proves the embedded default: the SQLite database, eager Celery and
the in-memory channel layer (`-p tests.embedded_pass`).

A test that cannot touch the database (pytest-django refuses it without the `django_db`
mark or a database fixture) and is not marked `embedded` runs the same code in both
passes: pass 1 has proved it, as it has the pure engine, so it is left out here. Mark
`embedded` a database-free test that is about the embedded default itself (its settings,
the in-memory layer, the cache or beat it falls back to).
"""
DATABASE_FIXTURES = ("db", "transactional_db", "live_server", "django_db_setup")


def uses_the_embedded_default(item) -> bool:
    return (item.get_closest_marker("django_db") is not None or item.get_closest_marker("embedded") is not None
            or any(name in item.fixturenames for name in DATABASE_FIXTURES))


def pytest_collection_modifyitems(config, items):
    kept = [item for item in items if uses_the_embedded_default(item)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if not uses_the_embedded_default(item)])
        items[:] = kept
