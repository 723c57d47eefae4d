"""The organiser's console on a mixed evening: the grid of the round marks a table played
online ("online", in the page's language) with a link to watch its game, the hook's URL;
the console's API says the same (`online_url` per table, documented in the schema). The
table's console page offers no paper entry of a hand still being played online nor the
phones' seats, but any stored hand is corrected as at a paper table (correct_result).
The grid asks for the round's online tables once, whatever their number."""
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from drive.events.models import Event, Player
from drive.movements.models import Entrant
from drive.games.models import PlayTable
from drive.scoring.services import online_tables as evening
from drive.scoring.models import HandResult, OnlineTables, Round, Seat, Table
from drive.scoring.selectors import console as selectors
from drive.scoring.services import evening as ev
from tests.play.evening_kit import play_hand, seated_evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def mixed(make_event, organiser):
    """Table 1 online, table 2 on paper; round 1's clock running."""
    event = seated_evening(make_event)
    evening.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[1])
    ev.start_round(actor=organiser, event=event)
    return event


def signed_in(user, language="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def tile(page, number):
    """The grid's <li> of table `number`."""
    match = re.search(r'<li(?: class="online")?><a class="tbl [^"]*" id="table-%d".*?</li>' % number, page, re.S)
    assert match, f"no tile for table {number}"
    return match.group(0)


def play_url(event, number=1, round_number=1):
    return f"/play/{PlayTable.objects.get(event=event, round_number=round_number, table_number=number).pk}/"


def test_the_grid_marks_the_online_table_with_a_link_to_watch_it(mixed, organiser):
    page = signed_in(organiser).get(f"/console/events/{mixed.pk}/evening/").content.decode()
    online, paper = tile(page, 1), tile(page, 2)
    assert online.startswith('<li class="online">')
    assert '<span class="tag tbl-online">online</span>' in online
    assert f'<a class="tbl-watch" href="{play_url(mixed)}"' in online and ">Watch</a>" in online
    assert "online" not in paper and "/play/" not in paper
    # The tile still opens the table's hands (corrections) in the console.
    assert f'href="/console/events/{mixed.pk}/evening/rounds/1/tables/1/"' in online


def test_the_live_refresh_of_the_grid_marks_it_too(mixed, organiser):
    page = signed_in(organiser).get(f"/console/events/{mixed.pk}/evening/live/").content.decode()
    assert f'<a class="tbl-watch" href="{play_url(mixed)}"' in tile(page, 1)


@pytest.mark.parametrize("language, label, watch", [("ru", "онлайн", "Смотреть"), ("uk", "онлайн", "Дивитися")])
def test_the_mark_speaks_russian_and_ukrainian(mixed, organiser, language, label, watch):
    page = signed_in(organiser, language).get(f"/console/events/{mixed.pk}/evening/").content.decode()
    online = tile(page, 1)
    assert f'<span class="tag tbl-online">{label}</span>' in online and f">{watch}</a>" in online
    assert "Watch table" not in online and "a table played online" not in page


def test_a_paper_evening_marks_nothing(make_event, organiser):
    event = seated_evening(make_event)
    ev.start_round(actor=organiser, event=event)
    page = signed_in(organiser).get(f"/console/events/{event.pk}/evening/").content.decode()
    assert "tbl-online" not in page and "tbl-watch" not in page
    state = selectors.evening_state(event)
    assert [t["online_url"] for t in state["tables"]] == [None, None] and state["tables_online"] == []


def test_an_online_evening_marks_every_table_and_an_earlier_round_keeps_its_links(make_event, organiser):
    event = seated_evening(make_event)
    evening.set_online_tables(actor=organiser, event=event, mode="online")
    ev.start_round(actor=organiser, event=event)
    urls = [play_url(event, 1), play_url(event, 2)]
    assert [t["online_url"] for t in selectors.evening_state(event)["tables"]] == urls
    ev.end_round(actor=organiser, event=event, force=True)  # robots finish the hands; round 2 is seated
    state = selectors.evening_state(event)
    assert state["shown_round"] == 2 and state["tables_online"] == []  # dealt when its clock starts
    past = selectors.evening_state(event, round_number=1)
    assert [t["online_url"] for t in past["tables"]] == urls and past["tables_online"] == [1, 2]


def test_the_api_carries_the_online_url_per_table(mixed, organiser):
    api = APIClient()
    api.force_authenticate(organiser)
    body = api.get(f"/api/events/{mixed.pk}/evening/").json()
    assert [(t["table"], t["online_url"]) for t in body["tables"]] == [(1, play_url(mixed)), (2, None)]
    assert body["tables_online"] == [1]
    table = api.get(f"/api/events/{mixed.pk}/rounds/1/tables/1/").json()
    assert table["online_url"] == play_url(mixed)
    assert api.get(f"/api/events/{mixed.pk}/rounds/1/tables/2/").json()["online_url"] is None


def test_the_schema_documents_the_online_url(organiser):
    api = APIClient()
    api.force_authenticate(organiser)
    schemas = api.get("/api/schema/?format=json").json()["components"]["schemas"]
    field = schemas["TableState"]["properties"]["online_url"]
    assert field["nullable"] is True and "/play/12/" in field["description"]
    assert "online_url" in schemas["TableState"]["required"]
    assert "online" in schemas["Evening"]["properties"]["tables_online"]["description"]
    assert schemas["RoundTable"]["properties"]["online_url"]["nullable"] is True


def test_the_online_tables_console_page_offers_no_paper_entry_while_it_is_played(mixed, organiser):
    client = signed_in(organiser)
    page = client.get(f"/console/events/{mixed.pk}/evening/rounds/1/tables/1/").content.decode()
    assert '<span class="tag tbl-online">online</span>' in page
    assert f'href="{play_url(mixed)}">Watch table 1 online</a>' in page
    assert "Who holds each seat" not in page and "New link for this table" not in page
    assert "Enter this hand's result" not in page and page.count("Being played online") == 2
    paper = client.get(f"/console/events/{mixed.pk}/evening/rounds/1/tables/2/").content.decode()
    assert "Who holds each seat" in paper and paper.count("Enter this hand's result") == 2
    assert "tbl-online" not in paper and "Being played online" not in paper


def test_a_hand_played_online_is_still_corrected_from_the_console(mixed, organiser):
    play_hand(PlayTable.objects.get(event=mixed, table_number=1))
    table = Table.objects.get(event=mixed, number=1)
    played = HandResult.objects.get(table=table, hand_number=1)
    client = signed_in(organiser)
    url = f"/console/events/{mixed.pk}/evening/rounds/1/tables/1/"
    page = client.get(url).content.decode()
    assert "Correct this hand" in page and "Revoke penalty" in page  # hand 1, stored
    assert page.count("Being played online") == 1  # hand 2, still being played
    answer = client.post(url + "hands/1/correct/", {"h1-ns_tricks": 13 - played.ns_tricks, "h1-kind": "correction",
                                                    "h1-reason": "misclick", "h1-trump": played.trump,
                                                    "h1-expected_version": played.version})
    assert answer.status_code == 302, answer.content.decode()
    corrected = HandResult.objects.get(pk=played.pk)
    assert corrected.ns_tricks == 13 - played.ns_tricks and corrected.change_kind == "correction"


def test_once_the_round_is_closed_a_hand_of_an_online_table_can_be_entered(mixed, organiser):
    """Robots finish the hands at the close; one that is still missing (as here, its row
    gone) is the organiser's to enter, as correct_result allows."""
    ev.end_round(actor=organiser, event=mixed, force=True)
    HandResult.objects.filter(round__number=1, table__number=1, hand_number=2).delete()
    page = signed_in(organiser).get(f"/console/events/{mixed.pk}/evening/rounds/1/tables/1/").content.decode()
    assert "tbl-online" in page and "Being played online" not in page
    assert page.count("Enter this hand's result") == 1


def big_online_round(make_event, tables):
    """Round 1 of an evening of `tables` tables, all online, its clock running."""
    event = make_event(hands_per_round=2, rounds=1, phase=Event.Phase.IN_PROGRESS, movement_kind="individual")
    OnlineTables.objects.create(event=event, mode=OnlineTables.Mode.ONLINE)
    round_ = Round.objects.create(event=event, number=1, state=Round.State.PLAYING)
    for number in range(1, tables + 1):
        table = Table.objects.create(event=event, number=number)
        for i, position in enumerate("NESW"):
            n = 4 * (number - 1) + i + 1
            entrant = Entrant.objects.create(event=event, number=n, player=Player.objects.create(display_name=f"P{n}"))
            Seat.objects.create(round=round_, table=table, position=position, entrant=entrant)
        PlayTable.objects.create(event=event, round_number=1, table_number=number, rules="drive")
    return event


def queries(event):
    with CaptureQueriesContext(connection) as captured:
        state = selectors.evening_state(event)
    return len(captured), state


def test_the_grid_asks_for_the_online_tables_once_whatever_their_number(make_event):
    few, state = queries(big_online_round(make_event, 2))
    assert state["tables_online"] == [1, 2]
    many, state = queries(big_online_round(make_event, 12))
    assert state["tables_online"] == list(range(1, 13)) and all(t["online_url"] for t in state["tables"])
    assert many == few
