"""The tables' links for the organiser (GET /api/events/<id>/table-links/): number, token,
the entry page the table card's QR code opens and the phones' API; with ?round=N the
tables seated in that round. The links are the tables' keys: organisers of the event only."""
import pytest
from django.urls import reverse

from drive.events.models import Event
from drive.scoring.services import claims
from drive.scoring.models import Round, Table

from .conftest import seat_round

pytestmark = pytest.mark.django_db


def links_url(event, query=""):
    return f"/api/events/{event.pk}/table-links/" + (f"?{query}" if query else "")


@pytest.fixture
def org_api(api, organiser):
    api.force_authenticate(organiser)
    return api


def test_every_table_with_its_link(org_api, evening, client, organiser):
    body = org_api.get(links_url(evening)).json()
    tables = {t.number: t.token for t in Table.objects.filter(event=evening)}
    assert [link["table"] for link in body] == [1, 2]
    for link in body:
        token = tables[link["table"]]
        assert link["token"] == token
        assert link["url"] == f"http://testserver/t/{token}/" == link["qr_target"]
        assert link["api"] == f"http://testserver/api/tables/{token}/"
    # The same addresses as the printed cards (the page lists them under its QR codes).
    client.force_login(organiser)
    cards = client.get(reverse("console-table-cards", args=[evening.pk])).content.decode()
    assert all(link["url"] in cards for link in body)


def test_the_links_open_the_tables(org_api, evening, api):
    link = org_api.get(links_url(evening)).json()[0]
    assert api.get(link["url"]).status_code == 200
    api.force_authenticate(None)
    body = api.get(link["api"]).json()
    assert body["table"] == link["table"] and body["round"]["number"] == 1


def test_a_rounds_tables_are_those_seated_in_it(org_api, evening):
    assert [link["table"] for link in org_api.get(links_url(evening, "round=1")).json()] == [1, 2]
    first, second = Round.objects.filter(event=evening).order_by("number")
    Round.objects.filter(pk=first.pk).update(state=Round.State.CLOSED)
    seat_round(second, {2: (1, 2, 3, 4)}, sit_out=(5, 6, 7, 8, 9))
    assert [link["table"] for link in org_api.get(links_url(evening, "round=2")).json()] == [2]
    assert [link["table"] for link in org_api.get(links_url(evening)).json()] == [1, 2]


def test_a_new_link_replaces_the_old_one(org_api, evening, organiser, api):
    old = org_api.get(links_url(evening, "round=1")).json()[0]
    claims.reissue_table_link(actor=organiser, table=Table.objects.get(event=evening, number=1))
    new = org_api.get(links_url(evening, "round=1")).json()[0]
    assert new["table"] == 1 and new["token"] != old["token"]
    api.force_authenticate(None)
    assert api.get(old["api"]).status_code == 404 and api.get(new["api"]).status_code == 200


def test_before_the_evening_there_are_no_tables(org_api, event):
    assert org_api.get(links_url(event)).json() == []
    assert org_api.get(links_url(event, "round=1")).status_code == 404


def test_a_round_not_seated_is_not_found(org_api, evening):
    for query in ("round=2", "round=3"):
        response = org_api.get(links_url(evening, query))
        assert response.status_code == 404 and response.json()["detail"] == "That round has not been played."


@pytest.mark.parametrize("value", ["0", "-1", "abc", "1.5", "10001", "٢"])
def test_a_malformed_round_is_400_with_its_message(org_api, evening, value):
    response = org_api.get(links_url(evening, f"round={value}"))
    assert response.status_code == 400 and list(response.json()) == ["round"]


# --- who may: the links are the tables' keys ----------------------------------------------------


def test_anonymous_players_and_other_organisers_are_refused(api, evening, make_user, other_club):
    for query in ("", "round=1", "round=abc"):
        assert api.get(links_url(evening, query)).status_code == 403
    for user in (make_user("player"), other_club.organisers.get()):
        api.force_authenticate(user)
        response = api.get(links_url(evening, "round=1"))
        assert response.status_code == 403 and "token" not in response.content.decode()


def test_a_bad_token_is_refused(api, evening):
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert api.get(links_url(evening)).status_code == 403


def test_an_unknown_or_hidden_event_is_not_found(api, org_api, evening, make_user):
    assert org_api.get("/api/events/999999/table-links/").status_code == 404
    Event.objects.filter(pk=evening.pk).update(published=False)
    api.force_authenticate(make_user("player"))
    assert api.get(links_url(evening)).status_code == 404


def test_the_schema_documents_the_links(api):
    schema = api.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/events/{event_id}/table-links/"]["get"]
    assert {"200", "400", "403", "404"} <= set(operation["responses"])
    assert [p["name"] for p in operation["parameters"] if p["in"] == "query"] == ["round"]
    entry = schema["components"]["schemas"]["TableLinkEntry"]["properties"]
    assert {"table", "token", "url", "qr_target", "api"} <= set(entry)
