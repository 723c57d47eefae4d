"""Robots move in a real Celery worker on Redis, after their human-like pause; beat's
sweep puts a stand-in in for a silent player."""
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from drive.games.models import PlayAction, PlaySeat, PlayTable
from drive.games.selectors.tables import game_of, table_view
from drive.games.services import actions, tables
from drive.games.tasks import sweep_silent_seats
from tests.play.core_kit import THREE_ROBOTS, four_people, fresh

pytestmark = [pytest.mark.redis, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _until(check, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return False


def test_three_robots_answer_a_play_in_the_worker(make_user, celery_worker, settings):
    settings.PLAY_ROBOT_DELAY = (0.05, 0.1)
    me = make_user()
    table = tables.create_table(user=me, rules="short", robots=THREE_ROBOTS)
    assert _until(lambda: game_of(fresh(table)).to_act == "N")
    view = table_view(me, fresh(table))
    for _ in range(13):  # until robots answer N's card (N may win a trick it closes and lead again)
        actions.apply_action(user=me, table_id=table.pk, action=view["legal"][0], version=view["version"])
        assert _until(lambda: game_of(fresh(table)).to_act == "N")
        if fresh(table).version > view["version"] + 1:
            break
        view = table_view(me, fresh(table))
    assert fresh(table).version > view["version"] + 1
    robots_played = PlayAction.objects.filter(table=table, by_robot=True)
    assert robots_played.exists() and not robots_played.filter(seat="N").exists()


def test_beats_sweep_puts_a_stand_in_in_for_a_silent_player(make_user, celery_worker, settings):
    settings.PLAY_ROBOT_DELAY = (0.05, 0.1)
    table, people = four_people(make_user)
    to_act = game_of(table).to_act
    PlayTable.objects.filter(pk=table.pk).update(changed_at=timezone.now() - timedelta(minutes=5))
    sweep_silent_seats.delay()
    assert _until(lambda: PlayAction.objects.filter(table=table, seat=to_act, by_robot=True).exists())
    assert PlaySeat.objects.get(table=table, seat=to_act).standin
