"""A creator closes their casual table before its game is over (issue 19: past the limit of
tables alive, a user needs a way out other than playing every game to its end): its robots
stop, the played hands stay readable, a place is free for a new table. Nobody else may
close it, nor an event's table (its round ends it)."""
import pytest
from rest_framework.test import APIClient

from drive.core.errors import Conflict, Forbidden
from drive.games.models import PlayTable
from drive.games.services import robots, tables
from tests.play.core_kit import fresh

pytestmark = pytest.mark.django_db

ROBOTS = {"E": "rules", "S": "rules"}


def api_as(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_creator_closes_their_table_and_may_open_another(make_user, settings):
    settings.PLAY_TABLES_ALIVE_PER_USER = 1
    me = make_user()
    table = tables.create_table(user=me, rules="short", robots=ROBOTS)
    answer = api_as(me).post(f"/api/play/tables/{table.pk}/close/")
    assert answer.status_code == 200, answer.content
    assert answer.json()["finished"] is True
    assert fresh(table).finished_at is not None
    assert robots.play_robot(table_id=table.pk, version=fresh(table).version) is False  # its robots stop
    tables.create_table(user=me, rules="short", robots=ROBOTS)  # the place is free again


def test_closing_twice_is_a_conflict(make_user):
    me = make_user()
    table = tables.create_table(user=me, rules="short", robots=ROBOTS)
    tables.close_table(user=me, table_id=table.pk)
    with pytest.raises(Conflict):
        tables.close_table(user=me, table_id=table.pk)
    assert api_as(me).post(f"/api/play/tables/{table.pk}/close/").status_code == 409


def test_a_player_at_the_table_or_a_stranger_may_not_close_it(make_user):
    me, guest, stranger = make_user(), make_user(), make_user()
    table = tables.create_table(user=me, rules="short", robots=ROBOTS)
    tables.take_seat(user=guest, table_id=table.pk, seat="W", invite=table.invite)
    for user in (guest, stranger):
        with pytest.raises(Forbidden):
            tables.close_table(user=user, table_id=table.pk)
        assert api_as(user).post(f"/api/play/tables/{table.pk}/close/").status_code == 403
    assert APIClient().post(f"/api/play/tables/{table.pk}/close/").status_code in (401, 403)
    assert fresh(table).finished_at is None


def test_an_events_table_is_not_closed_here(make_user, organiser, event):
    table = PlayTable.objects.create(rules="short", event=event, round_number=1, table_number=1,
                                     created_by=organiser)
    with pytest.raises(Forbidden):
        tables.close_table(user=organiser, table_id=table.pk)
    assert fresh(table).finished_at is None


def test_no_such_table_is_404(make_user):
    assert api_as(make_user()).post("/api/play/tables/999999/close/").status_code == 404


def test_the_lobby_closes_a_table_by_its_button(client, make_user):
    me, guest = make_user(), make_user()
    mine = tables.create_table(user=me, rules="short", robots=ROBOTS)
    theirs = tables.create_table(user=guest, rules="short", robots=ROBOTS)
    tables.take_seat(user=me, table_id=theirs.pk, seat="W", invite=theirs.invite)
    client.force_login(me)
    page = client.get("/play/").content.decode()
    assert f'action="/play/{mine.pk}/close/"' in page
    assert f'action="/play/{theirs.pk}/close/"' not in page  # a table they only sit at
    answer = client.post(f"/play/{mine.pk}/close/", follow=True)
    assert "The table is closed." in answer.content.decode()
    assert fresh(mine).finished_at is not None
    answer = client.post(f"/play/{theirs.pk}/close/", follow=True)
    assert "Only the table&#x27;s creator may close it." in answer.content.decode()
    assert fresh(theirs).finished_at is None


def test_the_lobby_says_a_closed_table_is_closed(client, make_user):
    me = make_user()
    table = tables.create_table(user=me, rules="short", robots=ROBOTS)
    tables.close_table(user=me, table_id=table.pk)
    client.force_login(me)
    page = client.get("/play/").content.decode()
    assert "<td>Closed</td>" in page and "Game over" not in page
