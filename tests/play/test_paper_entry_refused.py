"""A table played online takes no paper results: its hands count as the engine plays
them. The phone's result entry (REST and page) answers 409 with a message saying so and
where the table is played (never a 500), the table's page shows that instead of the
entry form, and a paper table of the same mixed evening enters as before."""
import pytest
from django.test import Client

from drive.games.models import PlayTable
from drive.scoring.services import online_tables as evening
from drive.scoring.models import HandResult, Table
from drive.scoring.services import evening as ev
from tests import seats
from tests.play.evening_kit import play_hand, seated_evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def mixed(make_event, organiser):
    """Table 1 online, table 2 on paper; round 1's clock running."""
    event = seated_evening(make_event)
    evening.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[1])
    ev.start_round(actor=organiser, event=event)
    return event


def test_the_rest_entry_of_an_online_table_is_a_409_with_a_message(mixed, api):
    online, paper = Table.objects.get(event=mixed, number=1), Table.objects.get(event=mixed, number=2)
    response = seats.api_enter(api, online, "N", hand_number=1, ns_tricks=7, trump="H")
    assert response.status_code == 409, response.content
    body = response.json()
    play = PlayTable.objects.get(event=mixed, table_number=1)
    assert "played online" in body["detail"] and body["code"] == "conflict" and body["url"] == f"/play/{play.pk}/"
    assert not HandResult.objects.filter(table=online).exists()
    assert seats.api_enter(api, paper, "N", hand_number=1, ns_tricks=7, trump="H").status_code == 201


def test_the_online_table_still_refuses_once_its_hands_are_played_and_the_round_closed(mixed, api, organiser):
    play = PlayTable.objects.get(event=mixed, table_number=1)
    play_hand(play)
    online = Table.objects.get(event=mixed, number=1)
    stored = HandResult.objects.get(table=online, hand_number=1)
    response = seats.api_enter(api, online, "E", hand_number=1, ns_tricks=13 - stored.ns_tricks, trump="H")
    assert response.status_code == 409, response.content
    assert HandResult.objects.get(pk=stored.pk).ns_tricks == stored.ns_tricks  # the hand as played stands
    ev.end_round(actor=organiser, event=mixed, force=True)
    response = seats.api_enter(api, online, "E", hand_number=2, ns_tricks=6, trump="H")
    assert response.status_code == 409 and "played online" in response.json()["detail"]


def test_the_table_api_says_the_table_plays_online(mixed, api):
    online = Table.objects.get(event=mixed, number=1)
    state = api.get(f"/api/tables/{online.token}/").json()
    play = PlayTable.objects.get(event=mixed, table_number=1)
    assert state["stage"] == "online" and state["open"] is False and state["online_url"] == f"/play/{play.pk}/"
    paper = api.get(f"/api/tables/{Table.objects.get(event=mixed, number=2).token}/").json()
    assert paper["stage"] == "playing" and paper["online_url"] is None


def test_the_phone_page_refuses_with_its_message_and_links_to_the_table(mixed):
    online = Table.objects.get(event=mixed, number=1)
    play = PlayTable.objects.get(event=mixed, table_number=1)
    phone = Client()
    page = phone.get(f"/t/{online.token}/").content.decode()
    assert "This table plays online" in page and f'href="/play/{play.pk}/"' in page
    assert 'name="ns_tricks"' not in page and "Who are you?" not in page
    answer = phone.post(f"/t/{online.token}/hands/", {"hand_number": "1", "ns_tricks": "7", "trump": "H"})
    assert answer.status_code == 409 and "played online" in answer.content.decode()
    assert not HandResult.objects.filter(table=online).exists()


def test_the_page_says_it_in_russian(mixed):
    online = Table.objects.get(event=mixed, number=1)
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(f"/t/{online.token}/").content.decode()
    assert "Этот стол играет онлайн" in page
