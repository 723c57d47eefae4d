"""The organiser's evening console pages: moves, clock, grid, seating, corrections."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone


from drive.events.services import registration as registration_services

from drive.events.services import arrivals as arrival_services
from drive.events.models import Event
from drive.movements.models import Movement
from drive.scoring.services import results
from drive.scoring.models import HandResult, Round
from tests import seats

pytestmark = pytest.mark.django_db

PLAN = {"rounds": [
    {"tables": [{"table": 1, "N": 1, "E": 2, "S": 3, "W": 4}, {"table": 2, "N": 5, "E": 6, "S": 7, "W": 8}], "sit_out": [9]},
    {"tables": [{"table": 1, "N": 9, "E": 1, "S": 5, "W": 2}, {"table": 2, "N": 3, "E": 6, "S": 4, "W": 7}], "sit_out": [8]},
]}
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def planned(evening):
    Movement.objects.create(event=evening, kind="individual", players=9, rounds=2, status="ready", plan=PLAN)
    return evening


@pytest.fixture
def player(make_user):
    return make_user("player")


@pytest.fixture
def as_organiser(client, organiser):
    client.force_login(organiser)
    return client


def url(name, event, *args):
    return reverse(name, args=[event.pk, *args])


def move(client, event, action, **data):
    return client.post(url("console-evening-move", event, action), data)


def submit(table, seat, hand, ns, trump="H"):
    return seats.enter(table=table, seat=seat, hand_number=hand, ns_tricks=ns, trump=trump)


def confirm_table(table, hands=(1, 2), ns=7):
    for hand in hands:
        submit(table, "N", hand, ns)
        submit(table, "E", hand, ns)


# --- who gets in ---------------------------------------------------------------------------------

PAGES = [
    ("console-evening", ()),
    ("console-evening-live", ()),
    ("console-evening-table", (1, 1)),
    ("console-corrections", ()),
]


@pytest.mark.parametrize("name, args", PAGES)
def test_pages_are_for_organisers_only(client, evening, player, name, args):
    page = url(name, evening, *args)
    anonymous = client.get(page)
    assert anonymous.status_code == 302 and anonymous.url.startswith(reverse("login"))
    client.force_login(player)
    assert client.get(page).status_code == 403


def test_moves_and_corrections_are_refused_to_a_player_and_to_anonymous(client, evening, player):
    for action in ("start", "start-round", "pause", "resume", "end-round", "publish-results"):
        response = move(client, evening, action)
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    client.force_login(player)
    for action in ("pause", "end-round"):
        assert move(client, evening, action, force="1").status_code == 403
    correct = url("console-correct-hand", evening, 1, 1, 1)
    assert client.post(correct, {"h1-ns_tricks": 7, "h1-kind": "correction", "h1-reason": "x"}).status_code == 403
    revoke = url("console-revoke-hand", evening, 1, 1, 1)
    assert client.post(revoke, {"r1-offending_side": "NS", "r1-reason": "x"}).status_code == 403
    round_ = evening.evening_rounds.get(number=1)
    assert round_.paused_at is None and round_.state == Round.State.PLAYING
    assert not HandResult.objects.exists()


def test_an_unpublished_event_is_not_found_for_others(client, evening, player):
    Event.objects.filter(pk=evening.pk).update(published=False)
    client.force_login(player)
    assert client.get(url("console-evening", evening)).status_code == 404


def test_unknown_move_table_or_round_is_not_found(as_organiser, evening):
    assert move(as_organiser, evening, "explode").status_code == 404
    assert as_organiser.get(url("console-evening-table", evening, 1, 7)).status_code == 404
    assert as_organiser.get(url("console-evening-table", evening, 2, 1)).status_code == 404  # round 2 not seated


def test_console_links_to_the_evening(as_organiser, evening):
    page = as_organiser.get(reverse("console-event", args=[evening.pk])).content.decode()
    assert url("console-evening", evening) in page


# --- the evening page --------------------------------------------------------------------------


def test_evening_page_shows_round_clock_moves_grid_and_seating(as_organiser, evening, monkeypatch):
    round_ = evening.evening_rounds.get(number=1)
    started = round_.deadline - timedelta(minutes=evening.round_minutes)
    monkeypatch.setattr(timezone, "now", lambda: started)  # the page is read as the clock starts, however slow
    page = as_organiser.get(url("console-evening", evening)).content.decode()
    assert "Round 1 of 2" in page and "badge-playing" in page
    assert f'data-deadline="{timezone.localtime(round_.deadline).isoformat()}"' in page
    assert 'data-seconds-left="1200"' in page
    assert 'data-paused="0"' in page
    assert "Pause the clock" in page and "End round 1" in page
    assert "Start the evening" not in page and "Publish the results" not in page
    assert page.count('class="tbl tbl-out"') == 2
    for name in ("P1", "P2", "P3", "P4", "P5", "P8"):
        assert f">{name}</td>" in page
    assert "Sitting out" in page and "P9" in page
    # Live: the fragment re-fetches when the socket says something changed.
    assert f'data-live-event="{evening.pk}"' in page and 'hx-trigger="live-update from:body"' in page
    assert f'hx-get="{url("console-evening-live", evening)}"' in page


def test_live_fragment_is_the_evening_part_only(as_organiser, evening):
    fragment = as_organiser.get(url("console-evening-live", evening)).content.decode()
    assert fragment.lstrip().startswith('<div id="evening"') and "<html" not in fragment


def test_grid_flags_a_disputed_table_with_both_values(as_organiser, evening, table1):
    submit(table1, "N", 1, 8)
    submit(table1, "E", 1, 6)
    page = as_organiser.get(url("console-evening", evening)).content.decode()
    assert 'class="tbl tbl-disputed"' in page and "8/6" in page and "Hand 1: N-S 8 or 6?" in page


def test_grid_shows_a_table_in(as_organiser, evening, table1):
    confirm_table(table1)
    page = as_organiser.get(url("console-evening", evening)).content.decode()
    assert page.count('class="tbl tbl-in"') == 1 and page.count('class="tbl tbl-out"') == 1


def test_start_the_evening(client, make_event, organiser, make_user):
    event = make_event(starts_at=timezone.now() + timedelta(minutes=10))
    for i in range(4):
        arrival_services.add_walk_in(actor=organiser, event=event, display_name=f"Player {i}")
    registration_services.register(actor=make_user("late"), event=event)
    client.force_login(organiser)
    page = client.get(url("console-evening", event)).content.decode()
    assert "4 players are checked in." in page and "Start the evening" in page
    assert "1 registered player has not arrived." in page
    response = move(client, event, "start")
    assert response.status_code == 302 and response.url == url("console-evening", event)
    event.refresh_from_db()
    assert event.phase == Event.Phase.IN_PROGRESS
    page = client.get(response.url).content.decode()
    assert "The evening has started" in page and "The movement is being worked out" in page


def test_a_refused_move_shows_the_services_message(as_organiser, make_event, organiser):
    event = make_event()
    arrival_services.add_walk_in(actor=organiser, event=event, display_name="Lonely")
    response = move(as_organiser, event, "start")
    assert response.status_code == 409
    assert "At least four players must be checked in to start." in response.content.decode()
    event.refresh_from_db()
    assert event.phase == Event.Phase.REGISTRATION


def test_a_refused_move_over_htmx_is_swapped_with_its_message(as_organiser, evening):
    response = as_organiser.post(url("console-evening-move", evening, "start-round"), {"round": 1}, **HX)
    assert response.status_code == 200  # htmx swaps 2xx only
    body = response.content.decode()
    assert 'id="evening-messages" hx-swap-oob="true"' in body
    assert "There is no seated round waiting to start." in body and 'class="error"' in body


def test_start_round_pause_and_resume(as_organiser, evening):
    Round.objects.filter(event=evening, number=1).update(state=Round.State.SEATED, deadline=None, started_at=None)
    page = as_organiser.get(url("console-evening", evening)).content.decode()
    assert "Start the clock of round 1" in page and "badge-seated" in page and "data-seconds-left=" not in page
    assert move(as_organiser, evening, "start-round", round=1).status_code == 302
    response = as_organiser.post(url("console-evening-move", evening, "pause"), {"round": 1}, **HX)
    body = response.content.decode()
    assert 'data-paused="1"' in body and "Paused" in body and "Resume the clock" in body
    assert "The clock is paused." in body
    assert evening.evening_rounds.get(number=1).paused_at is not None
    move(as_organiser, evening, "resume", round=1)
    assert evening.evening_rounds.get(number=1).paused_at is None


def test_end_round_with_tables_out_offers_end_anyway(as_organiser, planned, table1):
    confirm_table(table1)
    response = move(as_organiser, planned, "end-round", round=1)
    assert response.status_code == 409
    page = response.content.decode()
    assert "Tables not in yet (still playing, or a hand disputed): 2." in page and "End anyway" in page and 'name="force" value="1"' in page
    assert "hx-confirm=" in page  # asked before ending with a table out
    assert evening_round(planned, 1).state == Round.State.PLAYING
    # The live fragment keeps the offer while the round is still playing with that table out.
    fragment = as_organiser.get(url("console-evening-live", planned) + "?confirm_end=1").content.decode()
    assert "End anyway" in fragment
    response = move(as_organiser, planned, "end-round", round=1, force="1")
    assert response.status_code == 302
    closed = evening_round(planned, 1)
    assert closed.state == Round.State.CLOSED and closed.late_tables == [2]
    page = as_organiser.get(url("console-evening", planned)).content.decode()
    assert "Round 1 is closed. Tables still out at the end: 2." in page
    assert "Round 2 of 2" in page and "badge-seated" in page and "Start the clock of round 2" in page
    assert "Round 1 ended with tables still out: 2." in page  # never silently dropped
    assert "End anyway" not in as_organiser.get(url("console-evening-live", planned) + "?confirm_end=1").content.decode()


def test_end_round_over_htmx_keeps_the_offer_in_the_live_url(as_organiser, planned):
    response = as_organiser.post(url("console-evening-move", planned, "end-round"), {"round": 1}, **HX)
    body = response.content.decode()
    assert response.status_code == 200 and "End anyway" in body
    assert "confirm_end=1" in body and "Tables not in yet (still playing, or a hand disputed): 1, 2." in body


def test_a_move_from_a_stale_page_is_refused(as_organiser, planned):
    response = move(as_organiser, planned, "end-round", round=2, force="1")
    assert response.status_code == 409 and "The evening has moved on" in response.content.decode()
    assert evening_round(planned, 1).state == Round.State.PLAYING


def test_end_of_the_evening_then_publish(as_organiser, evening):
    Round.objects.filter(event=evening, number=2).delete()
    Event.objects.filter(pk=evening.pk).update(rounds=1)
    Round.objects.filter(event=evening, number=1).update(deadline=timezone.now() - timedelta(seconds=1))
    page = as_organiser.get(url("console-evening", evening)).content.decode()
    assert 'data-seconds-left="0"' in page and "Time is up" in page
    assert move(as_organiser, evening, "end-round", round=1).status_code == 302  # past the deadline
    evening.refresh_from_db()
    assert evening.phase == Event.Phase.FINISHED
    page = as_organiser.get(url("console-evening", evening)).content.decode()
    assert "Publish the results" in page and "badge-closed" in page
    assert move(as_organiser, evening, "publish-results").status_code == 302
    evening.refresh_from_db()
    assert evening.phase == Event.Phase.RESULTS_PUBLISHED
    assert move(as_organiser, evening, "publish-results").status_code == 409  # once only


def test_an_earlier_round_can_be_looked_at(as_organiser, planned, table1):
    submit(table1, "N", 1, 9)
    move(as_organiser, planned, "end-round", round=1, force="1")
    page = as_organiser.get(url("console-evening", planned) + "?round=1").content.decode()
    assert "Tables of round 1" in page and "You are looking at round 1" in page
    assert f'hx-get="{url("console-evening-live", planned)}?round=1"' in page
    assert url("console-evening-table", planned, 1, 1) in page


def evening_round(event, number):
    return event.evening_rounds.get(number=number)


# --- one table: corrections ----------------------------------------------------------------------


def correct(client, event, hand, **fields):
    data = {f"h{hand}-{k}": v for k, v in fields.items()}
    return client.post(url("console-correct-hand", event, 1, 1, hand), data)


def test_table_page_shows_the_hands_and_a_dispute(as_organiser, evening, table1):
    submit(table1, "N", 1, 8)
    submit(table1, "E", 1, 6)
    page = as_organiser.get(url("console-evening-table", evening, 1, 1)).content.decode()
    assert "Seat N entered N-S 8, E-W 5; seat E entered N-S 6, E-W 7." in page
    assert "Settle the dispute" in page and "Nothing entered for this hand yet." in page
    assert ">P1</dd>" in page and ">P4</dd>" in page


def test_settle_a_dispute_with_a_reason(as_organiser, evening, table1, organiser):
    result, _ = submit(table1, "N", 1, 8)
    result, _ = submit(table1, "E", 1, 6)
    response = correct(as_organiser, evening, 1, ns_tricks=6, kind="correction", reason="Cards re-counted",
                       expected_version=result.version)
    assert response.status_code == 302 and response.url.endswith("#hand-1")
    result.refresh_from_db()
    assert result.ns_tricks == 6 and result.status == HandResult.Status.CONFIRMED and result.disputed_ns_tricks is None
    last = result.history.latest()
    assert last.history_user == organiser and last.history_change_reason == "Cards re-counted"


def test_an_adjusted_score_for_a_hand_never_entered(as_organiser, evening, table1):
    response = correct(as_organiser, evening, 2, ns_tricks=7, trump="S", kind="adjusted", reason="Card lost")
    assert response.status_code == 302
    result = HandResult.objects.get(table=table1, hand_number=2)
    assert (result.ns_tricks, result.trump, result.change_kind) == (7, "S", "adjusted")


def test_a_correction_needs_a_reason_and_sane_tricks(as_organiser, evening, table1):
    result, _ = submit(table1, "N", 1, 8)
    response = correct(as_organiser, evening, 1, ns_tricks=14, kind="correction", reason="")
    assert response.status_code == 400
    page = response.content.decode()
    assert "has-error" in page and "This field is required." in page
    response = correct(as_organiser, evening, 1, ns_tricks=7, kind="correction", reason="x" * 101)
    assert response.status_code == 400  # the history keeps 100 characters
    result.refresh_from_db()
    assert result.ns_tricks == 8 and result.version == 1


def test_a_stale_correction_is_refused_and_shows_the_stored_hand(as_organiser, evening, table1):
    result, _ = submit(table1, "N", 1, 8)
    seats.enter(table=table1, seat="S", hand_number=1, ns_tricks=9, trump="H",
                expected_version=result.version)  # the table changed it meanwhile
    response = correct(as_organiser, evening, 1, ns_tricks=7, kind="correction", reason="typo",
                       expected_version=result.version)
    assert response.status_code == 409
    page = response.content.decode()
    assert "Someone changed this hand meanwhile." in page and "<strong>9</strong>" in page
    assert 'name="h1-expected_version" value="2"' in page  # the next try is against what is stored
    assert HandResult.objects.get(pk=result.pk).ns_tricks == 9


def test_a_hand_of_a_missing_trump_is_refused_with_the_reason(as_organiser, evening):
    response = correct(as_organiser, evening, 2, ns_tricks=7, kind="correction", reason="late table")
    assert response.status_code == 400 and "Say which suit was turned up for trumps." in response.content.decode()


def test_revoke_penalty(as_organiser, evening, table1):
    result, _ = submit(table1, "N", 1, 8)
    response = as_organiser.post(url("console-revoke-hand", evening, 1, 1, 1), {
        "r1-offending_side": "NS", "r1-reason": "Revoke in trick 5", "r1-expected_version": result.version})
    assert response.status_code == 302  # rule L8: three tricks to the other side
    result.refresh_from_db()
    assert result.ns_tricks == 5 and result.change_kind == HandResult.ChangeKind.REVOKE
    stale = as_organiser.post(url("console-revoke-hand", evening, 1, 1, 1), {
        "r1-offending_side": "NS", "r1-reason": "again", "r1-expected_version": 1})
    assert stale.status_code == 409
    result.refresh_from_db()
    assert result.ns_tricks == 5


# --- the corrections page ------------------------------------------------------------------------


def test_corrections_page_lists_who_when_old_new_why(as_organiser, evening, table1, organiser):
    organiser.first_name, organiser.last_name = "Pat", "Organiser"
    organiser.save()
    confirm_table(table1)  # entered and confirmed: not changes
    results.correct_result(actor=organiser, table=table1, round_number=1, hand_number=2, ns_tricks=9,
                           reason="Scorecard misread")
    page = as_organiser.get(url("console-corrections", evening)).content.decode()
    assert "Round 1 · table 1 · hand 2" in page and "hand 1" not in page
    assert "Pat Organiser" in page and "Scorecard misread" in page
    assert '<td data-label="N-S before">7</td>' in page and "<strong>9</strong>" in page
    assert "the table, seat N" in page and "the table, seat E" in page


def test_corrections_page_when_nothing_changed(as_organiser, evening):
    assert "No hand has been changed yet." in as_organiser.get(url("console-corrections", evening)).content.decode()
