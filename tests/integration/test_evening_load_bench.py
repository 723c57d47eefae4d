"""bench/evening_load.py keeps working: a real daphne on the test database, a worker, a
few tables entering while phones and a screen poll; no error, every entry stored, the
standings equal a recompute. The figures are the bench's business, not asserted here."""
import pytest

from bench import evening_load
from tests.asgi_server import AsgiServer
from tests.services import require_postgres, require_redis


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.worker
@pytest.mark.timeout(180)
def test_a_tiny_evening_runs_without_an_error(celery_worker):
    require_postgres()
    require_redis()
    event, tokens = evening_load.build_evening(3)
    server = AsgiServer("evening-load-bench").start()
    try:
        out = evening_load.run(server.url, event, tokens, phone_count=8, screens=1, window=2.0, poll=0.5,
                               seconds=0.5, clients=2, on_round=lambda n: evening_load.start_round(event, n))
    finally:
        server.stop()
    assert out["throughput_errors"] == 0 and out["trivial_rps"] > 0 and out["page_rps"] > 0
    for phase in ("within", "at once"):
        assert out[phase]["errors"] == 0, out[phase]["record"]
        kinds = out[phase]["record"]
        assert len(kinds["result entry"]) == 3 * evening_load.HANDS * 2
        assert {"table page", "standings fragment", "screen", "trivial view"} <= set(kinds)
    for round_number in (evening_load.ROUNDS - 1, evening_load.ROUNDS):
        assert evening_load.check_stored(event, round_number, 3) == (True, True)
