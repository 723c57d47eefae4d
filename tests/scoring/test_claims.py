"""Seats belong to people: a phone enters hands only from the seat it claimed,
and a confirmation counts only from the other side's claim.

The forgeries of the issue through the table API, each refused: one phone confirming its
own entry (N then E), a partner confirming, no claim, a forged claim, another table's,
the previous round's, a seat already claimed by another phone. The same on the page.
"""
import secrets

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from drive.core.errors import Forbidden
from drive.events.models import Event, Player
from drive.scoring.services import claims
from drive.scoring.services import results
from drive.scoring.models import HandResult, Round, SeatClaim, Table
from tests import seats

from .conftest import seat_round

pytestmark = pytest.mark.django_db
ENTRY = {"hand_number": 1, "ns_tricks": 8, "trump": "H"}


def claim(api, table, seat, secret=None):
    extra = {"HTTP_X_SEAT_CLAIM": secret} if secret else {}
    return api.post(f"/api/tables/{table.token}/claims/", {"seat": seat}, format="json", **extra)


def enter(api, table, secret, **body):
    extra = {"HTTP_X_SEAT_CLAIM": secret} if secret is not None else {}
    return api.post(f"/api/tables/{table.token}/results/", {**ENTRY, **body}, format="json", **extra)


def secret_of(api, table, seat):
    response = claim(api, table, seat)
    assert response.status_code == 201, response.content
    return response.json()["claim"]


# --- claiming ----------------------------------------------------------------------------


def test_a_phone_claims_its_seat_and_gets_its_secret_once(api, table1):
    response = claim(api, table1, "N")
    assert response.status_code == 201
    body = response.json()
    assert body["seat"] == "N" and body["round"] == 1 and body["signed_in"] is False and len(body["claim"]) >= 40
    stored = SeatClaim.objects.get()
    assert body["claim"] not in stored.secret_hash and stored.user is None  # only its hash is kept
    again = claim(api, table1, "N", secret=body["claim"])  # the same phone again: the same claim
    assert again.status_code == 200 and again.json()["claim"] == body["claim"]
    assert SeatClaim.objects.count() == 1
    state = api.get(f"/api/tables/{table1.token}/", HTTP_X_SEAT_CLAIM=body["claim"]).json()
    assert state["claimed"] == ["N"] and state["you"] == "N"
    assert api.get(f"/api/tables/{table1.token}/").json()["you"] is None


def test_a_seat_claimed_by_another_phone_is_409(api, table1):
    secret_of(api, table1, "N")
    response = claim(api, table1, "N")  # another phone (no secret)
    assert response.status_code == 409 and "already claimed" in response.json()["detail"]
    response = claim(api, table1, "N", secret="x" * 43)  # a made-up secret is another phone too
    assert response.status_code == 409
    assert SeatClaim.objects.count() == 1


def test_one_phone_holds_one_seat(api, table1):
    """The issue's attack starts here: the phone that is North cannot also become East."""
    north = secret_of(api, table1, "N")
    response = claim(api, table1, "E", secret=north)
    assert response.status_code == 409 and "already holds seat N" in response.json()["detail"]
    assert list(SeatClaim.objects.values_list("position", flat=True)) == ["N"]


def test_a_claim_needs_a_seat_of_the_table_and_an_open_evening(api, table1, evening):
    assert claim(api, table1, "X").status_code == 400
    Event.objects.filter(pk=evening.pk).update(phase=Event.Phase.FINISHED)
    response = claim(api, table1, "N")
    assert response.status_code == 409 and "no seat to claim" in response.json()["detail"]


def test_a_signed_in_player_s_claim_is_bound_to_them(table1, make_user):
    user = make_user("p1")
    Player.objects.filter(display_name="P1").update(user=user)
    api = APIClient()
    token = api.post("/api/auth/token/", {"username": "p1", "password": "pw-Whist-2026"}, format="json")
    assert token.status_code == 200, token.content
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    response = claim(api, table1, "N")
    assert response.status_code == 201 and response.json()["signed_in"] is True
    assert SeatClaim.objects.get().user == user
    response = claim(api, table1, "E")  # not their seat: they hold N
    assert response.status_code == 409


