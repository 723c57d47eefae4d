import pytest
from celery.contrib.testing.worker import start_worker

from drive.celery import app as celery_app
from tests.services import require_redis


@pytest.fixture
def celery_worker(transactional_db):
    """A real Celery worker consuming from Redis, in a thread of this process."""
    require_redis()
    celery_app.conf.task_always_eager = False
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=30) as worker:
        yield worker
