"""A fixed table for a player who should not move (mobility): the service, the console and
the API; it reaches the movement when the evening starts."""
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token

from drive.core.errors import Conflict, Forbidden, Invalid
from drive.events.services import arrivals as arrival_services
from drive.events.services import registration as registration_services
from drive.events.models import Event, Registration
from drive.movements.models import Entrant
from drive.scoring.services import evening

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def registration(event, make_user):
    return registration_services.register(actor=make_user(), event=event)  # capacity 32: 8 tables


def fixed_table(registration):
    return Registration.objects.get(pk=registration.pk).fixed_table


# --- the service -----------------------------------------------------------------------------


def test_organiser_sets_and_clears_a_fixed_table(registration, organiser, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as announced:
        saved = arrival_services.set_fixed_table(actor=organiser, registration=registration, table=3)
    assert saved.fixed_table == 3 and fixed_table(registration) == 3
    assert len(announced) == 1  # the "registrations" event for the other consoles
    arrival_services.set_fixed_table(actor=organiser, registration=registration, table=None)
    assert fixed_table(registration) is None


def test_a_walk_in_can_have_one(event, organiser):
    walk_in = arrival_services.add_walk_in(actor=organiser, event=event, display_name="Edith")
    assert arrival_services.set_fixed_table(actor=organiser, registration=walk_in, table=1).fixed_table == 1


@pytest.mark.parametrize("table", [0, -1, 9, 1000, True, "3", 2.0])
def test_table_must_be_one_the_event_can_have(registration, organiser, table):
    with pytest.raises(Invalid, match="from 1 to 8") as err:
        arrival_services.set_fixed_table(actor=organiser, registration=registration, table=table)
    assert err.value.field == "table"
    assert fixed_table(registration) is None


def test_the_last_table_is_capacity_over_four_and_a_small_event_has_one(make_event, make_user, organiser):
    registration = registration_services.register(actor=make_user(), event=make_event(capacity=11))
    assert arrival_services.set_fixed_table(actor=organiser, registration=registration, table=2).fixed_table == 2
    with pytest.raises(Invalid, match="from 1 to 2"):
        arrival_services.set_fixed_table(actor=organiser, registration=registration, table=3)
    tiny = registration_services.register(actor=make_user(), event=make_event(capacity=4, title="Tiny"))
    assert arrival_services.set_fixed_table(actor=organiser, registration=tiny, table=1).fixed_table == 1


@pytest.mark.parametrize("who", ["anonymous", "player", "the player themself", "other club's organiser"])
def test_only_the_clubs_organisers_may_set_it(registration, make_user, other_club, who):
    Registration.objects.filter(pk=registration.pk).update(fixed_table=2)
    actor = {
        "anonymous": lambda: AnonymousUser(),
        "player": lambda: make_user(),
        "the player themself": lambda: registration.player.user,
        "other club's organiser": lambda: other_club.organisers.get(),
    }[who]()
    for table in (5, None):
        with pytest.raises(Forbidden):
            arrival_services.set_fixed_table(actor=actor, registration=registration, table=table)
    assert fixed_table(registration) == 2


@pytest.mark.parametrize("phase", [Event.Phase.IN_PROGRESS, Event.Phase.FINISHED, Event.Phase.RESULTS_PUBLISHED])
def test_refused_once_the_evening_has_started(event, registration, organiser, phase):
    Event.objects.filter(pk=event.pk).update(phase=phase)
    with pytest.raises(Conflict, match="started"):
        arrival_services.set_fixed_table(actor=organiser, registration=registration, table=2)
    assert fixed_table(registration) is None


def test_refused_for_a_cancelled_registration(registration, organiser):
    registration_services.cancel_registration(actor=organiser, registration=registration)
    with pytest.raises(Conflict, match="cancelled"):
        arrival_services.set_fixed_table(actor=organiser, registration=registration, table=2)
    assert fixed_table(registration) is None


def test_the_fixed_table_reaches_the_movement_when_the_evening_starts(make_event, organiser,
                                                                        django_capture_on_commit_callbacks):
    event = make_event(starts_at=timezone.now() + timedelta(minutes=10), rounds=2, movement_kind="individual")
    walk_ins = [arrival_services.add_walk_in(actor=organiser, event=event, display_name=f"Player {i}") for i in range(8)]
    arrival_services.set_fixed_table(actor=organiser, registration=walk_ins[0], table=2)
    with django_capture_on_commit_callbacks(execute=True):
        evening.start_evening(actor=organiser, event=event)
    pinned = dict(Entrant.objects.filter(event=event).values_list("player_id", "pinned_table"))
    assert pinned[walk_ins[0].player_id] == 2
    assert [t for p, t in pinned.items() if p != walk_ins[0].player_id] == [None] * 7
    with pytest.raises(Conflict):  # the movement has it now
        arrival_services.set_fixed_table(actor=organiser, registration=walk_ins[0], table=1)


# --- the console -----------------------------------------------------------------------------


def console_post(client, registration, table):
    return client.post(reverse("console-fixed-table", args=[registration.pk]), {"table": table}, **HX)


def test_organiser_sets_it_from_the_console_and_the_list_shows_it(client, organiser, registration):
    client.force_login(organiser)
    response = console_post(client, registration, "3")
    html = response.content.decode()
    assert response.status_code == 200 and html.startswith('<div id="registrations"')
    assert "table 3 (fixed)" in html and "keeps table 3 all evening" in html
    assert fixed_table(registration) == 3
    html = console_post(client, registration, "").content.decode()  # empty clears it
    assert fixed_table(registration) is None and "(fixed)" not in html and "moves with the others" in html


@pytest.mark.parametrize("table, message", [("0", "from 1 to 8"), ("9", "from 1 to 8"), ("abc", "whole number")])
def test_console_shows_a_refusal_as_a_message(client, organiser, registration, table, message):
    client.force_login(organiser)
    response = console_post(client, registration, table)
    assert response.status_code == 200 and 'class="error"' in response.content.decode()
    assert message in response.content.decode()
    assert fixed_table(registration) is None


def test_console_form_only_before_the_start(client, organiser, event, registration):
    client.force_login(organiser)
    page = client.get(reverse("console-event", args=[event.pk])).content.decode()
    assert reverse("console-fixed-table", args=[registration.pk]) in page
    Registration.objects.filter(pk=registration.pk).update(fixed_table=4)
    Event.objects.filter(pk=event.pk).update(phase=Event.Phase.IN_PROGRESS)
    page = client.get(reverse("console-event", args=[event.pk])).content.decode()
    assert reverse("console-fixed-table", args=[registration.pk]) not in page
    assert "table 4 (fixed)" in page  # still shown
    html = console_post(client, registration, "2").content.decode()
    assert "started" in html and fixed_table(registration) == 4


def test_a_non_organiser_gets_403_from_the_console(client, make_user, other_club, registration):
    for user in (make_user(), registration.player.user, other_club.organisers.get()):
        client.force_login(user)
        assert console_post(client, registration, "2").status_code == 403
    client.logout()
    assert console_post(client, registration, "2").status_code == 302  # to the login page
    assert fixed_table(registration) is None


# --- the API ---------------------------------------------------------------------------------


def login(api, user):
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return api


def api_post(api, registration_id, body):
    return api.post(f"/api/registrations/{registration_id}/fixed-table/", body, format="json")


def test_api_sets_and_clears(api, organiser, registration):
    login(api, organiser)
    response = api_post(api, registration.pk, {"table": 8})
    assert response.status_code == 200
    assert response.json()["id"] == registration.pk and response.json()["fixed_table"] == 8
    response = api_post(api, registration.pk, {"table": None})
    assert response.status_code == 200 and response.json()["fixed_table"] is None
    listing = api.get(f"/api/events/{registration.event_id}/registrations/").json()
    assert listing[0]["fixed_table"] is None


@pytest.mark.parametrize("body", [{"table": 0}, {"table": 9}, {"table": "abc"}, {"table": True}, {}])
def test_api_bad_table_is_400_with_a_field_message(api, organiser, registration, body):
    login(api, organiser)
    response = api_post(api, registration.pk, body)
    assert response.status_code == 400
    assert list(response.json()) == ["table"] and response.json()["table"][0]
    assert fixed_table(registration) is None


def test_api_permissions_and_missing(api, make_user, other_club, organiser, registration):
    assert api_post(api, registration.pk, {"table": 2}).status_code == 403  # anonymous
    for user in (make_user(), registration.player.user, other_club.organisers.get()):
        login(api, user)
        assert api_post(api, registration.pk, {"table": 2}).status_code == 403
        assert api_post(api, registration.pk, {"table": "abc"}).status_code == 403  # refused before the body is read
    assert fixed_table(registration) is None
    login(api, organiser)
    assert api_post(api, 999999, {"table": 2}).status_code == 404


def test_api_conflicts(api, organiser, event, registration):
    login(api, organiser)
    registration_services.cancel_registration(actor=organiser, registration=registration)
    response = api_post(api, registration.pk, {"table": 2})
    assert response.status_code == 409 and response.json()["code"] == "conflict"
    other = arrival_services.add_walk_in(actor=organiser, event=event, display_name="Edith")
    Event.objects.filter(pk=event.pk).update(phase=Event.Phase.IN_PROGRESS)
    response = api_post(api, other.pk, {"table": 2})
    assert response.status_code == 409 and "started" in response.json()["detail"]


def test_one_fixed_player_a_table(event, organiser, make_user):
    """Two who stay put at one table would meet every round: the second is refused, unless
    the first was cancelled."""
    first = registration_services.register(actor=make_user(), event=event)
    second = registration_services.register(actor=make_user(), event=event)
    arrival_services.set_fixed_table(actor=organiser, registration=first, table=2)
    with pytest.raises(Invalid, match="already fixed for") as err:
        arrival_services.set_fixed_table(actor=organiser, registration=second, table=2)
    assert err.value.field == "table" and fixed_table(second) is None
    arrival_services.set_fixed_table(actor=organiser, registration=first, table=2)  # the same again is fine
    registration_services.cancel_registration(actor=organiser, registration=first)
    assert arrival_services.set_fixed_table(actor=organiser, registration=second, table=2).fixed_table == 2