def test_a_signed_in_player_s_claim_on_someone_else_s_seat_is_a_phone_s(table1, make_user):
    user = make_user("p1")
    Player.objects.filter(display_name="P1").update(user=user)
    made, _secret, _created = claims.claim_seat(table=table1, position="E", user=user)  # P2's seat
    assert made.user is None


# --- the forgeries of the issue ----------------------------------------------------------


def test_one_phone_cannot_confirm_its_own_entry(api, table1):
    """The attack: enter hand 1 as North, then "confirm" it as East from the same phone."""
    north = secret_of(api, table1, "N")
    assert enter(api, table1, north, seat="N").status_code == 201
    response = enter(api, table1, north, seat="E")
    assert response.status_code == 403 and "holds seat N" in response.json()["detail"]
    response = enter(api, table1, north)  # the seat left out: it is the claim's, North
    assert response.status_code == 200 and response.json()["outcome"] == "unchanged"
    result = HandResult.objects.get()
    assert result.status == HandResult.Status.ENTERED and result.confirmed_by == ""


def test_a_partner_s_claim_never_confirms(api, table1):
    """N enters, S (the same side) sends the same: still waiting for the opponents."""
    assert enter(api, table1, secret_of(api, table1, "N")).status_code == 201
    response = enter(api, table1, secret_of(api, table1, "S"))
    assert response.status_code == 200 and response.json()["outcome"] == "unchanged"
    result = HandResult.objects.get()
    assert result.status == HandResult.Status.ENTERED and result.confirmed_by == ""


def test_the_opponents_claim_confirms(api, table1):
    enter(api, table1, secret_of(api, table1, "N"))
    response = enter(api, table1, secret_of(api, table1, "W"))
    assert response.status_code == 200 and response.json()["outcome"] == "confirmed"
    result = HandResult.objects.get()
    assert (result.status, result.entered_by, result.confirmed_by) == ("confirmed", "N", "W")


# The random secret has a fixed id: every xdist worker must collect the same test names.
@pytest.mark.parametrize("secret", [None, "", "x" * 43, pytest.param(secrets.token_urlsafe(32), id="random-secret"),
                                    "bad secret\x00", "é" * 40])
def test_an_entry_without_a_valid_claim_is_403(api, table1, secret):
    secret_of(api, table1, "N")  # someone holds N; the forger does not have its secret
    response = enter(api, table1, secret, seat="N")
    assert response.status_code == 403 and "First say who you are" in response.json()["detail"]
    assert not HandResult.objects.exists()


def test_another_table_s_claim_is_403(api, table1, evening):
    table2 = Table.objects.get(event=evening, number=2)
    other = secret_of(api, table2, "E")
    response = enter(api, table1, other)
    assert response.status_code == 403 and not HandResult.objects.exists()


def test_the_previous_round_s_claim_is_403(api, table1, evening):
    first, second = Round.objects.filter(event=evening).order_by("number")
    old = secret_of(api, table1, "E")
    seat_round(second, {1: (5, 6, 7, 9), 2: (2, 1, 4, 8)}, sit_out=(3,))  # round 2 is playing
    Round.objects.filter(pk=first.pk).update(state=Round.State.CLOSED)
    response = enter(api, table1, old)
    assert response.status_code == 403 and not HandResult.objects.exists()
    assert api.get(f"/api/tables/{table1.token}/", HTTP_X_SEAT_CLAIM=old).json()["you"] is None
    assert claim(api, table1, "E", secret=old).status_code == 201  # a new round, a new claim


def test_a_late_table_enters_with_the_closed_round_s_claims(api, table1, evening):
    """Round 1 ended with table 1 still out and round 2 only seated: the table's phones
    finish round 1 with the claims they made in it."""
    first, second = Round.objects.filter(event=evening).order_by("number")
    north, east = secret_of(api, table1, "N"), secret_of(api, table1, "E")
    seat_round(second, {1: (5, 6, 7, 9), 2: (2, 1, 4, 8)}, sit_out=(3,))
    Round.objects.filter(pk=first.pk).update(state=Round.State.CLOSED)
    Round.objects.filter(pk=second.pk).update(state=Round.State.SEATED)
    assert enter(api, table1, north).status_code == 201
    response = enter(api, table1, east)
    assert response.status_code == 200 and response.json()["outcome"] == "confirmed"
    assert HandResult.objects.get().round == first


