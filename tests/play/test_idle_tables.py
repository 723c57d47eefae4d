"""Robots never play a game on their own (issue 19): a casual table where no person is
present for PLAY_IDLE_PAUSE_SECONDS (every person silent: a robot standing in, or not
seen for that long) is paused, its robots wait; the first person back resumes it; after
PLAY_IDLE_CLOSE_SECONDS with nobody it is closed. An event's table is never paused."""
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from drive.core.errors import Conflict, Invalid
from drive.games.models import PlayAction, PlaySeat, PlayTable
from drive.games.selectors.tables import game_of
from drive.games.services import actions, robots, tables
from tests.play.core_kit import fresh
from tests.play.test_websocket import open_socket
from tests.play.test_robot_queue import robot_to_act, sent  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def away(table, seconds, **extra):
    """Every person of the table last seen `seconds` ago."""
    PlaySeat.objects.filter(table=table, user__isnull=False).update(
        last_seen=timezone.now() - timedelta(seconds=seconds), **extra)


def still(table, seconds):
    PlayTable.objects.filter(pk=table.pk).update(changed_at=timezone.now() - timedelta(seconds=seconds))


def test_robots_wait_at_a_table_nobody_attends(make_user, sent, settings):
    table = robot_to_act(make_user())
    away(table, settings.PLAY_IDLE_PAUSE_SECONDS + 1)
    assert robots.play_robot(table_id=table.pk, version=table.version) is False
    actions.send_robot_move(table_id=table.pk, version=table.version)
    assert sent == []  # nothing queued for it either
    assert not PlayAction.objects.filter(table=table, by_robot=True).exists()


def test_a_robot_standing_in_for_the_only_person_does_not_play_alone(make_user, settings):
    table = robot_to_act(make_user())
    away(table, 5, standin=True)
    assert robots.play_robot(table_id=table.pk, version=table.version) is False


def test_within_the_pause_the_robots_play(make_user, settings):
    table = robot_to_act(make_user())
    away(table, settings.PLAY_IDLE_PAUSE_SECONDS - 5)
    assert robots.play_robot(table_id=table.pk, version=table.version) is True


def test_the_sweep_puts_no_stand_in_in_at_a_paused_table(make_user, settings):
    me = make_user()
    table = tables.create_table(user=me, rules="short", robots={"E": "rules", "S": "rules", "W": "rules"}, seat="N")
    while game_of(fresh(table)).to_act != "N":
        assert robots.play_robot(table_id=table.pk, version=fresh(table).version)
    away(table, settings.PLAY_IDLE_PAUSE_SECONDS + 1)
    still(table, 3600)
    assert robots.sweep_silent_seats() == 0
    assert not PlaySeat.objects.get(table=table, seat="N").standin


def test_the_person_back_resumes_the_table(make_user, sent, settings, django_capture_on_commit_callbacks):
    me = make_user()
    table = robot_to_act(me)
    away(table, settings.PLAY_IDLE_PAUSE_SECONDS + 1, standin=True)
    assert robots.play_robot(table_id=table.pk, version=table.version) is False
    with django_capture_on_commit_callbacks(execute=True):
        tables.take_seat(user=me, table_id=table.pk, seat="N")  # back in their seat
    assert [s[:2] for s in sent] == [(table.pk, table.version)]  # the robot to act is woken
    assert robots.play_robot(table_id=table.pk, version=table.version) is True


def _stood_in_for_then_plays(me, settings, capture, card: str | None = None):
    """A casual table where a robot stood in for the person (N), who is away; when N is to
    act they play `card` (else their first legal card) themselves: answers the table as it
    was before that card."""
    table = tables.create_table(user=me, rules="short", robots={"E": "rules", "S": "rules", "W": "rules"}, seat="N")
    while game_of(fresh(table)).to_act != "N":
        assert robots.play_robot(table_id=table.pk, version=fresh(table).version)
    table = fresh(table)
    away(table, settings.PLAY_IDLE_PAUSE_SECONDS + 1, standin=True)
    card = card or str(game_of(table).legal_actions()[0])
    with capture(execute=True):
        actions.apply_action(user=me, table_id=table.pk, action=card, version=table.version)
    return table


