"""The organiser and the seat claims: who claimed what, freeing a seat, and a
new link for a table (the old one stops at once). Organisers only, in the console's pages
and in the API; each refusal has its test.
"""
import pytest
from django.test import Client
from django.urls import reverse

from drive.core.errors import Forbidden
from drive.events.models import AuditEntry, Player
from drive.scoring.services import claims
from drive.scoring.models import HandResult, SeatClaim, Table
from tests import seats

pytestmark = pytest.mark.django_db
ENTRY = {"hand_number": 1, "ns_tricks": 8, "trump": "H"}


def claims_url(event, number=1, seat=None):
    return f"/api/events/{event.pk}/tables/{number}/claims/" + (f"{seat}/" if seat else "")


def link_url(event, number=1):
    return f"/api/events/{event.pk}/tables/{number}/link/"


@pytest.fixture
def org_api(api, organiser):
    api.force_authenticate(organiser)
    return api


@pytest.fixture
def claimed(table1, make_user):
    """N claimed by a phone, E by the signed-in player seated there."""
    user = make_user("p2")
    Player.objects.filter(display_name="P2").update(user=user)
    north = seats.claim(table1, "N")
    claims.claim_seat(table=table1, position="E", user=user)
    return {"north": north}


def entry(api, table, secret):
    return api.post(f"/api/tables/{table.token}/results/", ENTRY, format="json", HTTP_X_SEAT_CLAIM=secret)


# --- what the organiser sees -------------------------------------------------------------


def test_the_organiser_sees_who_claimed_what(org_api, evening, claimed):
    response = org_api.get(claims_url(evening))
    assert response.status_code == 200
    body = response.json()
    assert body["table"] == 1 and body["round"] == 1
    rows = {row["seat"]: row for row in body["seats"]}
    assert (rows["N"]["player"], rows["N"]["by"], rows["N"]["user"]) == ("P1", "phone", "")
    # E: the signed-in player, by their name
    assert (rows["E"]["player"], rows["E"]["by"], rows["E"]["user"]) == ("P2", "user", "P2")
    assert rows["S"]["claimed"] is False and rows["S"]["by"] == "" and rows["S"]["claimed_at"] is None
    assert rows["N"]["claimed_at"] and "claim" not in rows["N"]  # no secret goes out


def test_the_console_table_page_shows_the_claims(client, organiser, evening, claimed):
    client.force_login(organiser)
    html = client.get(reverse("console-evening-table", args=[evening.pk, 1, 1])).content.decode()
    assert "Who holds each seat" in html and "a phone" in html and "P2, signed in" in html
    assert html.count("Free this seat") == 2 and "New link for this table" in html


# --- freeing a seat --------------------------------------------------------------------------


def test_a_released_claim_no_longer_counts_and_the_seat_can_be_claimed_again(org_api, api, evening, table1, claimed):
    response = org_api.delete(claims_url(evening, seat="N"))
    assert response.status_code == 204
    assert not SeatClaim.objects.filter(position="N").exists()
    anonymous = Client()
    response = anonymous.post(f"/api/tables/{table1.token}/results/", ENTRY, content_type="application/json",
                              HTTP_X_SEAT_CLAIM=claimed["north"])
    assert response.status_code == 403 and not HandResult.objects.exists()
    again = anonymous.post(f"/api/tables/{table1.token}/claims/", {"seat": "N"}, content_type="application/json")
    assert again.status_code == 201
    log = AuditEntry.objects.get(action="seat_claim.released")
    assert log.event == evening and log.before["seat"] == "N" and log.before["round"] == 1


def test_releasing_a_seat_nobody_claimed_is_404(org_api, evening, claimed):
    assert org_api.delete(claims_url(evening, seat="S")).status_code == 404
    assert org_api.delete(claims_url(evening, seat="Q")).status_code == 404
    assert org_api.delete(claims_url(evening, number=9, seat="N")).status_code == 404


def test_the_console_page_frees_a_seat(client, organiser, evening, claimed):
    client.force_login(organiser)
    response = client.post(reverse("console-release-claim", args=[evening.pk, 1, 1, "E"]), follow=True)
    assert response.status_code == 200 and "Seat E of table 1 is free" in response.content.decode()
    assert list(SeatClaim.objects.values_list("position", flat=True)) == ["N"]


