"""REST API of the organiser's evening console: state, moves, corrections and their history."""
from datetime import timedelta

import pytest
from django.utils import timezone


from drive.events.services import arrivals as arrival_services
from drive.events.models import Event
from drive.movements.models import Entrant, Movement
from drive.scoring.services import results
from drive.movements.models import Movement
from drive.scoring.services import results
from drive.scoring.models import HandResult, Round

from .test_console_pages import PLAN, confirm_table, submit

pytestmark = pytest.mark.django_db
MOVES = ["start", "start-round", "pause", "resume", "end-round", "publish-results", "retry-movement"]


@pytest.fixture
def planned(evening):
    Movement.objects.create(event=evening, kind="individual", players=9, rounds=2, status="ready", plan=PLAN)
    return evening


@pytest.fixture
def org_api(api, organiser):
    api.force_authenticate(organiser)
    return api


def evening_url(event, action=None):
    return f"/api/events/{event.pk}/evening/" + (f"{action}/" if action else "")


def corrections_url(event):
    return f"/api/events/{event.pk}/corrections/"


# --- permissions -----------------------------------------------------------------------------------


def test_state_is_for_organisers(api, evening, make_user):
    assert api.get(evening_url(evening)).status_code == 403
    api.force_authenticate(make_user("player"))
    assert api.get(evening_url(evening)).status_code == 403
    assert api.get(corrections_url(evening)).status_code == 403


@pytest.mark.parametrize("action", MOVES)
def test_every_move_is_refused_to_a_player_and_to_anonymous(api, evening, make_user, action):
    assert api.post(evening_url(evening, action), {"force": True}, format="json").status_code == 403
    api.force_authenticate(make_user("player"))
    response = api.post(evening_url(evening, action), {"force": True}, format="json")
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    round_ = evening.evening_rounds.get(number=1)
    assert round_.state == Round.State.PLAYING and round_.paused_at is None


def test_corrections_are_refused_to_a_player_and_to_anonymous(api, evening, make_user, table1):
    submit(table1, "N", 1, 8)
    body = {"round": 1, "table": 1, "hand_number": 1, "ns_tricks": 13, "reason": "mine"}
    assert api.post(corrections_url(evening), body, format="json").status_code == 403
    api.force_authenticate(make_user("player"))
    assert api.post(corrections_url(evening), body, format="json").status_code == 403
    assert api.post(corrections_url(evening), {**body, "kind": "revoke", "offending_side": "EW"},
                    format="json").status_code == 403
    assert HandResult.objects.get().ns_tricks == 8


def test_an_organiser_of_another_club_is_refused(api, evening, other_club):
    api.force_authenticate(other_club.organisers.get())
    assert api.post(evening_url(evening, "pause"), format="json").status_code == 403


def test_unknown_or_invisible_event_is_not_found(org_api, api, evening, make_user):
    assert org_api.get("/api/events/999999/evening/").status_code == 404
    assert org_api.post("/api/events/999999/evening/pause/").status_code == 404
    Event.objects.filter(pk=evening.pk).update(published=False)
    api.force_authenticate(make_user("player"))
    assert api.get(evening_url(evening)).status_code == 404


# --- the state -----------------------------------------------------------------------------------


def test_state_of_a_playing_round(org_api, evening, table1, monkeypatch):
    submit(table1, "N", 1, 8)
    submit(table1, "E", 1, 6)
    deadline = evening.evening_rounds.get(number=1).deadline
    monkeypatch.setattr(timezone, "now", lambda: deadline - timedelta(seconds=1195))  # however slow the machine
    data = org_api.get(evening_url(evening)).json()
    assert data["phase"] == "in_progress" and data["rounds"] == 2
    assert data["round"]["number"] == 1 and data["round"]["state"] == "playing"
    assert data["round"]["paused"] is False and data["round"]["seconds_left"] == 1195
    assert data["round"]["deadline"]
    assert data["moves"] == ["pause", "end-round"]
    assert data["tables_in"] == [] and data["tables_out"] == [2] and data["tables_disputed"] == [1]
    hand = data["tables"][0]["hands"][0]
    assert (hand["status"], hand["ns_tricks"], hand["disputed_ns_tricks"]) == ("disputed", 8, 6)
    assert data["tables"][0]["hands"][1]["status"] == "missing"
    ids = dict(Entrant.objects.filter(event=evening).values_list("number", "pk"))
    seats = [{"seat": seat, "entrant": ids[n], "number": n, "name": f"P{n}"} for seat, n in zip("NESW", (1, 2, 3, 4))]
    assert data["seating"]["tables"][0] == {"table": 1, "N": "P1", "E": "P2", "S": "P3", "W": "P4", "seats": seats}
    assert data["seating"]["sit_out"] == ["P9"]
    assert data["seating"]["sit_out_entrants"] == [{"entrant": ids[9], "number": 9, "name": "P9"}]


