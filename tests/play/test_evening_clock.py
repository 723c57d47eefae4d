"""The round clock rules an evening's online tables: while the organiser has paused it,
no robot plays (a task already sent waits, the sweep gives no stand-in: nobody is silent
while the clock is stopped) and the deadline is not reached; when it runs again the
robots play on at once, the silence counts from the resume, and robots finish the late
tables only once the clock's remaining time (the pause not counted) is gone."""
from datetime import timedelta

import pytest
from django.utils import timezone

from drive.games.models import PlayAction, PlayTable
from drive.games.selectors.tables import game_of
from drive.games.services import actions, robots
from drive.scoring.services import online_tables as evening
from drive.scoring.models import HandResult, Round
from drive.scoring.services import evening as ev
from tests.play.evening_kit import seated_evening, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_event, organiser, django_capture_on_commit_callbacks):
    """Table 1 of an online evening: North a person (p1), the others robots; round 1's
    clock running, the robots having played up to North's turn (eager Celery, the
    robots' moves run as their transactions commit)."""
    event = seated_evening(make_event, accounts=(1,))
    evening.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[1])
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_round(actor=organiser, event=event)
    table = PlayTable.objects.get(event=event, table_number=1)
    assert game_of(table).to_act == "N"
    return table


def fresh(table):
    return PlayTable.objects.get(pk=table.pk)


def north_plays(table):
    table = fresh(table)
    game = game_of(table)
    actions.apply_action(user=user_of(table.event, 1), table_id=table.pk, action=str(game.legal_actions()[0]), version=table.version)


def test_robots_wait_while_the_clock_is_paused_and_play_on_when_it_runs(table, organiser,
                                                                        django_capture_on_commit_callbacks):
    event = table.event
    ev.pause_clock(actor=organiser, event=event)
    with django_capture_on_commit_callbacks(execute=True):  # the robot's task is sent, and runs
        while game_of(fresh(table)).to_act == "N":  # a person may still play (again, having won the trick)
            north_plays(table)
    paused = fresh(table)
    assert game_of(paused).to_act in ("E", "S", "W") and PlayAction.objects.filter(table=table).last().seat == "N"
    assert robots.play_robot(table_id=table.pk, version=paused.version) is False  # a task sent meanwhile does nothing
    assert fresh(table).version == paused.version
    with django_capture_on_commit_callbacks(execute=True):
        ev.resume_clock(actor=organiser, event=event)
    resumed = fresh(table)
    played = list(PlayAction.objects.filter(table=table, version__gt=paused.version).values_list("seat", "by_robot"))
    assert played and all(by_robot and seat != "N" for seat, by_robot in played)  # the robots played on at once
    assert game_of(resumed).to_act in ("N", None)  # up to North's turn again (or the round's hands are over)


def test_no_stand_in_while_paused_and_the_silence_counts_from_the_resume(table, organiser):
    event = table.event
    ev.pause_clock(actor=organiser, event=event)
    long_ago = timezone.now() - timedelta(minutes=30)
    PlayTable.objects.filter(pk=table.pk).update(changed_at=long_ago)  # a long pause with North to act
    assert robots.sweep_silent_seats() == 0
    assert not fresh(table).seats.get(seat="N").standin
    ev.resume_clock(actor=organiser, event=event)
    assert robots.sweep_silent_seats(now=timezone.now() + timedelta(seconds=5)) == 0  # the pause was no one's silence
    assert not fresh(table).seats.get(seat="N").standin
    later = timezone.now() + timedelta(seconds=table.timeout_seconds + 5)
    assert robots.sweep_silent_seats(now=later) == 1  # silent past the timeout from the resume: a robot stands in
    assert fresh(table).seats.get(seat="N").standin


def test_the_deadline_counts_the_clock_not_the_wall_while_paused(table, organiser):
    event = table.event
    round_ = Round.objects.get(event=event, number=1)
    ev.pause_clock(actor=organiser, event=event)
    # Paused after the deadline had passed (the beat's sweep had not run yet): still no finishing.
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert evening.finish_late_table(table_id=table.pk) == 0 and evening.finish_late_tables() == 0
    assert evening.finish_late_table(table_id=table.pk, now=timezone.now() + timedelta(hours=3)) == 0
    assert not HandResult.objects.filter(round__event=event, change_kind="robots").exists()
    # Paused a quarter of an hour ago with ten minutes left: the wall is past the deadline the
    # round had then, the clock is not (the pause does not count).
    now = timezone.now()
    Round.objects.filter(pk=round_.pk).update(deadline=now - timedelta(minutes=5),
                                              paused_at=now - timedelta(minutes=15))
    assert evening.finish_late_tables() == 0
    ev.resume_clock(actor=organiser, event=event)
    moved = Round.objects.get(pk=round_.pk).deadline
    assert moved - timezone.now() > timedelta(minutes=9)  # the ten minutes left, from the resume
    assert evening.finish_late_tables() == 0
    assert evening.finish_late_tables(now=moved - timedelta(seconds=2)) == 0
    assert evening.finish_late_tables(now=moved + timedelta(seconds=1)) == 1  # the clock's own deadline
    assert fresh(table).phase == PlayTable.Phase.OVER
    assert HandResult.objects.filter(round__event=event, table__number=1, change_kind="robots").count() == 2
