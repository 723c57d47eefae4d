"""The organiser's movement page: a preview before the start, the stored plan after."""
import pytest


from drive.events.services import arrivals as arrival_services

pytestmark = pytest.mark.django_db


def test_preview_shows_quality_and_cards(client, make_event, organiser):
    event = make_event(movement_kind="individual", rounds=4)
    for i in range(9):
        arrival_services.add_walk_in(actor=organiser, event=event, display_name=f"P{i}")
    client.force_login(organiser)
    page = client.get(f"/console/events/{event.pk}/movement/").content.decode()
    assert "A preview for 9 players" in page and "Cards per player" in page and "№ 9" in page
    other = client.get(f"/console/events/{event.pk}/movement/?players=16").content.decode()
    assert "A preview for 16 players" in other
    assert "A preview for 9 players" in client.get(f"/console/events/{event.pk}/movement/?players=abc").content.decode()


def test_stored_plan_shows_names(client, make_event, organiser, django_capture_on_commit_callbacks):
    from drive.scoring.services import evening

    event = make_event(movement_kind="individual", rounds=3)
    for i in range(8):
        arrival_services.add_walk_in(actor=organiser, event=event, display_name=f"Player {i}")
    with django_capture_on_commit_callbacks(execute=True):
        evening.start_evening(actor=organiser, event=event)
    client.force_login(organiser)
    page = client.get(f"/console/events/{event.pk}/movement/").content.decode()
    assert "A preview" not in page and "Player 0" in page and "Construction" in page


def test_movement_page_is_for_organisers(client, event, make_user):
    client.force_login(make_user())
    assert client.get(f"/console/events/{event.pk}/movement/").status_code == 403


def test_how_often_players_share_a_table_reads_as_words(client, make_event, organiser):
    event = make_event(movement_kind="individual", rounds=4)
    for i in range(9):
        arrival_services.add_walk_in(actor=organiser, event=event, display_name=f"P{i}")
    client.force_login(organiser)
    page = client.get(f"/console/events/{event.pk}/movement/").content.decode()
    assert "{&#x27;" not in page and "&#x27;: " not in page  # no Python dict on the page
    assert "How often two players sit at the same table" in page
    assert "never: " in page and " pairs" in page


def test_table_meetings_in_words():
    from django.utils import translation

    from drive.movements.selectors.movements import table_meetings

    assert table_meetings({"0": 160, "1": 30}) == "never: 160 pairs; once: 30 pairs"
    assert table_meetings({"2": 1, "0": 4, "1": 21, "3": 2}) == (
        "never: 4 pairs; once: 21 pairs; 2 times: 1 pair; 3 times: 2 pairs")
    with translation.override("ru"):
        assert table_meetings({"0": 160, "1": 30, "2": 3}) == "ни разу: 160 пар; один раз: 30 пар; 2 раза: 3 пары"
    with translation.override("uk"):
        assert table_meetings({"0": 160, "1": 21}) == "жодного разу: 160 пар; один раз: 21 пара"
