"""The organiser's players page: late arrivals join, leavers go; organisers only."""
import pytest


from drive.events.services import arrivals as arrival_services
from drive.movements.models import Entrant
from drive.scoring.services import evening as ev
from tests.scoring.test_evening import checked_in_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(make_event, organiser, django_capture_on_commit_callbacks):
    event = checked_in_event(make_event, organiser, 8, rounds=3, hands_per_round=1, movement_kind="individual")
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_evening(actor=organiser, event=event)
    event.refresh_from_db()
    return event


def test_late_arrival_and_leaver_from_the_page(client, running, organiser):
    late = arrival_services.add_walk_in(actor=organiser, event=running, display_name="Late Larry")
    client.force_login(organiser)
    page = client.get(f"/console/events/{running.pk}/players/").content.decode()
    assert "Late Larry" in page and "Add to the evening" in page
    client.post(f"/console/events/{running.pk}/players/join/{late.pk}/")
    assert Entrant.objects.filter(event=running, player=late.player).exists()
    leaver = Entrant.objects.get(event=running, number=2)
    client.post(f"/console/events/{running.pk}/players/leave/{leaver.pk}/")
    leaver.refresh_from_db()
    assert leaver.left_after_round == 0  # round 1 had not started: they play no round
    page = client.get(f"/console/events/{running.pk}/players/").content.decode()
    assert "left before playing" in page and "Add to the evening" not in page


def test_players_page_is_for_organisers(client, running, make_user):
    client.force_login(make_user())
    assert client.get(f"/console/events/{running.pk}/players/").status_code == 403
    entrant = Entrant.objects.get(event=running, number=1)
    assert client.post(f"/console/events/{running.pk}/players/leave/{entrant.pk}/").status_code == 403
    entrant.refresh_from_db()
    assert entrant.left_after_round is None


def test_players_api(api, running, organiser, make_user):
    late = arrival_services.add_walk_in(actor=organiser, event=running, display_name="Late Lucy")
    api.force_authenticate(make_user())
    assert api.get(f"/api/events/{running.pk}/evening/players/").status_code == 403
    assert api.post(f"/api/events/{running.pk}/evening/late-arrivals/", {"registration": late.pk}, format="json").status_code == 403
    api.force_authenticate(organiser)
    body = api.get(f"/api/events/{running.pk}/evening/players/").json()
    assert [r["name"] for r in body["late_arrivals"]] == ["Late Lucy"] and len(body["entrants"]) == 8
    joined = api.post(f"/api/events/{running.pk}/evening/late-arrivals/", {"registration": late.pk}, format="json")
    assert joined.status_code == 201 and joined.json()["number"] == 9
    again = api.post(f"/api/events/{running.pk}/evening/late-arrivals/", {"registration": late.pk}, format="json")
    assert again.status_code == 409
    assert api.post(f"/api/events/{running.pk}/evening/leavers/", {"entrant": "x"}, format="json").status_code == 400
    left = api.post(f"/api/events/{running.pk}/evening/leavers/", {"entrant": joined.json()["id"]}, format="json")
    assert left.status_code == 200 and left.json()["left_after_round"] == 0
