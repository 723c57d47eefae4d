"""A disputed hand settled by the players: the two sides count again, and once both have
entered the same N-S count the hand is confirmed, before the organiser is needed. The
corrections history says how it was settled and by which seat. Service, phone page, API."""
import pytest

from drive.core.errors import Conflict
from drive.scoring.models import HandResult
from drive.scoring.services.results import RECOUNTED, SETTLED
from drive.scoring.selectors.console import correction_history, evening_state
from tests import seats

from .test_table_api import post
from .test_table_pages import enter, phone, text, url

pytestmark = pytest.mark.django_db
Status = HandResult.Status


def submit(table, seat, hand, ns, trump="H", version=None):
    return seats.enter(table=table, seat=seat, hand_number=hand, ns_tricks=ns, trump=trump, expected_version=version)


@pytest.fixture
def disputed(table1):
    """Hand 1 of table 1: N-S said 8, E-W said 6."""
    submit(table1, "N", 1, 8)
    result, outcome = submit(table1, "E", 1, 6)
    assert outcome == "disputed" and result.version == 2
    return table1


def reasons(result):
    return [h.history_change_reason for h in result.history.order_by("history_date", "history_id")]


# --- the service ---------------------------------------------------------------------------


def test_the_other_side_agreeing_settles_it(disputed):
    result, outcome = submit(disputed, "W", 1, 8)  # E-W counted again: N-S did take 8
    assert outcome == "settled"
    assert (result.status, result.ns_tricks, result.disputed_ns_tricks) == (Status.CONFIRMED, 8, None)
    assert (result.entered_by, result.confirmed_by) == ("N", "W")
    assert reasons(result)[-1] == SETTLED


def test_the_first_side_agreeing_settles_it_at_the_other_count(disputed):
    result, outcome = submit(disputed, "S", 1, 6)  # N-S counted again: they took 6
    assert outcome == "settled"
    assert (result.status, result.ns_tricks, result.ew_tricks) == (Status.CONFIRMED, 6, 7)
    assert result.entered_by == "S" and result.disputed_ns_tricks is None


def test_both_sides_entering_a_new_count_settles_it(disputed):
    result, outcome = submit(disputed, "N", 1, 7, version=2)  # N-S now say 7: still not E-W's 6
    assert outcome == "recounted" and result.status == Status.DISPUTED
    assert (result.ns_tricks, result.disputed_ns_tricks) == (7, 6)
    result, outcome = submit(disputed, "E", 1, 7)  # E-W say 7 too
    assert outcome == "settled" and (result.status, result.ns_tricks) == (Status.CONFIRMED, 7)
    assert reasons(result)[-2:] == [RECOUNTED, SETTLED]


def test_the_other_side_changing_its_count_is_kept_as_its_own(disputed):
    result, outcome = submit(disputed, "W", 1, 5, version=2)
    assert outcome == "recounted" and (result.ns_tricks, result.disputed_ns_tricks) == (8, 5)
    assert result.confirmed_by == "W"
    assert submit(disputed, "E", 1, 5)[1] == "unchanged"  # the same again: nothing changes
    assert submit(disputed, "N", 1, 8)[1] == "unchanged"
    assert HandResult.objects.get().version == 3


def test_a_side_s_new_count_needs_the_version_it_saw(disputed):
    with pytest.raises(Conflict, match="look at both sides' counts") as refused:
        submit(disputed, "S", 1, 9)  # the partner had not seen the dispute
    assert refused.value.extra["stored"]["status"] == "disputed"
    with pytest.raises(Conflict):
        submit(disputed, "S", 1, 9, version=1)
    result = HandResult.objects.get()
    assert (result.ns_tricks, result.disputed_ns_tricks, result.version) == (8, 6, 2)


def test_agreeing_needs_the_same_trump(disputed):
    result, outcome = submit(disputed, "E", 1, 8, trump="S", version=2)  # 8, but another suit turned up
    assert outcome == "recounted" and result.status == Status.DISPUTED
    assert submit(disputed, "E", 1, 8, trump="H")[1] == "settled"


def test_a_settled_hand_counts_the_table_in(disputed, evening):
    assert evening_state(evening)["tables_disputed"] == [1]
    submit(disputed, "E", 1, 8)
    state = evening_state(evening)
    assert state["tables_disputed"] == [] and 1 in state["tables_out"]  # hand 2 is still to come


