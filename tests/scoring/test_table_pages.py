"""The table's entry page on the players' phones: no login, the table card's token is the key.

Pins the issue's "Results from the tables": a wrong or stale token is 404; the phone says
who it is, enters N-S tricks per hand, the opponents confirm or dispute; the same entry
twice is idempotent; a conflict shows the stored values; a confirmed round is locked.
"""
import re

import pytest
from django.test import Client
from django.urls import reverse

from drive.events.models import Event
from drive.scoring.models import HandResult, Round, Table
from tests import seats

from .conftest import seat_round

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def url(table, name="table-entry"):
    return reverse(name, args=[table.token])


def text(response):
    """The page's words, tags dropped and spaces squeezed, for asserting on what a player reads."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&amp;", "&")


def phone(table, seat=None):
    """A phone at the table (its own session); with `seat`, it has said who it is."""
    client = Client()
    if seat:
        assert client.post(url(table, "table-me"), {"seat": seat}).status_code == 302
    return client


def enter(client, table, hand, ns, trump="H", htmx=False, version=None):
    data = {"hand_number": hand, "ns_tricks": ns, **({"version": version} if version else {})}
    if trump is not None:
        data["trump"] = trump
    return client.post(url(table, "table-submit"), data, **(HTMX if htmx else {}))


# --- the page ----------------------------------------------------------------------------


def test_wrong_and_stale_tokens_are_404(client, table1, evening):
    assert client.get("/t/not-a-table-token-at-all/").status_code == 404
    assert client.get("/t/short/").status_code == 404
    last = url(table1)[-2]
    assert client.get(url(table1)[:-2] + ("x" if last != "x" else "y") + "/").status_code == 404  # one character off
    assert client.get(url(table1)).status_code == 200
    Event.objects.filter(pk=evening.pk).update(phase=Event.Phase.RESULTS_PUBLISHED)  # last week's card
    for name in ("table-entry", "table-panel"):
        assert client.get(url(table1, name)).status_code == 404
    assert client.post(url(table1, "table-submit"), {"hand_number": 1, "ns_tricks": 7}).status_code == 404


def test_the_page_shows_the_table_the_round_the_seats_and_the_hands(client, table1, evening):
    response = client.get(url(table1))
    assert response.status_code == 200
    page = text(response)
    assert "Friday Drive" in page and "Table 1" in page and "Round 1 of 2" in page
    for seat, name in (("North", "P1"), ("East", "P2"), ("South", "P3"), ("West", "P4")):
        assert re.search(rf"{seat} {name}\b", page), (seat, name)
    assert "North–South: P1 & P3" in page and "East–West: P2 & P4" in page  # partners
    assert "Hand 1" in page and "Hand 2" in page and page.count("Trump: turned up") == 2
    assert "Who are you?" in page
    html = response.content.decode()
    # table.js fires table-update for this table's live updates
    assert f'data-live-event="{evening.pk}"' in html and 'hx-trigger="table-update from:body"' in html
    assert "P5" not in page  # the other table's players are not here


def test_rotation_trumps_are_shown_and_not_asked(client, table1, evening):
    evening.trump_rule = "rotation"
    evening.save()
    page = text(client.get(url(table1)))
    assert "Trump: ♥ hearts" in page and "Trump: ♦ diamonds" in page  # rule D2: H, D, S, C over the evening
    north = phone(table1, "N")
    assert 'name="trump"' not in north.get(url(table1)).content.decode()
    assert "Waiting for the opponents" in text(enter(north, table1, 1, 9, trump=None))
    assert HandResult.objects.get().trump == "H"


def test_who_are_you_is_remembered_per_table(table1, evening):
    north = phone(table1)
    assert b"Who are you?" in north.get(url(table1)).content
    response = north.post(url(table1, "table-me"), {"seat": "N"}, follow=True)
    page = text(response)
    assert "You are P1 (North), partner P3." in page and "Who are you?" not in page
    assert "Who are you?" not in text(north.get(url(table1)))  # remembered
    table2 = Table.objects.get(event=evening, number=2)
    assert "Who are you?" in text(north.get(url(table2)))  # another table asks again
    response = north.post(url(table1, "table-me"), {"seat": ""}, follow=True)  # "Not you?"
    assert "Who are you?" in text(response)


def test_who_are_you_refuses_a_seat_that_is_not_there(table1):
    response = Client().post(url(table1, "table-me"), {"seat": "X"})
    assert response.status_code == 400 and "Pick one of the four players" in text(response)


def test_entering_needs_to_know_who_you_are(table1):
    response = enter(Client(), table1, 1, 8)
    assert response.status_code == 403 and "First say who you are." in text(response)  # no seat claimed
    assert not HandResult.objects.exists()


# --- entry from two phones: confirmation, dispute, idempotence, conflicts -------------------


def test_entry_then_confirmation_from_the_other_side(table1):
    north, east = phone(table1, "N"), phone(table1, "E")
    response = enter(north, table1, 1, 8)
    assert response.status_code == 200
    assert "Sent. Waiting for the opponents to confirm." in text(response)
    assert "N-S 8 · E-W 5" in text(response)

    seen_by_east = text(east.get(url(table1)))
    assert "The opponents entered this. Is it right?" in seen_by_east
    assert "Yes, confirm N-S 8 · E-W 5" in seen_by_east
    response = enter(east, table1, 1, 8, htmx=True)  # the confirm button posts the same values
    assert response.status_code == 200 and b"<html" not in response.content  # htmx gets the panel only
    assert "✔ Confirmed." in text(response)
    result = HandResult.objects.get()
    assert result.status == HandResult.Status.CONFIRMED and (result.entered_by, result.confirmed_by) == ("N", "E")

    panel = text(north.get(url(table1, "table-panel")))  # what the live update fetches
    assert "✔ confirmed" in panel and "N-S 8 · E-W 5" in panel


def test_disagreement_is_disputed_and_the_organiser_told(table1):
    north, west = phone(table1, "N"), phone(table1, "W")
    enter(north, table1, 1, 8)
    response = enter(west, table1, 1, 6)
    assert response.status_code == 200
    page = text(response)
    assert "⚠ Disputed: the organiser has been told." in page
    assert "North–South entered N-S 8 · E-W 5; East–West entered N-S 6 · E-W 7." in page  # nothing stored is lost
    assert "⚠ disputed" in text(north.get(url(table1)))


def test_the_same_entry_twice_changes_nothing(table1):
    north, south = phone(table1, "N"), phone(table1, "S")
    enter(north, table1, 1, 8)
    for client in (north, south):  # a double tap, or the partner's phone
        response = enter(client, table1, 1, 8)
        assert response.status_code == 200 and "Already sent: nothing changed." in text(response)
    result = HandResult.objects.get()
    assert result.version == 1 and result.history.count() == 1


def test_own_side_may_change_its_unconfirmed_entry(table1):
    north, south = phone(table1, "N"), phone(table1, "S")
    enter(north, table1, 1, 8)
    page = south.get(url(table1)).content.decode()
    assert "Change our entry" in text(south.get(url(table1))) and 'name="version" value="1"' in page
    response = enter(south, table1, 1, 9, version=1)  # the version the page showed
    assert "Changed. Waiting for the opponents to confirm." in text(response)
    assert HandResult.objects.get().ns_tricks == 9
    unseen = enter(north, table1, 1, 7)  # north had not seen south's change
    assert unseen.status_code == 409 and HandResult.objects.get().ns_tricks == 9


def test_a_conflict_is_409_with_the_stored_values(table1):
    north, east = phone(table1, "N"), phone(table1, "E")
    enter(north, table1, 1, 8)
    enter(east, table1, 1, 6)  # disputed
    response = enter(north, table1, 1, 7)  # a new count of its own, without the version it saw
    assert response.status_code == 409
    page = text(response)
    assert "This hand is disputed: look at both sides" in page and "then send yours again with the version" in page
    assert "North–South entered N-S 8 · E-W 5; East–West entered N-S 6 · E-W 7." in page
    response = enter(north, table1, 1, 7, htmx=True)
    assert response.status_code == 409 and b"<html" not in response.content  # htmx swaps it in (htmx-config)
    assert HandResult.objects.get().ns_tricks == 8


def test_a_confirmed_round_is_locked_for_the_players(table1):
    north, east = phone(table1, "N"), phone(table1, "E")
    for hand in (1, 2):
        enter(north, table1, hand, 7)
        enter(east, table1, hand, 7)
    page = text(north.get(url(table1)))
    assert "this round is locked" in page and 'name="ns_tricks"' not in north.get(url(table1)).content.decode()
    response = enter(east, table1, 2, 7)  # a retry of the last confirmation is still idempotent
    assert response.status_code == 200 and "Already sent: nothing changed." in text(response)
    response = enter(north, table1, 1, 9)
    assert response.status_code == 409 and "confirmed and locked" in text(response)
    assert HandResult.objects.get(hand_number=1).ns_tricks == 7


@pytest.mark.parametrize(
    "data, message",
    [
        ({"hand_number": 1, "trump": "H"}, "Tap the number of tricks North-South took."),
        ({"hand_number": 1, "ns_tricks": "14", "trump": "H"}, "Tricks for N-S must be a whole number from 0 to 13."),
        ({"hand_number": 1, "ns_tricks": "seven", "trump": "H"}, "Tricks for N-S must be a whole number from 0 to 13."),
        ({"hand_number": 1, "ns_tricks": "-1", "trump": "H"}, "Tricks for N-S must be a whole number from 0 to 13."),
        ({"hand_number": 3, "ns_tricks": "7", "trump": "H"}, "Hand must be from 1 to 2."),
        ({"hand_number": "x", "ns_tricks": "7", "trump": "H"}, "Hand must be from 1 to 2."),
        ({"hand_number": 1, "ns_tricks": "7"}, "Say which suit was turned up for trumps."),
        ({"hand_number": 1, "ns_tricks": "7", "trump": "NT"}, "Say which suit was turned up for trumps."),
    ],
)
def test_bad_input_is_400_with_the_reason(table1, data, message):
    response = phone(table1, "N").post(url(table1, "table-submit"), data)
    assert response.status_code == 400
    assert message in text(response)
    assert not HandResult.objects.exists()


def test_a_refused_entry_keeps_the_choice_made(table1):
    response = phone(table1, "N").post(url(table1, "table-submit"), {"hand_number": 1, "ns_tricks": "9"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 400
    assert re.search(r'id="h1-ns-9" checked', html)  # no need to tap the 9 again after picking the suit


# --- the round's state ---------------------------------------------------------------------


def test_before_the_round_starts_the_seats_show_and_entry_waits(table1, evening):
    Round.objects.filter(event=evening, number=1).update(state=Round.State.SEATED)
    page = text(Client().get(url(table1)))
    assert "play starts when the organiser starts the round" in page and "North P1" in page
    assert "Hand 1" not in page
    response = enter(phone(table1, "N"), table1, 1, 7)
    assert response.status_code == 409 and "No round is open" in text(response)


def test_between_rounds_it_shows_where_everyone_goes(table1, evening):
    first, second = Round.objects.filter(event=evening).order_by("number")
    seat_round(second, {1: (5, 6, 7, 9), 2: (2, 1, 4, 8)}, sit_out=(3,))
    Round.objects.filter(pk=first.pk).update(state=Round.State.CLOSED)
    Round.objects.filter(pk=second.pk).update(state=Round.State.SEATED)
    north = phone(table1, "N")
    page = text(north.get(url(table1)))
    assert "Round 2: where everyone goes" in page
    assert "P1 → table 2, East" in page and "P2 → table 2, North" in page
    assert "P3 → sits out this round" in page and "P4 → table 2, South" in page
    assert "Coming to this table: North P5 · East P6 · South P7 · West P9" in page
    assert "The round has ended: enter the hands still missing now." in page
    assert "Sent." in text(enter(north, table1, 1, 8))  # a late table may still finish off round 1

    Round.objects.filter(pk=second.pk).update(state=Round.State.PLAYING)  # round 2 starts: new four
    page = text(north.get(url(table1)))
    assert "Round 2 of 2" in page and "North P5" in page and "Who are you?" in page


def test_the_evening_over(table1, evening):
    second = Round.objects.get(event=evening, number=2)
    seat_round(second, {1: (5, 6, 7, 9), 2: (2, 1, 4, 8)}, sit_out=(3,))
    seats.enter(table=table1, seat="N", hand_number=1, ns_tricks=7, trump="H")
    north = phone(table1, "E")  # claimed while the round was on
    Round.objects.filter(event=evening).update(state=Round.State.CLOSED)
    Event.objects.filter(pk=evening.pk).update(phase=Event.Phase.FINISHED)
    response = north.get(url(table1))
    page = text(response)
    assert "The evening is over" in page and "Round 2 of 2" in page and "North P5" in page
    assert "Who are you?" not in page and 'name="ns_tricks"' not in response.content.decode()
    response = enter(north, table1, 1, 8)
    assert response.status_code == 409 and "No round is open" in text(response)
    assert phone(table1).post(url(table1, "table-me"), {"seat": "S"}).status_code == 409  # nothing to claim


def test_single_entry_is_confirmed_at_once(table1, evening):
    evening.result_confirmation = "single"
    evening.save()
    response = enter(phone(table1, "W"), table1, 1, 4, trump="S")
    assert "✔ Confirmed." in text(response)


def test_the_page_fits_the_table_s_number_of_hands(client, table1, evening):
    evening.hands_per_round = 4
    evening.save()
    page = text(client.get(url(table1)))
    assert "Hand 4" in page and "Hand 5" not in page