# --- a new link for a table ------------------------------------------------------------------


def test_a_new_link_stops_the_old_one_at_once(org_api, api, evening, table1, claimed):
    old = table1.token
    response = org_api.post(link_url(evening))
    assert response.status_code == 200
    table1.refresh_from_db()
    assert table1.token != old and response.json()["url"].endswith(f"/t/{table1.token}/")
    anonymous = Client()
    for path in (f"/t/{old}/", f"/t/{old}/panel/", f"/api/tables/{old}/"):
        assert anonymous.get(path).status_code == 404, path
    assert anonymous.post(f"/api/tables/{old}/results/", ENTRY, content_type="application/json",
                          HTTP_X_SEAT_CLAIM=claimed["north"]).status_code == 404
    assert anonymous.post(f"/t/{old}/hands/", ENTRY).status_code == 404
    assert not SeatClaim.objects.filter(table=table1).exists()  # its phones claim again
    assert entry(api, table1, claimed["north"]).status_code == 403  # an old claim on the new link
    assert anonymous.get(f"/t/{table1.token}/").status_code == 200
    log = AuditEntry.objects.get(action="table.link_reissued")
    assert log.after == {"table": 1, "claims_released": 2} and old not in str(log.after)


def test_the_console_page_gives_a_new_link(client, organiser, evening, table1, claimed):
    client.force_login(organiser)
    old = table1.token
    response = client.post(reverse("console-reissue-link", args=[evening.pk, 1, 1]), follow=True)
    assert response.status_code == 200 and "has a new link" in response.content.decode()
    table1.refresh_from_db()
    assert table1.token != old and not SeatClaim.objects.exists()
    cards = client.get(reverse("console-table-cards", args=[evening.pk])).content.decode()
    assert table1.token in cards and old not in cards


# --- organisers only ---------------------------------------------------------------------------


@pytest.fixture(params=["anonymous", "player", "rival"])
def outsider(request, api, make_user, other_club):
    if request.param == "player":
        api.force_authenticate(make_user("player"))
    elif request.param == "rival":
        api.force_authenticate(other_club.organisers.get())
    return api


def test_the_api_is_for_the_club_s_organisers(outsider, evening, table1, claimed):
    assert outsider.get(claims_url(evening)).status_code == 403
    assert outsider.delete(claims_url(evening, seat="N")).status_code == 403
    assert outsider.post(link_url(evening)).status_code == 403
    old = table1.token
    table1.refresh_from_db()
    assert table1.token == old and SeatClaim.objects.count() == 2
    assert not AuditEntry.objects.filter(action__startswith=("seat_claim")).exists()


@pytest.mark.parametrize("who", ["player", "rival"])
def test_the_console_buttons_are_for_the_club_s_organisers(who, evening, table1, claimed, make_user, other_club):
    client = Client()
    client.force_login(make_user("player") if who == "player" else other_club.organisers.get())
    assert client.post(reverse("console-release-claim", args=[evening.pk, 1, 1, "N"])).status_code == 403
    assert client.post(reverse("console-reissue-link", args=[evening.pk, 1, 1])).status_code == 403
    assert client.get(reverse("console-evening-table", args=[evening.pk, 1, 1])).status_code == 403
    assert SeatClaim.objects.count() == 2


def test_anonymous_is_sent_to_log_in(evening, claimed):
    response = Client().post(reverse("console-reissue-link", args=[evening.pk, 1, 1]))
    assert response.status_code == 302 and "login" in response["Location"]
    assert SeatClaim.objects.count() == 2


def test_the_services_check_the_organiser(table1, claimed, make_user, other_club):
    for actor in (None, make_user("player"), other_club.organisers.get()):
        with pytest.raises(Forbidden):
            claims.release_claim(actor=actor, table=table1, position="N")
        with pytest.raises(Forbidden):
            claims.reissue_table_link(actor=actor, table=table1)
    assert Table.objects.get(pk=table1.pk).token == table1.token and SeatClaim.objects.count() == 2