def test_state_before_the_evening(org_api, event):
    data = org_api.get(evening_url(event)).json()
    assert data["phase"] == "registration" and data["round"] is None and data["moves"] == ["start"]
    assert (data["checked_in"], data["not_arrived"]) == (0, 0)
    assert data["tables"] == [] and data["seating"] == {"tables": [], "sit_out": [], "sit_out_entrants": []}


# --- the moves -----------------------------------------------------------------------------------


def test_start_the_evening(org_api, make_event, organiser):
    event = make_event(starts_at=timezone.now() + timedelta(minutes=10))
    response = org_api.post(evening_url(event, "start"))
    assert response.status_code == 409 and "four players" in response.json()["detail"]
    for i in range(5):
        arrival_services.add_walk_in(actor=organiser, event=event, display_name=f"Player {i}")
    response = org_api.post(evening_url(event, "start"))
    assert response.status_code == 200
    data = response.json()
    assert data["phase"] == "in_progress" and data["movement"]["status"] == "pending" and data["round"] is None
    assert org_api.post(evening_url(event, "start")).status_code == 409


def test_clock_moves(org_api, evening):
    Round.objects.filter(event=evening, number=1).update(state=Round.State.SEATED, deadline=None, started_at=None)
    assert org_api.post(evening_url(evening, "pause"), {}, format="json").status_code == 409  # not playing yet
    data = org_api.post(evening_url(evening, "start-round"), {"round": 1}, format="json").json()
    assert data["round"]["state"] == "playing" and data["moves"] == ["pause", "end-round"]
    data = org_api.post(evening_url(evening, "pause"), {}, format="json").json()
    assert data["round"]["paused"] is True and data["moves"] == ["resume", "end-round"]
    left = data["round"]["seconds_left"]
    assert org_api.get(evening_url(evening)).json()["round"]["seconds_left"] == left  # frozen while paused
    data = org_api.post(evening_url(evening, "resume"), {"round": 1}, format="json").json()
    assert data["round"]["paused"] is False
    response = org_api.post(evening_url(evening, "start-round"), {}, format="json")
    assert response.status_code == 409 and response.json() == {
        "detail": "There is no seated round waiting to start.", "code": "conflict"}


