"""The API of an evening's online tables: GET for whoever may see the event, PUT for its
organisers only (400 with the field, 403, 404; a change asked during a round is kept for
the next round), and the online tables listed with their hand-history links."""
import pytest

from drive.games.models import PlayTable
from drive.scoring.models import OnlineTables
from drive.scoring.services import evening as ev
from tests.play.evening_kit import past_deadline, seated_evening

pytestmark = pytest.mark.django_db


def url(event):
    return f"/api/play/events/{event.pk}/tables/"


@pytest.fixture
def event(make_event):
    return seated_evening(make_event)


def test_the_organiser_puts_the_setting_and_reads_it_back(api, event, organiser):
    api.force_login(organiser)
    response = api.put(url(event), {"mode": "mixed", "tables": [1]}, format="json")
    assert response.status_code == 200, response.content
    assert response.json() == {"event": event.pk, "mode": "mixed", "tables": [1], "robot": "rules", "online": []}
    assert api.get(url(event)).json()["mode"] == "mixed"


@pytest.mark.parametrize("who", ["anonymous", "player", "stranger", "other organiser"])
def test_nobody_else_may_change_it(api, event, make_user, other_club, who):
    users = {"player": lambda: event.entrants.get(number=1).player.user,
             "stranger": lambda: make_user("stranger"), "other organiser": lambda: other_club.organisers.get()}
    if who != "anonymous":
        api.force_login(users[who]())
    response = api.put(url(event), {"mode": "online"}, format="json")
    assert response.status_code == 403, response.content
    assert not OnlineTables.objects.filter(event=event).exists()


def test_an_unpublished_event_is_not_found_outside_its_club(api, make_event, make_user):
    hidden = seated_evening(make_event, published=False)
    api.force_login(make_user("outsider"))
    assert api.get(url(hidden)).status_code == 404
    assert api.put(url(hidden), {"mode": "online"}, format="json").status_code == 404
    assert api.get("/api/play/events/999999/tables/").status_code == 404


def test_a_bad_setting_is_a_400_with_its_field(api, event, organiser):
    api.force_login(organiser)
    response = api.put(url(event), {"mode": "carrier pigeon"}, format="json")
    assert response.status_code == 400 and "mode" in response.json()
    response = api.put(url(event), {"mode": "mixed"}, format="json")
    assert response.status_code == 400 and "tables" in response.json(), response.content


def test_a_change_during_a_round_is_kept_and_the_round_keeps_its_tables(api, event, organiser):
    api.force_login(organiser)
    api.put(url(event), {"mode": "online"}, format="json")
    ev.start_round(actor=organiser, event=event)
    response = api.put(url(event), {"mode": "paper"}, format="json")
    assert response.status_code == 200 and response.json()["mode"] == "paper", response.content
    listed = api.get(url(event)).json()["online"]
    assert [(t["round"], t["table"]) for t in listed] == [(1, 1), (1, 2)]
    first = listed[0]
    table = PlayTable.objects.get(event=event, table_number=1)
    assert first["url"] == f"/play/{table.pk}/" and first["hands_url"] == f"/play/{table.pk}/hands/"
    assert first["seconds_left"] > 0 and not first["round_closed"]
    assert [s["seat"] for s in first["seats"]] == list("NESW") and first["seats"][0]["name"]
    past_deadline(event)
    ev.end_round(actor=organiser, event=event)
    listed = api.get(url(event)).json()["online"]
    assert all(t["over"] and t["round_closed"] and t["finished_by_robots"] == [1, 2] for t in listed)
    assert api.put(url(event), {"mode": "online"}, format="json").status_code == 200


def test_the_hands_api_follows_the_round(api, event, organiser, make_user):
    api.force_login(organiser)
    api.put(url(event), {"mode": "online"}, format="json")
    ev.start_round(actor=organiser, event=event)
    table = PlayTable.objects.get(event=event, table_number=1)
    api.force_login(make_user("watcher"))
    assert api.get(f"/api/play/tables/{table.pk}/hands/").status_code == 403
    past_deadline(event)
    ev.end_round(actor=organiser, event=event)
    response = api.get(f"/api/play/tables/{table.pk}/hands/")
    assert response.status_code == 200 and len(response.json()["hands"]) == 2
