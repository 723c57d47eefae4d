"""GET /api/events/<id>/standings/, /results/ and /my-evening/: content and permissions."""
from decimal import Decimal

import pytest
from rest_framework.authtoken.models import Token

from drive.events.models import Event
from drive.movements.models import Entrant

from .test_results_pages import played, publish  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def login(api, user):
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return api


def test_standings_for_everyone(api, played):
    event = played["event"]
    body = api.get(f"/api/events/{event.pk}/standings/").json()
    assert body["event"]["id"] == event.pk and body["computed_at"]
    lines = {line["name"]: line for line in body["lines"]}
    assert len(lines) == 9
    assert lines["P5"]["place"] == 1 and lines["P5"]["shared"] and Decimal(lines["P5"]["total"]) == 15
    assert lines["P9"]["sit_out_hands"] == 2 and Decimal(lines["P9"]["total"]) == 13  # rule D5
    prizes = {p["name"]: p for p in body["prizes"]}
    assert prizes["First"]["winners"] == [5, 7] and prizes["First"]["shared"]
    assert prizes["Booby prize"]["kind"] == "booby" and prizes["Booby prize"]["winners"] == [6, 8]
    assert prizes["Half-time"]["kind"] == "half_time" and sorted(prizes["Half-time"]["winners"]) == [1, 3, 5, 7]
    assert lines["P6"]["prizes"] == ["Booby prize"]


def test_standings_of_an_unknown_or_hidden_event_are_404(api, played, organiser):
    event = played["event"]
    assert api.get("/api/events/999999/standings/").status_code == 404
    Event.objects.filter(pk=event.pk).update(published=False)
    assert api.get(f"/api/events/{event.pk}/standings/").status_code == 404
    assert login(api, organiser).get(f"/api/events/{event.pk}/standings/").status_code == 200


def test_a_bad_token_is_403(api, played):
    api.credentials(HTTP_AUTHORIZATION="Token nope")
    for path in ("standings", "results", "my-evening"):
        assert api.get(f"/api/events/{played['event'].pk}/{path}/").status_code == 403


@pytest.mark.parametrize("who", ["anonymous", "player", "rival organiser"])
def test_results_before_publication_are_403_for_all_but_the_organisers(api, played, other_club, who):
    if who == "player":
        login(api, played["users"]["P1"])
    elif who == "rival organiser":
        login(api, other_club.organisers.get())
    response = api.get(f"/api/events/{played['event'].pk}/results/")
    assert response.status_code == 403 and "not published" in response.json()["detail"]


def test_results_for_the_organiser_then_for_everyone(api, played, organiser):
    event = played["event"]
    body = login(api, organiser).get(f"/api/events/{event.pk}/results/").json()
    assert body["published"] is False
    publish(event)
    api.credentials()
    body = api.get(f"/api/events/{event.pk}/results/").json()
    assert body["published"] is True
    by_number = {line["number"]: line for line in body["lines"]}
    p1 = by_number[1]
    assert [(h["round"], h["hand"], h["tricks"], h["score"]) for h in p1["hands"]] == [(1, 1, 9, 9), (1, 2, 6, 6)]
    assert by_number[9]["sat_out_rounds"] == [1] and Decimal(by_number[9]["sit_out_credit"]) == 13
    [change] = body["corrections"]
    assert change == {**change, "round": 1, "table": 2, "hand": 2, "kind": "correction", "by": "organiser",
                      "old_ns_tricks": 5, "old_status": "disputed", "old_disputed_ns_tricks": 8, "new_ns_tricks": 8,
                      "reason": "The E-W card was right"}
    assert change["at"]


def test_my_evening(api, played):
    event = played["event"]
    body = login(api, played["users"]["P1"]).get(f"/api/events/{event.pk}/my-evening/").json()
    entrant_id = Entrant.objects.get(event=event, number=1).pk
    assert body["entrant"] == {"id": entrant_id, "number": 1, "name": "P1"}
    now = body["now"]
    assert now["round"] == 1 and now["table"] == 1 and now["seat"] == "N" and not now["sat_out"]
    assert now["partner"]["name"] == "P3" and [o["name"] for o in now["opponents"]] == ["P2", "P4"]
    assert body["next"] is None
    assert [(h["hand"], h["tricks"], h["score"]) for h in body["rounds"][0]["hands"]] == [(1, 9, 9), (2, 6, 6)]
    assert Decimal(body["total"]) == 15 and body["place"] == 3 and body["shared"] is True
    assert body["hands_played"] == 2 and body["hands_won"] == 1 and body["entrants"] == 9


def test_my_evening_of_a_sit_out(api, played):
    body = login(api, played["users"]["P9"]).get(f"/api/events/{played['event'].pk}/my-evening/").json()
    assert body["now"]["sat_out"] is True and body["now"]["table"] is None
    assert Decimal(body["credit"]) == 13 and Decimal(body["total"]) == 13  # rule D5


def test_my_evening_refusals(api, played, make_user, organiser):
    url = f"/api/events/{played['event'].pk}/my-evening/"
    assert api.get(url).status_code == 403  # no login
    assert login(api, make_user()).get(url).status_code == 404  # does not play
    assert login(api, organiser).get(url).status_code == 404
    assert api.get("/api/events/999999/my-evening/").status_code == 404


def test_schema_documents_every_status(client):
    schema = client.get("/api/schema/?format=json").json()
    for path in ("standings", "results", "my-evening"):
        responses = schema["paths"][f"/api/events/{{event_id}}/{path}/"]["get"]["responses"]
        assert {"200", "403", "404"} <= set(responses), path


def test_a_hand_the_organiser_enters_is_a_correction_without_an_old_value(api, played, organiser):
    from drive.scoring.services import results
    from drive.scoring.models import Round

    event = played["event"]
    Round.objects.filter(event=event, number=1).update(state=Round.State.CLOSED)
    Round.objects.filter(event=event, number=2).update(state=Round.State.CLOSED)
    results.correct_result(actor=organiser, table=played["tables"][1], round_number=2, hand_number=1, ns_tricks=7,
                           trump="C", reason="Table card handed in late")
    changes = login(api, organiser).get(f"/api/events/{event.pk}/results/").json()["corrections"]
    assert [(c["round"], c["old_ns_tricks"], c["new_ns_tricks"]) for c in changes] == [(1, 5, 8), (2, None, 7)]