def test_single_entry_needs_one_claim(api, table1, evening):
    evening.result_confirmation = "single"
    evening.save()
    response = enter(api, table1, secret_of(api, table1, "S"))
    assert response.status_code == 201 and response.json()["outcome"] == "confirmed"
    assert enter(api, table1, None).status_code == 403


def test_the_service_refuses_an_entry_without_a_claim(table1):
    with pytest.raises(Forbidden):
        results.submit_result(table=table1, hand_number=1, ns_tricks=8, trump="H")
    with pytest.raises(Forbidden):
        results.submit_result(table=table1, claim=seats.claim(table1, "N"), seat="E", hand_number=1, ns_tricks=8,
                              trump="H")
    assert not HandResult.objects.exists()


# --- giving a seat up ----------------------------------------------------------------------


def test_not_you_gives_the_seat_up_only_before_it_entered_anything(api, table1):
    north = secret_of(api, table1, "N")
    url = f"/api/tables/{table1.token}/claims/"
    assert api.delete(url).status_code == 403  # no claim sent
    assert api.delete(url, HTTP_X_SEAT_CLAIM=north).status_code == 204
    assert not SeatClaim.objects.exists()
    north = secret_of(api, table1, "N")
    enter(api, table1, north)
    response = api.delete(url, HTTP_X_SEAT_CLAIM=north)  # else: enter as N, give up, claim E, confirm
    assert response.status_code == 409 and SeatClaim.objects.filter(position="N").exists()


# --- the same on the page ------------------------------------------------------------------


def page_phone(table, seat):
    client = Client()
    assert client.post(reverse("table-me", args=[table.token]), {"seat": seat}).status_code == 302
    return client


def test_the_page_claims_the_seat_and_refuses_a_second_phone(table1):
    north = page_phone(table1, "N")
    assert SeatClaim.objects.get().position == "N"
    response = Client().post(reverse("table-me", args=[table1.token]), {"seat": "N"})
    assert response.status_code == 409 and "already claimed" in response.content.decode()
    page = Client().get(reverse("table-entry", args=[table1.token])).content.decode()
    assert "taken by a phone" in page
    response = north.post(reverse("table-me", args=[table1.token]), {"seat": "E"})
    assert response.status_code == 409 and "already holds seat N" in response.content.decode()


def test_the_page_s_phone_cannot_switch_sides_after_entering(table1):
    north = page_phone(table1, "N")
    north.post(reverse("table-submit", args=[table1.token]), ENTRY)
    response = north.post(reverse("table-me", args=[table1.token]), {"seat": ""})  # "Not you?"
    assert response.status_code == 409 and "ask the organiser" in response.content.decode()
    assert north.post(reverse("table-me", args=[table1.token]), {"seat": "E"}).status_code == 409
    north.post(reverse("table-submit", args=[table1.token]), ENTRY)  # "confirming" from the same phone
    assert HandResult.objects.get().status == HandResult.Status.ENTERED


def test_a_signed_in_player_enters_from_any_of_their_phones(table1, make_user):
    user = make_user("p1")
    Player.objects.filter(display_name="P1").update(user=user)
    first = Client()
    first.force_login(user)
    first.post(reverse("table-me", args=[table1.token]), {"seat": "N"})
    assert SeatClaim.objects.get().user == user
    second = Client()  # another phone, signed in as the same player: no secret, the account is the key
    second.force_login(user)
    response = second.post(reverse("table-submit", args=[table1.token]), ENTRY)
    assert response.status_code == 200 and HandResult.objects.get().entered_by == "N"


def test_a_stale_api_token_is_no_login_and_not_in_the_way(table1):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = claim(api, table1, "W")
    assert response.status_code == 201 and response.json()["signed_in"] is False
