"""The organiser's page of an evening's online tables (/console/events/<id>/online-tables/):
linked from the evening's console, it sets the tables online, on paper or mixed (the audit
log says who and what), refuses a bad list (400), keeps a change asked during a round for the next round, is
the organisers' only, lists the online tables to watch, and speaks en/ru/uk. An event's
table page gives its organisers every seat's controls (a robot or a substitute)."""
import re

import pytest
from django.test import Client

from drive.events.models import AuditEntry
from drive.games.models import PlayTable
from drive.scoring.models import OnlineTables
from drive.scoring.services import evening as ev
from tests.play.evening_kit import seated_evening, user_of

pytestmark = pytest.mark.django_db


def signed_in(user, language="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def url(event):
    return f"/console/events/{event.pk}/online-tables/"


@pytest.fixture
def event(make_event):
    return seated_evening(make_event)


def test_the_evening_console_links_to_the_page(event, organiser):
    page = signed_in(organiser).get(f"/console/events/{event.pk}/evening/").content.decode()
    assert f'href="{url(event)}"' in page


def test_the_organiser_sets_mixed_tables_and_the_audit_log_says_so(event, organiser):
    client = signed_in(organiser)
    page = client.get(url(event))
    assert page.status_code == 200
    assert re.search(r'<input type="radio" name="mode" value="paper"[^>]* checked>', page.content.decode())
    answer = client.post(url(event), {"mode": "mixed", "tables": "1, 3-4", "robot": "strong"})
    assert answer.status_code == 302 and answer["Location"] == url(event)
    setting = OnlineTables.objects.get(event=event)
    assert (setting.mode, setting.tables, setting.robot) == ("mixed", [1, 3, 4], "strong")
    entry = AuditEntry.objects.get(event=event, action="tables.online")
    assert entry.actor == organiser and entry.after == {"mode": "mixed", "tables": [1, 3, 4], "robot": "strong"}
    assert entry.before == {"mode": "paper", "tables": [], "robot": "rules"}
    shown = client.get(url(event)).content.decode()
    assert 'value="1, 3-4"' in shown and "Saved" in shown
    audit = client.get(f"/console/events/{event.pk}/audit/").content.decode()
    assert "online tables set" in audit


@pytest.mark.parametrize("form, message", [
    ({"mode": "mixed", "tables": "", "robot": "rules"}, "Say which tables play online."),
    ({"mode": "mixed", "tables": "one", "robot": "rules"}, "Give table numbers"),
    ({"mode": "mixed", "tables": "0", "robot": "rules"}, "Give table numbers"),
    ({"mode": "mixed", "tables": "5-2", "robot": "rules"}, "Give table numbers"),
    ({"mode": "telepathy", "robot": "rules"}, "Select a valid choice"),
    ({"mode": "online", "robot": "oracle"}, "Select a valid choice"),
])
def test_a_bad_form_is_a_400_with_its_message(event, organiser, form, message):
    answer = signed_in(organiser).post(url(event), form)
    assert answer.status_code == 400 and message in answer.content.decode()
    assert not OnlineTables.objects.filter(event=event).exists()


def test_a_change_during_a_round_is_kept_for_the_next_round(event, organiser):
    client = signed_in(organiser)
    client.post(url(event), {"mode": "online", "tables": "", "robot": "rules"})
    ev.start_round(actor=organiser, event=event)
    answer = client.post(url(event), {"mode": "paper", "tables": "", "robot": "rules"})
    assert answer.status_code == 302  # as the help says: it holds from the next round
    assert OnlineTables.objects.get(event=event).mode == "paper"
    assert "holds from the next round" in client.get(url(event)).content.decode()


def test_the_online_tables_are_listed_to_watch(event, organiser):
    client = signed_in(organiser)
    assert "No online table yet" in client.get(url(event)).content.decode()
    client.post(url(event), {"mode": "mixed", "tables": "2", "robot": "rules"})
    ev.start_round(actor=organiser, event=event)
    table = PlayTable.objects.get(event=event)
    page = client.get(url(event)).content.decode()
    assert f'href="/play/{table.pk}/">Watch</a>' in page and f'href="/play/{table.pk}/hands/"' in page
    assert f"p5-{event.pk}" in page  # table 2's North: the account's name


@pytest.mark.parametrize("who", ["player", "stranger", "other organiser"])
def test_nobody_else_gets_in(event, make_user, other_club, who):
    users = {"player": lambda: user_of(event, 1), "stranger": lambda: make_user("stranger"),
             "other organiser": lambda: other_club.organisers.get()}
    client = signed_in(users[who]())
    assert client.get(url(event)).status_code in (403, 404)
    assert client.post(url(event), {"mode": "online", "robot": "rules"}).status_code in (403, 404)
    assert not OnlineTables.objects.filter(event=event).exists()
    anonymous = Client().get(url(event))
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]


@pytest.mark.parametrize("language, heading", [("ru", "Как играются столы"), ("uk", "Як грають столи")])
def test_the_page_speaks_russian_and_ukrainian(event, organiser, language, heading):
    page = signed_in(organiser, language).get(url(event)).content.decode()
    assert heading in page and "How the tables play" not in page


def test_an_events_table_gives_its_organisers_every_seat(event, organiser):
    signed_in(organiser).post(url(event), {"mode": "online", "robot": "rules"})
    ev.start_round(actor=organiser, event=event)
    table = PlayTable.objects.get(event=event, table_number=1)
    page = signed_in(organiser).get(f"/play/{table.pk}/").content.decode()
    assert 'data-manage="1" data-manage-all="1"' in page
    assert f"<h1>{event.title} · round 1, table 1</h1>" in page  # not the preset's name
    player_page = signed_in(user_of(event, 1)).get(f"/play/{table.pk}/").content.decode()
    assert 'data-manage="1"' not in player_page
