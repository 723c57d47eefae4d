"""Seatings in the API name the entrants by id and number, not only by display name (two
players may share a name; the evening's other endpoints take entrant ids): the console's
evening state and the player's evening (find your table); the table's phones, which need
no login, by number."""
import pytest

from drive.events.models import Player
from drive.movements.models import Entrant
from drive.scoring.models import Round, Table

from .conftest import seat_round

pytestmark = pytest.mark.django_db


def ref(number):
    entrant = Entrant.objects.select_related("player").get(number=number)
    return {"entrant": entrant.pk, "number": number, "name": entrant.player.display_name}


@pytest.fixture
def namesakes(evening):
    """P1 and P5 are both called Ann Smith."""
    Player.objects.filter(entries__event=evening, entries__number__in=(1, 5)).update(display_name="Ann Smith")
    return evening


def test_the_evening_state_seats_entrants_by_id_and_number(api, organiser, namesakes):
    api.force_authenticate(organiser)
    seating = api.get(f"/api/events/{namesakes.pk}/evening/").json()["seating"]
    first, second = seating["tables"]
    assert first["seats"] == [{"seat": s, **ref(n)} for s, n in zip("NESW", (1, 2, 3, 4))]
    assert second["seats"] == [{"seat": s, **ref(n)} for s, n in zip("NESW", (5, 6, 7, 8))]
    assert first["seats"][0]["name"] == second["seats"][0]["name"] == "Ann Smith"
    assert first["seats"][0]["entrant"] != second["seats"][0]["entrant"]
    assert (first["N"], first["E"]) == ("Ann Smith", "P2")  # the names stay for existing clients
    assert seating["sit_out"] == ["P9"] and seating["sit_out_entrants"] == [ref(9)]


def test_an_entrant_id_from_the_seating_is_the_one_the_leavers_endpoint_takes(api, organiser, evening):
    api.force_authenticate(organiser)
    seat = api.get(f"/api/events/{evening.pk}/evening/").json()["seating"]["tables"][0]["seats"][1]
    response = api.post(f"/api/events/{evening.pk}/evening/leavers/", {"entrant": seat["entrant"]}, format="json")
    assert response.status_code == 200 and response.json()["number"] == seat["number"] == 2


def test_the_players_evening_names_partner_and_opponents_by_id_and_number(api, make_user, namesakes):
    user = make_user("ann")
    Player.objects.filter(entries__event=namesakes, entries__number=5).update(user=user)
    api.force_authenticate(user)
    body = api.get(f"/api/events/{namesakes.pk}/my-evening/").json()
    entrant = lambda n: {"id": ref(n)["entrant"], "number": n, "name": ref(n)["name"]}  # noqa: E731
    assert body["entrant"] == entrant(5)
    assert body["now"]["table"] == 2 and body["now"]["seat"] == "N"
    assert body["now"]["partner"] == entrant(7)
    assert body["now"]["opponents"] == [entrant(6), entrant(8)]


def test_the_tables_phones_get_numbers_and_no_ids(api, evening):
    """The phones' API needs no login: numbers say who is who, the ids stay inside."""
    table = Table.objects.get(event=evening, number=1)
    first, second = Round.objects.filter(event=evening).order_by("number")
    seat_round(second, {1: (5, 6, 7, 9), 2: (2, 1, 4, 8)}, sit_out=(3,))
    Round.objects.filter(pk=first.pk).update(state=Round.State.CLOSED)
    Round.objects.filter(pk=second.pk).update(state=Round.State.SEATED)
    body = api.get(f"/api/tables/{table.token}/").json()
    assert [(s["position"], s["number"]) for s in body["seats"]] == list(zip("NESW", (1, 2, 3, 4)))
    moves = {m["number"]: (m["name"], m["table"], m["position"]) for m in body["next_round"]["moves"]}
    assert moves == {1: ("P1", 2, "E"), 2: ("P2", 2, "N"), 3: ("P3", None, ""), 4: ("P4", 2, "S")}
    assert [(a["position"], a["number"], a["name"]) for a in body["next_round"]["here"]] == [
        ("N", 5, "P5"), ("E", 6, "P6"), ("S", 7, "P7"), ("W", 9, "P9")]
    for row in (*body["seats"], *body["next_round"]["moves"], *body["next_round"]["here"]):
        assert "entrant" not in row and "id" not in row


# --- the seatings stay where they were: who may not see them still may not ---------------------


def test_the_seating_is_still_for_organisers_only(api, evening, make_user, other_club):
    url = f"/api/events/{evening.pk}/evening/"
    assert api.get(url).status_code == 403
    api.force_authenticate(make_user("player"))
    assert api.get(url).status_code == 403
    api.force_authenticate(other_club.organisers.get())
    assert api.get(url).status_code == 403


def test_the_players_evening_needs_a_login_and_an_entry(api, evening, make_user):
    url = f"/api/events/{evening.pk}/my-evening/"
    assert api.get(url).status_code == 403
    api.force_authenticate(make_user("stranger"))
    assert api.get(url).status_code == 404


def test_a_wrong_table_token_is_not_found(api, evening):
    assert api.get("/api/tables/" + "x" * 32 + "/").status_code == 404


def test_the_schema_documents_the_ids_and_numbers(api):
    components = api.get("/api/schema/?format=json").json()["components"]["schemas"]
    assert {"entrant", "number", "name", "seat"} <= set(components["SeatedEntrant"]["properties"])
    assert "seats" in components["SeatingTable"]["properties"]
    assert "sit_out_entrants" in components["Seating"]["properties"]
    assert {"id", "number", "name"} <= set(components["Entrant"]["properties"])
    assert "number" in components["TableEntryMove"]["properties"]
    assert "number" in components["TableEntryArrival"]["properties"]