def test_the_persons_own_action_resumes_the_table(make_user, sent, settings, seeded_deals,
                                                  django_capture_on_commit_callbacks):
    seeded_deals(9)  # N leads the trick: East, a robot, plays next
    table = _stood_in_for_then_plays(make_user(), settings, django_capture_on_commit_callbacks)
    assert game_of(fresh(table)).to_act == "E"
    assert [s[:2] for s in sent] == [(table.pk, table.version + 1)]
    assert robots.play_robot(table_id=table.pk, version=table.version + 1) is True


def test_a_person_back_who_takes_the_trick_is_not_given_a_robots_move(make_user, sent, settings, seeded_deals,
                                                                      django_capture_on_commit_callbacks):
    """Their card wins the trick, so they lead next: the seat is theirs again before the
    table looks for a robot to wake, and no robot's move is queued for it (one was, for
    the robot that had stood in, and did nothing when it came)."""
    seeded_deals(15)  # N plays the fourth card of a trick, the ace of hearts, and takes it
    table = _stood_in_for_then_plays(make_user(), settings, django_capture_on_commit_callbacks, "AH")
    assert game_of(fresh(table)).to_act == "N"
    seat = PlaySeat.objects.get(table=table, seat="N")
    assert not seat.standin and actions.is_present(seat=seat, now=timezone.now())
    assert sent == []


def test_an_event_table_is_never_paused(make_user, make_event, settings):
    table = robot_to_act(make_user())
    PlayTable.objects.filter(pk=table.pk).update(event=make_event(), round_number=1, table_number=1)
    away(table, settings.PLAY_IDLE_CLOSE_SECONDS + 1, standin=True)
    assert robots.play_robot(table_id=table.pk, version=table.version) is True
    still(table, settings.PLAY_IDLE_CLOSE_SECONDS + 1)
    assert robots.close_idle_tables() == 0


def test_a_table_nobody_came_back_to_is_closed(make_user, api, client, settings):
    me = make_user()
    table = robot_to_act(me)
    away(table, settings.PLAY_IDLE_CLOSE_SECONDS - 60)
    still(table, settings.PLAY_IDLE_CLOSE_SECONDS + 1)
    assert robots.close_idle_tables() == 0  # seen within the close: only paused
    away(table, settings.PLAY_IDLE_CLOSE_SECONDS + 1)
    assert robots.close_idle_tables() == 1
    assert fresh(table).finished_at is not None
    assert robots.close_idle_tables() == 0  # once
    assert robots.play_robot(table_id=table.pk, version=table.version) is False
    api.force_authenticate(me)
    answer = api.get(f"/api/play/tables/{table.pk}/")
    assert answer.status_code == 200 and answer.json()["finished"] is True
    client.force_login(me)
    assert client.get(f"/play/{table.pk}/").status_code == 200
    with pytest.raises(Conflict):  # nobody plays on at a closed table
        actions.apply_action(user=me, table_id=table.pk, action="pass", version=table.version)


def test_robots_never_fill_every_seat_of_a_table(make_user):
    with pytest.raises(Invalid):
        tables.create_table(user=make_user(), rules="short", robots={"N": "rules", "E": "rules", "S": "rules", "W": "rules"})


@pytest.mark.django_db(transaction=True)
async def test_opening_the_table_resumes_it(make_user, sent, settings):
    """A person back on their table's page is present: its socket wakes the robot to act
    (without it, a paused table waited for the person's own turn, which never came)."""
    me = await sync_to_async(make_user)()
    table = await sync_to_async(robot_to_act)(me)
    await sync_to_async(away)(table, settings.PLAY_IDLE_PAUSE_SECONDS + 1, standin=True)
    assert await sync_to_async(robots.play_robot)(table_id=table.pk, version=table.version) is False  # paused
    sent.clear()  # the moves the table's making asked for (its commits ran: a transactional test)
    socket, connected, _ = await open_socket(table.pk, me)
    assert connected
    await socket.receive_json_from(timeout=10)  # its view
    await socket.disconnect()
    assert [s[:2] for s in sent] == [(table.pk, table.version)]  # the robot to act is woken
    seat = await sync_to_async(PlaySeat.objects.get)(table=table, seat="N")
    assert not seat.standin
    assert await sync_to_async(robots.play_robot)(table_id=table.pk, version=table.version) is True
