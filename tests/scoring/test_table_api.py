"""REST API of the tables' phones: the table's round, and the entry of a hand.

The same services as the entry page: 201 for a hand's first entry, 200 for a
confirmation, dispute, change or repeat, 400 with field messages, 404 for a wrong or
stale token, 409 with the stored hand. Each seat is its own phone: it claims its seat
first and sends the claim's secret (tests/seats.py; the forgeries: test_claims.py).
"""
import pytest
from rest_framework.test import APIClient

from drive.events.models import Event
from drive.scoring.models import HandResult, Round, Table
from tests import seats

from .conftest import seat_round

pytestmark = pytest.mark.django_db


def state_url(table):
    return f"/api/tables/{table.token}/"


def results_url(table):
    return f"/api/tables/{table.token}/results/"


def post(api, table, seat, hand, ns, trump="H", **extra):
    """The phone at `seat` (claimed through the API on its first entry) enters a hand."""
    body = {"seat": seat, "hand_number": hand, "ns_tricks": ns, **extra}
    if trump is not None:
        body["trump"] = trump
    return api.post(results_url(table), body, format="json", HTTP_X_SEAT_CLAIM=seats.api_claim(api, table, seat))


def test_the_table_s_round_seats_and_hands(api, table1, evening):
    post(api, table1, "N", 1, 8)
    response = api.get(state_url(table1))
    assert response.status_code == 200
    body = response.json()
    assert body["event"]["title"] == "Friday Drive" and body["event"]["confirmation"] == "opponents"
    assert body["table"] == 1 and body["round"] == {"number": 1, "state": "playing"}
    assert body["stage"] == "playing" and body["open"] is True and body["locked"] is False
    assert [(s["position"], s["name"], s["partner"], s["side"]) for s in body["seats"]] == [
        ("N", "P1", "P3", "NS"), ("E", "P2", "P4", "EW"), ("S", "P3", "P1", "NS"), ("W", "P4", "P2", "EW")]
    first, second = body["hands"]
    assert first["status"] == "entered" and (first["ns_tricks"], first["ew_tricks"], first["trump"]) == (8, 5, "H")
    assert first["entered_by"] == "N" and first["version"] == 1 and first["trump_fixed"] is False
    assert second["status"] == "missing" and second["ns_tricks"] is None
    assert body["next_round"] is None
    assert "entrant" not in body["seats"][0]  # ids stay inside


def test_wrong_and_stale_tokens_are_404(api, table1, evening):
    for path in ("/api/tables/nope/", "/api/tables/" + "A" * 32 + "/", "/api/tables/nope/results/",
                 "/api/tables/nope/claims/"):
        response = api.get(path) if path.count("/") == 4 else api.post(path, {}, format="json")
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    claim = seats.api_claim(api, table1, "N")
    Event.objects.filter(pk=evening.pk).update(phase=Event.Phase.RESULTS_PUBLISHED)
    assert api.get(state_url(table1)).status_code == 404
    assert post(api, table1, "N", 1, 8).status_code == 404
    assert api.post(results_url(table1), {"seat": "N", "hand_number": 1, "ns_tricks": 8, "trump": "H"},
                    format="json", HTTP_X_SEAT_CLAIM=claim).status_code == 404
    assert api.post(f"/api/tables/{table1.token}/claims/", {"seat": "E"}, format="json").status_code == 404


def test_entry_confirmation_and_repeats(api, table1):
    response = post(api, table1, "N", 1, 8)
    assert response.status_code == 201
    body = response.json()
    assert body["outcome"] == "created" and body["message"] == "Sent. Waiting for the opponents to confirm."
    assert body["round"] == 1 and body["table"] == 1 and body["hand"]["status"] == "entered"

    response = post(api, table1, "S", 1, 8)  # the partner's phone: nothing new
    assert response.status_code == 200 and response.json()["outcome"] == "unchanged"

    response = post(api, table1, "E", 1, 8)
    assert response.status_code == 200
    body = response.json()
    assert body["outcome"] == "confirmed" and body["hand"]["status"] == "confirmed"
    assert body["hand"]["confirmed_by"] == "E" and body["hand"]["version"] == 2

    for seat in "NESW":  # idempotent, from any seat
        response = post(api, table1, seat, 1, 8)
        assert response.status_code == 200 and response.json()["outcome"] == "unchanged"
    assert HandResult.objects.get().version == 2


def test_dispute_then_409_with_the_stored_values(api, table1):
    post(api, table1, "N", 1, 8)
    response = post(api, table1, "W", 1, 6)
    assert response.status_code == 200
    hand = response.json()["hand"]
    assert response.json()["outcome"] == "disputed" and response.json()["message"] == "Disputed: the organiser has been told."
    assert (hand["status"], hand["ns_tricks"], hand["disputed_ns_tricks"], hand["disputed_ew_tricks"]) == ("disputed", 8, 6, 7)

    response = post(api, table1, "N", 1, 7)
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "conflict" and "disputed" in body["detail"]
    assert body["stored"] == {"hand_number": 1, "ns_tricks": 8, "ew_tricks": 5, "trump": "H", "status": "disputed",
                              "version": 2}


def test_a_confirmed_hand_cannot_be_changed_by_the_players(api, table1):
    post(api, table1, "N", 1, 8)
    post(api, table1, "E", 1, 8)
    response = post(api, table1, "S", 1, 9)
    assert response.status_code == 409 and response.json()["stored"]["ns_tricks"] == 8


