"""Once the evening has been played (finished, results published), who came to it is part of
its record: no check-in, walk-in, no-show or cancellation changes it, from the console, the
API or the door, and the console shows the list without the buttons that would."""
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token

from drive.core.errors import Conflict
from drive.events.models import Event, Player, Registration
from drive.events.services import arrivals as arrival_services
from drive.events.services import registration as registration_services

pytestmark = pytest.mark.django_db
Status = Registration.Status
OVER = [Event.Phase.FINISHED, Event.Phase.RESULTS_PUBLISHED]


@pytest.fixture
def played(make_event, make_user):
    """An evening two hours old: one player came, one did not, one waited on the list."""
    event = make_event(capacity=2)
    came, absent, waiting = (make_user(name) for name in ("came", "absent", "waiting"))
    rows = {user.username: registration_services.register(actor=user, event=event) for user in (came, absent, waiting)}
    Event.objects.filter(pk=event.pk).update(starts_at=timezone.now() - timedelta(hours=2))
    event.refresh_from_db()
    Registration.objects.filter(pk=rows["came"].pk).update(status=Status.CHECKED_IN, checked_in_at=event.starts_at)
    return event, rows


def register_of(event):
    return sorted(Registration.objects.filter(event=event).values_list("player__display_name", "status"))


ACTIONS = {
    "check in": lambda organiser, event, rows: arrival_services.check_in(actor=organiser, registration=rows["absent"]),
    "check in again": lambda organiser, event, rows: arrival_services.check_in(actor=organiser, registration=rows["came"]),
    "no-show": lambda organiser, event, rows: arrival_services.mark_no_show(actor=organiser, registration=rows["absent"]),
    "absent as no-shows": lambda organiser, event, rows: arrival_services.mark_absent_as_no_shows(actor=organiser,
                                                                                                event=event),
    "cancel": lambda organiser, event, rows: registration_services.cancel_registration(actor=organiser,
                                                                                     registration=rows["came"]),
    "walk-in": lambda organiser, event, rows: arrival_services.add_walk_in(actor=organiser, event=event,
                                                                         display_name="Late Larry"),
    "known walk-in": lambda organiser, event, rows: arrival_services.add_walk_in(
        actor=organiser, event=event, player=Player.objects.get(user__username="waiting")),
}


@pytest.mark.parametrize("phase", OVER)
@pytest.mark.parametrize("action", list(ACTIONS))
def test_the_organiser_cannot_change_who_played_once_the_evening_is_over(played, organiser, phase, action):
    event, rows = played
    Event.objects.filter(pk=event.pk).update(phase=phase)
    before = register_of(event)
    with pytest.raises(Conflict, match="The evening is over"):
        ACTIONS[action](organiser, event, rows)
    assert register_of(event) == before


@pytest.mark.parametrize("phase", OVER)
def test_the_door_and_the_player_cannot_either(played, phase):
    event, rows = played
    Event.objects.filter(pk=event.pk).update(phase=phase)
    absent = rows["absent"].player.user
    before = register_of(event)
    with pytest.raises(Conflict, match="The evening is over"):
        arrival_services.self_check_in(actor=absent, event=event, door_code=event.door_code)
    with pytest.raises(Conflict):
        registration_services.cancel_registration(actor=absent, registration=rows["absent"])
    assert register_of(event) == before


def test_while_the_evening_runs_the_door_still_takes_late_arrivals(played, organiser):
    event, rows = played
    Event.objects.filter(pk=event.pk).update(phase=Event.Phase.IN_PROGRESS)
    arrival_services.check_in(actor=organiser, registration=rows["absent"])
    arrival_services.add_walk_in(actor=organiser, event=event, display_name="Late Larry")
    assert Registration.objects.filter(event=event, status=Status.CHECKED_IN).count() == 3


@pytest.mark.parametrize("method, url", [
    ("post", "/api/registrations/{absent}/check-in/"), ("post", "/api/registrations/{absent}/no-show/"),
    ("post", "/api/registrations/{came}/cancel/"), ("post", "/api/events/{event}/no-shows/"),
])
def test_the_api_answers_409_and_the_schema_says_so(api, played, organiser, method, url):
    event, rows = played
    Event.objects.filter(pk=event.pk).update(phase=Event.Phase.RESULTS_PUBLISHED)
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}")
    before = register_of(event)
    path = url.format(event=event.pk, absent=rows["absent"].pk, came=rows["came"].pk)
    response = getattr(api, method)(path)
    assert response.status_code == 409, response.content
    assert "The evening is over" in response.json()["detail"]
    assert register_of(event) == before
    schema = api.get("/api/schema/?format=json").json()
    key = url.replace("{event}", "{event_id}").replace("{absent}", "{registration_id}").replace("{came}", "{registration_id}")
    assert "409" in schema["paths"][key][method]["responses"], key


def test_the_console_shows_a_played_evening_without_the_doors_buttons(client, played, organiser):
    event, _rows = played
    client.force_login(organiser)
    url = f"/console/events/{event.pk}/"
    running = client.get(url).content.decode()
    assert "walk-in" in running.lower() and "/no-show/" in running and "/cancel/" in running
    Event.objects.filter(pk=event.pk).update(phase=Event.Phase.RESULTS_PUBLISHED)
    over = client.get(url).content.decode()
    assert "came" in over and "absent" in over  # the list is still there, to read
    for control in ("/check-in/", "/no-show/", "/cancel/", "/walk-in/", "/no-shows/", "/door-code/"):
        assert control not in over, control
    assert "The evening is over" in over


def test_the_players_page_of_a_played_evening_says_they_played_and_offers_no_cancel(client, played):
    event, rows = played
    client.force_login(rows["came"].player.user)
    assert "You are checked in" in client.get(f"/events/{event.pk}/").content.decode()
    Event.objects.filter(pk=event.pk).update(phase=Event.Phase.RESULTS_PUBLISHED)
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "You played in this evening." in page and "You are checked in" not in page
    client.force_login(rows["absent"].player.user)
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "You are registered." in page and f"/events/{event.pk}/cancel/" not in page


def test_a_played_evening_counts_who_played_not_the_places_left(client, played):
    """Before and during the evening its page counts places; once played, the players who came
    (a place count of a past evening reads as if it could still be taken)."""
    event, rows = played
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "2/2</strong> places taken" in page and "1 person on the waitlist" in page
    Event.objects.filter(pk=event.pk).update(phase=Event.Phase.FINISHED)
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "<strong>1</strong> player played" in page
    assert "places taken" not in page and "waitlist" not in page
    assert "Registration is closed." not in page  # no longer news once the evening is played
    client.cookies["django_language"] = "ru"
    assert "Играл <strong>1</strong> игрок" in client.get(f"/events/{event.pk}/").content.decode()


def test_my_events_say_played_for_a_played_evening(client, played):
    event, rows = played
    client.force_login(rows["came"].player.user)
    assert ">checked in" in client.get("/me/").content.decode()
    Event.objects.filter(pk=event.pk).update(phase=Event.Phase.RESULTS_PUBLISHED)
    page = client.get("/me/").content.decode()
    assert ">played" in page and "checked in" not in page
    client.cookies["django_language"] = "uk"
    assert ">вечір зіграно" in client.get("/me/").content.decode()
