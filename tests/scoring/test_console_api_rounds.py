"""The evening's state for any round seated so far (`?round=N`): its tables, hands and
seating, while `round` stays the round in hand; a round not seated is a 404, a malformed
number a 400 with the parameter's message."""
import pytest
from django.utils import timezone

from drive.events.models import Event
from drive.movements.models import Movement
from drive.scoring.models import Table

from .test_console_pages import PLAN, confirm_table

pytestmark = pytest.mark.django_db


def state_url(event, query=""):
    return f"/api/events/{event.pk}/evening/" + (f"?{query}" if query else "")


@pytest.fixture
def org_api(api, organiser):
    api.force_authenticate(organiser)
    return api


@pytest.fixture
def second_round(evening, org_api):
    """Round 1 played (every hand 7-6) and closed, round 2 playing, seated by the movement."""
    Movement.objects.create(event=evening, kind="individual", players=9, rounds=2, status="ready", plan=PLAN)
    for table in Table.objects.filter(event=evening):
        confirm_table(table)
    assert org_api.post(state_url(evening) + "end-round/", {"round": 1}, format="json").status_code == 200
    assert org_api.post(state_url(evening) + "start-round/", {"round": 2}, format="json").status_code == 200
    return evening


def test_by_default_the_round_in_hand_is_shown(org_api, second_round, monkeypatch):
    read_at = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: read_at)  # both reads see one clock, however slow the machine
    data = org_api.get(state_url(second_round)).json()
    assert data["round"]["number"] == 2 and data["shown_round"] == 2 and data["shown_round_state"] == "playing"
    assert data["played_rounds"] == [1, 2]
    assert data["tables_out"] == [1, 2] and all(h["status"] == "missing" for h in data["tables"][0]["hands"])
    assert data["seating"]["tables"][0] == {**data["seating"]["tables"][0], "table": 1, "N": "P9", "E": "P1"}
    assert data == org_api.get(state_url(second_round, "round=2")).json()


def test_a_past_round_is_shown_with_its_hands_while_the_round_in_hand_stays(org_api, second_round):
    data = org_api.get(state_url(second_round, "round=1")).json()
    assert data["round"]["number"] == 2 and data["moves"] == ["pause", "end-round"]  # still the round in hand
    assert data["shown_round"] == 1 and data["shown_round_state"] == "closed"
    assert data["tables_in"] == [1, 2] and data["tables_out"] == [] and data["tables_disputed"] == []
    hands = data["tables"][0]["hands"]
    assert [(h["hand_number"], h["status"], h["ns_tricks"], h["ew_tricks"]) for h in hands] == [
        (1, "confirmed", 7, 6), (2, "confirmed", 7, 6)]
    assert all(isinstance(h["version"], int) and h["version"] >= 1 for h in hands)
    row = data["seating"]["tables"][0]
    assert (row["table"], row["N"], row["E"], row["S"], row["W"]) == (1, "P1", "P2", "P3", "P4")
    assert data["seating"]["sit_out"] == ["P9"]


def test_a_round_not_seated_yet_is_not_found(org_api, evening):
    assert evening.evening_rounds.get(number=2).state == "pending"
    response = org_api.get(state_url(evening, "round=2"))
    assert response.status_code == 404 and response.json()["detail"] == "That round has not been played."
    assert org_api.get(state_url(evening, "round=3")).status_code == 404  # the evening has two rounds
    assert org_api.get(state_url(evening, "round=1")).status_code == 200


def test_an_empty_round_is_the_round_in_hand(org_api, evening):
    assert org_api.get(state_url(evening, "round=")).json()["shown_round"] == 1


def test_before_the_evening_no_round_is_found(org_api, event):
    assert org_api.get(state_url(event, "round=1")).status_code == 404
    assert org_api.get(state_url(event)).json()["shown_round"] is None


@pytest.mark.parametrize("value", ["0", "-1", "abc", "1.5", "10001", "1e3", "٢", " 1", "true"])
def test_a_malformed_round_is_400_with_its_message(org_api, evening, value):
    response = org_api.get(state_url(evening, f"round={value}"))
    assert response.status_code == 400, (value, response.content)
    assert list(response.json()) == ["round"] and response.json()["round"]


# --- who may -----------------------------------------------------------------------------------------


def test_anonymous_and_players_are_refused_whatever_the_round(api, evening, make_user):
    for query in ("round=1", "round=abc", "round=2"):
        assert api.get(state_url(evening, query)).status_code == 403
    api.force_authenticate(make_user("player"))
    for query in ("round=1", "round=abc", "round=2"):
        assert api.get(state_url(evening, query)).status_code == 403


def test_an_organiser_of_another_club_is_refused(api, evening, other_club):
    api.force_authenticate(other_club.organisers.get())
    assert api.get(state_url(evening, "round=1")).status_code == 403


def test_an_unknown_or_hidden_event_is_not_found(api, org_api, evening, make_user):
    assert org_api.get(f"/api/events/999999/evening/?round=1").status_code == 404
    Event.objects.filter(pk=evening.pk).update(published=False)
    api.force_authenticate(make_user("player"))
    assert api.get(state_url(evening, "round=1")).status_code == 404


def test_the_schema_documents_the_round_parameter(api):
    operation = api.get("/api/schema/?format=json").json()["paths"]["/api/events/{event_id}/evening/"]["get"]
    parameter = next(p for p in operation["parameters"] if p["name"] == "round")
    assert parameter["in"] == "query" and parameter["schema"]["type"] == "integer"
    assert not parameter.get("required")
    assert {"200", "400", "403", "404"} <= set(operation["responses"])