def test_a_locked_round_is_409_with_the_stored_values(api, table1):
    for hand in (1, 2):
        post(api, table1, "N", hand, 7)
        post(api, table1, "E", hand, 7)
    assert api.get(state_url(table1)).json()["locked"] is True
    assert api.get(state_url(table1)).json()["stage"] == "locked"
    response = post(api, table1, "E", 2, 7)  # a retry of the last confirmation
    assert response.status_code == 200 and response.json()["outcome"] == "unchanged"
    response = post(api, table1, "W", 2, 9)
    assert response.status_code == 409
    assert "locked" in response.json()["detail"] and response.json()["stored"]["ns_tricks"] == 7


def test_no_round_open_is_409(api, table1, evening):
    Round.objects.filter(event=evening, number=1).update(state=Round.State.SEATED)
    response = post(api, table1, "N", 1, 7)
    assert response.status_code == 409 and "No round is open" in response.json()["detail"]


def test_single_entry_is_created_and_confirmed_at_once(api, table1, evening):
    evening.result_confirmation = "single"
    evening.save()
    response = post(api, table1, "W", 2, 4, trump="C")
    assert response.status_code == 201 and response.json()["outcome"] == "confirmed"


def test_rotation_fixes_the_trump(api, table1, evening):
    evening.trump_rule = "rotation"
    evening.save()
    hands = api.get(state_url(table1)).json()["hands"]
    assert [(h["trump"], h["trump_fixed"]) for h in hands] == [("H", True), ("D", True)]  # rule D2
    assert post(api, table1, "N", 2, 7, trump=None).json()["hand"]["trump"] == "D"
    response = post(api, table1, "N", 1, 7, trump="S")
    assert response.status_code == 400 and "trump" in response.json()


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"ns_tricks": 14}, "ns_tricks"),
        ({"ns_tricks": -1}, "ns_tricks"),
        ({"ns_tricks": "seven"}, "ns_tricks"),
        ({"ns_tricks": True}, "ns_tricks"),
        ({"ns_tricks": 7.5}, "ns_tricks"),
        ({"ns_tricks": None}, "ns_tricks"),
        ({"hand_number": 3}, "hand_number"),
        ({"hand_number": 0}, "hand_number"),
        ({"hand_number": "first"}, "hand_number"),
        ({"seat": "X"}, "seat"),
        ({"seat": "n"}, "seat"),
        ({"trump": "NT"}, "trump"),
        ({"trump": "Z"}, "trump"),
        ({"trump": None}, "trump"),
    ],
)
def test_bad_input_is_400_with_the_field(api, table1, fields, field):
    body = {"seat": "N", "hand_number": 1, "ns_tricks": 7, "trump": "H", **fields}
    claim = seats.api_claim(api, table1, "N")
    response = api.post(results_url(table1), body, format="json", HTTP_X_SEAT_CLAIM=claim)
    assert response.status_code == 400, response.content
    assert field in response.json() and isinstance(response.json()[field], list)
    assert not HandResult.objects.exists()


def test_a_seat_nobody_sits_in_is_400(api, table1, evening):
    table3 = Table.objects.create(event=evening, number=3)
    response = api.post(f"/api/tables/{table3.token}/claims/", {"seat": "N"}, format="json")
    assert response.status_code == 400 and "seat" in response.json()


@pytest.mark.parametrize("body", [[], "7", {"seat": "N"}])
def test_a_body_that_is_not_an_entry_is_400(api, table1, body):
    assert api.post(results_url(table1), body, format="json").status_code == 400


def test_a_login_is_neither_needed_nor_in_the_way(table1, organiser):
    """The token is the key: a stale API token or a session without CSRF changes nothing."""
    api = APIClient(enforce_csrf_checks=True)
    api.force_login(organiser)
    assert post(api, table1, "N", 1, 7).status_code == 201
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert api.get(state_url(table1)).status_code == 200


def test_between_rounds_the_moves_are_listed(api, table1, evening):
    first, second = Round.objects.filter(event=evening).order_by("number")
    seat_round(second, {1: (5, 6, 7, 9), 2: (2, 1, 4, 8)}, sit_out=(3,))
    Round.objects.filter(pk=first.pk).update(state=Round.State.CLOSED)
    Round.objects.filter(pk=second.pk).update(state=Round.State.SEATED)
    body = api.get(state_url(table1)).json()
    assert body["stage"] == "collecting" and body["round"]["number"] == 1
    moves = {m["name"]: (m["table"], m["position"], m["sits_out"]) for m in body["next_round"]["moves"]}
    assert moves == {"P1": (2, "E", False), "P2": (2, "N", False), "P3": (None, "", True), "P4": (2, "S", False)}
    assert [a["name"] for a in body["next_round"]["here"]] == ["P5", "P6", "P7", "P9"]


def test_the_schema_documents_every_status_of_the_table_api(client):
    schema = client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert set(paths["/api/tables/{token}/"]["get"]["responses"]) == {"200", "404", "429"}  # 429: drive.core.throttles
    assert set(paths["/api/tables/{token}/results/"]["post"]["responses"]) == {"200", "201", "400", "403", "404",
                                                                                "409", "429"}
    assert set(paths["/api/tables/{token}/claims/"]["post"]["responses"]) == {"200", "201", "400", "404", "409", "429"}
    assert set(paths["/api/tables/{token}/claims/"]["delete"]["responses"]) == {"204", "403", "404", "409", "429"}
    header = [p for p in paths["/api/tables/{token}/results/"]["post"]["parameters"] if p["in"] == "header"]
    assert [p["name"] for p in header] == ["X-Seat-Claim"]
