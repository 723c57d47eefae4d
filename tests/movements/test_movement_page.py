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
