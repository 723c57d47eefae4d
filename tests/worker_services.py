"""Each pytest-xdist worker its own Redis database, before Django reads its settings.

bin/test loads this plugin with `-p tests.worker_services`: a plugin given with -p is
imported before pytest-django reads the settings (conftest.py files come too late).
Worker gwN of a run with REDIS_URL=redis://host:port/B uses database B+N: its own Celery
broker (so its own queues, and the tasks its real worker takes are its own), result
backend, channel layer and cache. The servers a test starts (tests/asgi_server.py,
tests/celery_beat.py) inherit that URL. PostgreSQL needs nothing here: pytest-django gives
each worker a test database of its own (test_<name>_gwN); SQLite's test file is named by
the process id (drive/settings.py).
"""
import os
from urllib.parse import urlsplit, urlunsplit

REDIS_DATABASES = 16  # Redis's default `databases`


def worker_index():
    """N of gwN, or None outside an xdist worker."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(worker.removeprefix("gw")) if worker.startswith("gw") else None


def redis_url_for_worker(url, index):
    """`url` with database (its own, default 0) + index."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    database = base + index
    if database >= REDIS_DATABASES:
        raise RuntimeError(f"xdist worker gw{index} would need Redis database {database} (from {url}); "
                           f"give a lower database in TEST_REDIS_URL or fewer workers")
    return urlunsplit(parts._replace(path=f"/{database}"))


def isolate():
    index = worker_index()
    url = os.environ.get("REDIS_URL", "")
    if index is None or not url or os.environ.get("WHIST_WORKER_ISOLATED") == url:
        return
    os.environ["REDIS_URL"] = isolated = redis_url_for_worker(url, index)
    os.environ["WHIST_WORKER_ISOLATED"] = isolated  # read by tests/conftest.py's check


isolate()
