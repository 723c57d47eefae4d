"""A burst of results asks for few recomputations of the standings: at most one task
waits per event, and none is lost (the task clears its mark before it reads)."""
import pytest
from django.core.cache import cache

from drive.scoring import tasks
from drive.scoring.models import HandResult, Standing, StandingsState
from drive.scoring.services import recompute


from drive.scoring.selectors import standings as standings_selectors
from drive.scoring.models import HandResult, Standing
from tests import seats

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch, evening):
    """Tasks asked for, not run: [event id, ...]."""
    calls = []
    monkeypatch.setattr(tasks.recompute_standings, "delay", lambda event_id: calls.append(event_id))
    cache.delete(recompute.pending_key(event_id=evening.pk))
    yield calls
    cache.delete(recompute.pending_key(event_id=evening.pk))


def enter(table, hand, ns_tricks, capture, seat="N"):
    with capture(execute=True):
        seats.enter(table=table, seat=seat, hand_number=hand, ns_tricks=ns_tricks, trump="H")


def test_a_burst_asks_for_one_task_until_it_runs(queued, evening, table1, django_capture_on_commit_callbacks):
    enter(table1, 1, 7, django_capture_on_commit_callbacks)
    enter(table1, 2, 9, django_capture_on_commit_callbacks)
    assert queued == [evening.pk]  # the second change found a task waiting

    tasks.recompute_standings(evening.pk)  # the worker runs it: it reads both hands
    # Entered by N-S only: both wait for E-W's confirmation, and live standings count confirmed hands
    assert Standing.objects.get(event=evening, entrant__number=1).total == 0
    assert StandingsState.objects.get(event=evening).awaiting_confirmation == 2
    assert cache.get(recompute.pending_key(event_id=evening.pk)) is None

    enter(table1, 1, 7, django_capture_on_commit_callbacks, seat="E")  # confirmed after the run: asks again
    assert queued == [evening.pk, evening.pk]
    tasks.recompute_standings(evening.pk)
    assert Standing.objects.get(event=evening, entrant__number=1).total == 7
    assert StandingsState.objects.get(event=evening).awaiting_confirmation == 1


def test_a_refused_task_leaves_no_mark(monkeypatch, evening, table1, django_capture_on_commit_callbacks):
    """The broker refusing the task after commit never fails the saved entry."""
    cache.delete(recompute.pending_key(event_id=evening.pk))

    def broker_down(event_id):
        raise ConnectionError("no broker")

    monkeypatch.setattr(tasks.recompute_standings, "delay", broker_down)
    enter(table1, 1, 7, django_capture_on_commit_callbacks)  # no exception reaches the caller
    assert HandResult.objects.get(round__event=evening, hand_number=1).ns_tricks == 7
    assert cache.get(recompute.pending_key(event_id=evening.pk)) is None  # the next change will ask again
    assert standings_selectors.state_of(evening.pk).stale  # and the sweep sees it is behind


def test_eager_tasks_keep_the_standings_current(evening, table1, django_capture_on_commit_callbacks):
    """The embedded default runs the task at once: every change is in the standings."""
    cache.delete(recompute.pending_key(event_id=evening.pk))
    for hand, ns in ((1, 6), (2, 10)):
        for seat in "NE":  # entered, then confirmed by the other side
            enter(table1, hand, ns, django_capture_on_commit_callbacks, seat=seat)
            assert cache.get(recompute.pending_key(event_id=evening.pk)) is None
    assert Standing.objects.get(event=evening, entrant__number=1).total == 16
