"""The online-play pages: the lobby opens a table with robots, the table page carries
the reader's words (Russian here) and the view, the hand history shows a finished hand
to the table's players only (with the double-dummy review) until the game is over."""
import json
import re

import pytest
from django.test import Client

from drive.games.models import PlayTable
from drive.games.services import actions, tables
from drive.games.selectors.tables import table_view


def signed_in(user, language="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_lobby_opens_a_table_with_robots_and_lists_it(make_user):
    me = make_user("host")
    client = signed_in(me)
    answer = client.post("/play/", {"rules": "prussian", "robot_S": "rules", "robot_E": "rules"})
    table = PlayTable.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/play/{table.pk}/"
    assert {s.seat: s.robot for s in table.seats.all()} == {"N": "", "S": "rules"}  # E is not a seat of prussian
    assert "Prussian whist" in client.get("/play/").content.decode()
    assert client.post("/play/", {"rules": "no-such-game"}).status_code == 400


@pytest.mark.django_db
def test_the_table_page_speaks_the_readers_language(make_user):
    me = make_user("host")
    table = tables.create_table(user=me, rules="short", robots={"E": "rules", "S": "rules", "W": "rules"})
    page = signed_in(me, "ru").get(f"/play/{table.pk}/").content.decode()
    words = json.loads(re.search(r'<script id="play-words" type="application/json">(.*?)</script>', page).group(1))
    assert words["suits"]["S"] == "Пики" and words["ranks"]["Q"] == "Д" and words["seats"]["N"] == "С"
    view = json.loads(re.search(r'<script id="play-view" type="application/json">(.*?)</script>', page).group(1))
    assert view["seat"] == "N" and len(view["hand"]) == 13
    assert f'data-ws="/ws/play/{table.pk}/"' in page


@pytest.mark.django_db
def test_the_hand_history_is_the_players_until_the_game_is_over(make_user, django_capture_on_commit_callbacks):
    me, stranger = make_user("host"), make_user("stranger")
    with django_capture_on_commit_callbacks(execute=True):
        table = tables.create_table(user=me, rules="short", robots={"E": "rules", "S": "rules", "W": "rules"})
    for _ in range(13):
        table.refresh_from_db()
        view = table_view(me, table)
        with django_capture_on_commit_callbacks(execute=True):
            actions.apply_action(user=me, table_id=table.pk, action=view["legal"][0], version=view["version"])
    table.refresh_from_db()
    assert table_view(me, table)["hands_played"] >= 1
    page = signed_in(me).get(f"/play/{table.pk}/hands/")
    assert page.status_code == 200
    text = page.content.decode()
    assert text.count('class="trick-row"') == 13 and "Double-dummy review" in text
    assert signed_in(stranger).get(f"/play/{table.pk}/hands/").status_code == 403


@pytest.mark.django_db
def test_the_table_page_is_opened_by_its_invitation_and_the_creator_gets_the_seat_controls(make_user):
    me, friend, stranger = make_user("host"), make_user("friend"), make_user("stranger")
    table = tables.create_table(user=me, rules="short", robots={"W": "rules"})
    mine = signed_in(me).get(f"/play/{table.pk}/").content.decode()
    assert f"/play/{table.pk}/?invite={table.invite}" in mine  # the link to send
    assert 'data-manage="1"' in mine and 'id="play-manage"' in mine
    outsider = signed_in(stranger)
    for query in ("", "?invite=", f"?invite={table.invite[:-1]}", f"?invite={table.invite.upper()}"):
        assert outsider.get(f"/play/{table.pk}/{query}").status_code == 403, query
        assert outsider.get(f"/play/{table.pk}/hands/{query}").status_code == 403, query
    assert outsider.post(f"/play/{table.pk}/seat/", {"seat": "E"}).status_code == 302
    assert table.seats.get(seat="E").user is None  # refused: no invitation
    guest = signed_in(friend)
    page = guest.get(f"/play/{table.pk}/?invite={table.invite}").content.decode()
    assert 'data-manage="1"' not in page and f'name="invite" value="{table.invite}"' in page
    assert 'class="invite"' not in page  # a watcher is not shown the link to pass on
    assert guest.post(f"/play/{table.pk}/seat/", {"seat": "E"}).status_code == 302  # the session keeps the link
    assert table.seats.get(seat="E").user == friend
    page = guest.get(f"/play/{table.pk}/").content.decode()
    assert 'class="invite"' in page and 'data-manage="1"' not in page


@pytest.mark.django_db
@pytest.mark.parametrize("language, words", [("ru", ["свободное место (пригласить)", "робот по правилам"]),
                                             ("uk", ["вільне місце (запросити)"])])
def test_the_lobby_speaks_the_readers_language_in_every_choice(make_user, language, words):
    """The lobby's seat choices are translated when the page is made (not once, at import)."""
    signed_in(make_user("host"), "en").get("/play/")  # an English page first: nothing is kept from it
    page = signed_in(make_user("guest"), language).get("/play/").content.decode()
    assert all(word in page for word in words) and "open seat (invite)" not in page