def test_the_corrections_history_shows_how_it_was_settled(disputed, evening):
    submit(disputed, "N", 1, 7, version=2)
    submit(disputed, "W", 1, 7)
    (hand,) = correction_history(evening)
    assert (hand["round"], hand["table"], hand["hand_number"], hand["ns_tricks"], hand["status"]) == (
        1, 1, 1, 7, "confirmed")
    rows = [(e["seat"], e["status"], e["old_ns_tricks"], e["new_ns_tricks"], e["disputed_ns_tricks"], e["reason"])
            for e in hand["history"]]
    assert rows == [
        ("N", "entered", None, 8, None, "entered at the table"),
        ("E", "disputed", 8, 8, 6, "disputed by the opponents"),
        ("N", "disputed", 8, 7, 6, RECOUNTED),
        ("W", "confirmed", 7, 7, None, SETTLED),
    ]
    assert hand["history"][-1]["changed"] and hand["history"][-1]["user"] == ""


def test_a_dispute_settled_without_a_new_count_is_in_the_history_too(disputed, evening):
    submit(disputed, "E", 1, 8)  # E-W agree with N-S's 8: no count changed
    (hand,) = correction_history(evening)
    assert [(e["seat"], e["reason"], e["changed"]) for e in hand["history"]][-1] == ("E", SETTLED, True)


# --- the phone's page ------------------------------------------------------------------------


@pytest.fixture
def phones(table1):
    """The phones of North and East, hand 1 disputed from their pages (8 against 6)."""
    north, east = phone(table1, "N"), phone(table1, "E")
    enter(north, table1, 1, 8)
    assert "Disputed: the organiser has been told." in text(enter(east, table1, 1, 6, version=1))
    return north, east


def test_the_phones_offer_to_agree_or_count_again(table1, phones):
    north, east = phones
    page = text(north.get(url(table1)))
    assert "The sides entered different counts. Count the tricks again together" in page
    assert "✔ Agree: N-S 6 · E-W 7" in page and "Send our count again" in page
    assert "✔ Agree: N-S 8 · E-W 5" in text(east.get(url(table1)))
    assert "Agree:" not in text(phone(table1).get(url(table1)))  # a phone that has not said who it is


def test_agreeing_from_the_page_settles_it(table1, phones):
    north, _east = phones
    html = north.get(url(table1)).content.decode()
    assert 'name="ns_tricks" value="6"' in html  # the agree button's count: the other side's
    response = enter(north, table1, 1, 6, version=2, htmx=True)
    assert response.status_code == 200
    page = text(response)
    assert "✔ Settled: both sides entered the same count." in page and "✔ confirmed" in page
    assert "Agree:" not in page
    result = HandResult.objects.get()
    assert (result.status, result.ns_tricks) == (Status.CONFIRMED, 6)


def test_counting_again_from_the_page_keeps_it_disputed_until_both_agree(table1, phones):
    north, east = phones
    response = enter(north, table1, 1, 7, version=2)
    assert response.status_code == 200
    assert "⚠ Sent. The sides still disagree: the same count from both settles it, otherwise the organiser will." \
        in text(response)
    assert "✔ Agree: N-S 7 · E-W 6" in text(east.get(url(table1)))
    assert "✔ Settled" in text(enter(east, table1, 1, 7, version=3))


# --- the API -----------------------------------------------------------------------------------


def test_the_api_settles_a_dispute_when_both_sides_agree(api, table1):
    post(api, table1, "N", 1, 8)
    assert post(api, table1, "W", 1, 6).json()["outcome"] == "disputed"
    again = post(api, table1, "W", 1, 7, version=2)
    assert again.status_code == 200 and again.json()["outcome"] == "recounted"
    assert again.json()["hand"]["disputed_ns_tricks"] == 7
    settled = post(api, table1, "N", 1, 7)
    assert settled.status_code == 200
    body = settled.json()
    assert body["outcome"] == "settled" and body["message"] == "Settled: both sides entered the same count."
    assert (body["hand"]["status"], body["hand"]["ns_tricks"], body["hand"]["disputed_ns_tricks"]) == (
        "confirmed", 7, None)


def test_the_api_refuses_a_new_count_without_the_version_seen(api, table1):
    post(api, table1, "N", 1, 8)
    post(api, table1, "E", 1, 6)
    response = post(api, table1, "S", 1, 9)
    assert response.status_code == 409 and response.json()["stored"]["version"] == 2
    assert HandResult.objects.get().ns_tricks == 8