def test_end_round_refused_with_tables_out_then_forced(org_api, planned, table1):
    confirm_table(table1)
    response = org_api.post(evening_url(planned, "end-round"), {}, format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["tables_out"] == [2] and body["code"] == "conflict" and "Tables not in yet (still playing, or a hand disputed): 2." in body["detail"]
    response = org_api.post(evening_url(planned, "end-round"), {"force": True, "round": 1}, format="json")
    assert response.status_code == 200
    data = response.json()
    assert data["round"]["number"] == 2 and data["round"]["state"] == "seated" and data["moves"] == ["start-round"]
    assert data["late_rounds"] == [{"round": 1, "tables": [2], "still_out": [2]}]
    assert planned.evening_rounds.get(number=1).late_tables == [2]


def test_a_move_for_a_round_no_longer_in_hand_is_a_conflict(org_api, planned):
    response = org_api.post(evening_url(planned, "end-round"), {"force": True, "round": 2}, format="json")
    assert response.status_code == 409 and "moved on" in response.json()["detail"]
    assert planned.evening_rounds.get(number=1).state == Round.State.PLAYING


@pytest.mark.parametrize("body, field", [({"force": "perhaps"}, "force"), ({"round": 0}, "round"),
                                         ({"round": "one"}, "round"), ({"round": 10**30}, "round")])
def test_bad_move_body_is_400(org_api, planned, body, field):
    response = org_api.post(evening_url(planned, "end-round"), body, format="json")
    assert response.status_code == 400 and field in response.json()


def test_last_round_then_publish(org_api, evening):
    Round.objects.filter(event=evening, number=2).delete()
    Event.objects.filter(pk=evening.pk).update(rounds=1)
    assert org_api.post(evening_url(evening, "publish-results")).status_code == 409
    Round.objects.filter(event=evening, number=1).update(deadline=timezone.now() - timedelta(seconds=1))
    data = org_api.post(evening_url(evening, "end-round"), {}, format="json").json()
    assert data["phase"] == "finished" and data["moves"] == ["publish-results"]
    assert data["round"]["late_tables"] == [1, 2]
    data = org_api.post(evening_url(evening, "publish-results")).json()
    assert data["phase"] == "results_published" and data["moves"] == []


# --- corrections ---------------------------------------------------------------------------------


def test_correction_and_its_history(org_api, evening, table1, organiser):
    result, _ = submit(table1, "N", 1, 8)
    result, _ = submit(table1, "E", 1, 6)
    response = org_api.post(corrections_url(evening), {
        "round": 1, "table": 1, "hand_number": 1, "ns_tricks": 7, "reason": "Both cards re-counted",
        "kind": "correction", "expected_version": result.version}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert (body["ns_tricks"], body["ew_tricks"], body["status"], body["change_kind"]) == (7, 6, "confirmed", "correction")
    history = org_api.get(corrections_url(evening)).json()
    assert len(history) == 1
    hand = history[0]
    assert (hand["round"], hand["table"], hand["hand_number"], hand["ns_tricks"]) == (1, 1, 1, 7)
    last = hand["history"][-1]
    assert last["user"] == organiser.username and last["reason"] == "Both cards re-counted"
    assert (last["old_ns_tricks"], last["new_ns_tricks"], last["kind"]) == (8, 7, "correction")
    assert [e["seat"] for e in hand["history"][:2]] == ["N", "E"]
    assert hand["history"][1]["status"] == "disputed" and hand["history"][1]["disputed_ns_tricks"] == 6


def test_adjusted_score_and_revoke(org_api, evening, table1):
    submit(table1, "N", 1, 8)
    response = org_api.post(corrections_url(evening), {
        "round": 1, "table": 1, "hand_number": 1, "kind": "revoke", "offending_side": "NS",
        "reason": "Revoke in trick 5"}, format="json")
    assert response.status_code == 200 and response.json()["ns_tricks"] == 5  # rule L8
    response = org_api.post(corrections_url(evening), {
        "round": 1, "table": 1, "hand_number": 2, "kind": "adjusted", "ns_tricks": 6, "trump": "C",
        "reason": "Average: cards fell"}, format="json")
    assert response.status_code == 200 and response.json()["change_kind"] == "adjusted"
    kinds = {h["hand_number"]: h["history"][-1]["kind"] for h in org_api.get(corrections_url(evening)).json()}
    assert kinds == {1: "revoke", 2: "adjusted"}


@pytest.mark.parametrize("body, field", [
    ({"reason": ""}, "reason"),
    ({"reason": "x" * 101}, "reason"),
    ({"ns_tricks": 14}, "ns_tricks"),
    ({"ns_tricks": None}, "ns_tricks"),
    ({"kind": "entry"}, "kind"),
    ({"kind": "revoke"}, "offending_side"),
    ({"table": 9}, "table"),
    ({"round": 2}, "round"),
    ({"hand_number": 3}, "hand_number"),
    ({"hand_number": 10**20}, "hand_number"),
])
def test_bad_corrections_are_400_with_the_field(org_api, evening, table1, body, field):
    submit(table1, "N", 1, 8)
    data = {"round": 1, "table": 1, "hand_number": 1, "ns_tricks": 7, "reason": "r", **body}
    data = {k: v for k, v in data.items() if v is not None}
    response = org_api.post(corrections_url(evening), data, format="json")
    assert response.status_code == 400 and field in response.json(), response.json()
    assert HandResult.objects.get().ns_tricks == 8


def test_stale_correction_is_409_with_the_stored_values(org_api, evening, table1):
    result, _ = submit(table1, "N", 1, 8)
    for kind in ({"ns_tricks": 7}, {"kind": "revoke", "offending_side": "EW"}):
        response = org_api.post(corrections_url(evening), {
            "round": 1, "table": 1, "hand_number": 1, "reason": "r", "expected_version": result.version + 1, **kind},
            format="json")
        assert response.status_code == 409
        assert response.json()["stored"]["ns_tricks"] == 8 and "changed this hand" in response.json()["detail"]


def test_history_leaves_out_hands_only_entered_and_confirmed(org_api, evening, table1, organiser):
    confirm_table(table1)
    assert org_api.get(corrections_url(evening)).json() == []
    results.correct_result(actor=organiser, table=table1, round_number=1, hand_number=2, ns_tricks=9, reason="r")
    assert [h["hand_number"] for h in org_api.get(corrections_url(evening)).json()] == [2]
