"""The season table follows an evening through a real Celery worker on Redis: the
publish commits, scoring's signal asks for the season's task, the worker computes it."""
import time

import pytest

from drive.seasons.selectors import seasons as selectors
from tests.seasons.conftest import local, one_table


def wait_for(condition, seconds=60):  # generous: a loaded machine is slow, not wrong
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.redis
@pytest.mark.worker
def test_publishing_updates_the_table_through_the_worker(celery_worker, make_season, play, people):
    season = make_season(score="total", placing_points=[])
    assert wait_for(lambda: selectors.stored_source(season) is not None)  # the creation's task ran
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30))
    assert wait_for(lambda: len(selectors.season_table(season)["rows"]) == 4)
    assert selectors.season_table(season)["rows"][0]["score"] == "9.00"
