"""bench/fanout.py keeps working: a real daphne, a few websocket clients, every update delivered.

Latency is the bench's business, not asserted here.
"""
import pytest
from django.conf import settings

from bench import fanout
from tests.services import require_redis


@pytest.mark.redis
@pytest.mark.timeout(120)
def test_every_client_gets_every_update():
    require_redis()
    result = fanout.measure(clients=20, updates=5, gap=0.02, procs=2, redis_url=settings.REDIS_URL)
    assert result["errors"] == [] and result["connected"] == 20
    assert result["received"] == result["expected"] == 100
    assert result["clients_missing"] == result["updates_missing"] == 0
    assert not result["touched_db"]  # the server ran without a database
