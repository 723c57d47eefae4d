"""Corrections of past rounds with `expected_version`: the API gives every hand's version
for any round seated so far (one table of a round, as the console's table page shows it,
and the evening's state with ?round=N), so a correction made against what the organiser
saw is refused (409) when the hand changed meanwhile."""
import pytest

from drive.events.models import Event
from drive.movements.models import Entrant
from drive.scoring.services import results
from drive.scoring.models import HandResult, Table

from .test_console_api_rounds import org_api, second_round  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def table_url(event, round_number, table_number):
    return f"/api/events/{event.pk}/rounds/{round_number}/tables/{table_number}/"


def correct(api, event, **body):
    return api.post(f"/api/events/{event.pk}/corrections/", {"round": 1, "table": 1, "reason": "re-counted", **body},
                    format="json")


def test_a_table_of_a_past_round(org_api, second_round):
    body = org_api.get(table_url(second_round, 1, 1)).json()
    assert (body["round"], body["round_state"], body["table"], body["status"], body["late"]) == (
        1, "closed", 1, "in", False)
    ids = dict(Entrant.objects.filter(event=second_round).values_list("number", "pk"))
    assert body["seats"] == [{"seat": s, "entrant": ids[n], "number": n, "name": f"P{n}"}
                             for s, n in zip("NESW", (1, 2, 3, 4))]
    stored = {r.hand_number: r.version for r in HandResult.objects.filter(round__number=1, table__number=1)}
    assert [(h["hand_number"], h["status"], h["ns_tricks"], h["version"]) for h in body["hands"]] == [
        (1, "confirmed", 7, stored[1]), (2, "confirmed", 7, stored[2])]
    assert all(h["fixed_trump"] is None for h in body["hands"])  # turned up: the entries gave H
    assert body["hands"][0]["trump"] == "H"


def test_a_table_of_the_round_in_hand_shows_its_missing_hands(org_api, second_round):
    body = org_api.get(table_url(second_round, 2, 1)).json()
    assert body["round"] == 2 and body["round_state"] == "playing" and body["status"] == "out"
    assert [(h["status"], h["version"]) for h in body["hands"]] == [("missing", None), ("missing", None)]
    assert [s["number"] for s in body["seats"]] == [9, 1, 5, 2]


@pytest.mark.parametrize("read", ["round table", "evening state"])
def test_a_past_round_is_corrected_against_the_version_the_api_gave(org_api, second_round, organiser, read):
    def version_of_hand_1():
        if read == "round table":
            return org_api.get(table_url(second_round, 1, 1)).json()["hands"][0]["version"]
        state = org_api.get(f"/api/events/{second_round.pk}/evening/?round=1").json()
        return state["tables"][0]["hands"][0]["version"]

    seen = version_of_hand_1()
    response = correct(org_api, second_round, hand_number=1, ns_tricks=8, expected_version=seen)
    assert response.status_code == 200, response.content
    assert response.json()["round"] == 1 and response.json()["version"] == seen + 1 == version_of_hand_1()
    # Another organiser corrects it meanwhile: a correction against the old version is refused.
    table = Table.objects.get(event=second_round, number=1)
    results.correct_result(actor=organiser, table=table, round_number=1, hand_number=1, ns_tricks=9, reason="x")
    for body in ({"ns_tricks": 6}, {"kind": "revoke", "offending_side": "NS"}):
        stale = correct(org_api, second_round, hand_number=1, expected_version=seen + 1, **body)
        assert stale.status_code == 409 and stale.json()["stored"]["ns_tricks"] == 9
        assert stale.json()["stored"]["version"] == seen + 2 == version_of_hand_1()
    revoke = correct(org_api, second_round, hand_number=1, kind="revoke", offending_side="NS",
                     expected_version=version_of_hand_1())
    assert revoke.status_code == 200 and revoke.json()["ns_tricks"] == 6  # rule L8: three tricks to E-W


# --- not found, who may ---------------------------------------------------------------------------


@pytest.mark.parametrize("round_number, table_number", [(2, 1), (3, 1), (0, 1), (1, 9), (1, 0),
                                                        (10**20, 1), (1, 10**20)])
def test_a_round_not_seated_or_no_such_table_is_not_found(org_api, evening, round_number, table_number):
    response = org_api.get(table_url(evening, round_number, table_number))
    assert response.status_code == 404, (round_number, table_number)
    assert response.json()["detail"] == "No such table in a played round."


def test_malformed_numbers_are_not_found(org_api, evening):
    for path in ("rounds/x/tables/1/", "rounds/1/tables/-1/", "rounds/1/tables/1.5/"):
        response = org_api.get(f"/api/events/{evening.pk}/{path}")
        assert response.status_code == 404 and response["Content-Type"].startswith("application/json")


def test_only_the_clubs_organisers_see_a_round_table(api, evening, make_user, other_club):
    url = table_url(evening, 1, 1)
    assert api.get(url).status_code == 403
    api.force_authenticate(make_user("player"))
    assert api.get(url).status_code == 403
    api.force_authenticate(other_club.organisers.get())
    assert api.get(url).status_code == 403


def test_an_unknown_or_hidden_event_is_not_found(api, org_api, evening, make_user):
    assert org_api.get("/api/events/999999/rounds/1/tables/1/").status_code == 404
    Event.objects.filter(pk=evening.pk).update(published=False)
    api.force_authenticate(make_user("player"))
    assert api.get(table_url(evening, 1, 1)).status_code == 404


def test_the_schema_documents_the_round_table(api):
    schema = api.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/events/{event_id}/rounds/{round_number}/tables/{table_number}/"]["get"]
    assert {"200", "403", "404"} <= set(operation["responses"])
    hand = schema["components"]["schemas"]["RoundTableHand"]["properties"]
    assert {"version", "fixed_trump", "status", "ns_tricks"} <= set(hand)
