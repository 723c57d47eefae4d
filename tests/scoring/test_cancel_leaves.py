"""Cancelling a checked-in player while the evening runs is that player leaving it, as the
Players tab's "Leaves" does: no round after the current one, the rest re-planned; a
waiting round is seated again without them. Service, console page and API."""
import pytest

from drive.core.errors import Conflict, Forbidden
from drive.events.services import arrivals as arrival_services
from drive.events.services import registration as registration_services
from drive.events.models import AuditEntry, Registration
from drive.events.signals import player_leaving
from drive.movements.models import Entrant
from drive.scoring.services import evening as ev
from drive.scoring.receivers import player_left
from drive.scoring.selectors.rounds import current_round

from .test_evening import checked_in_event, play_round, round_seats, started

pytestmark = pytest.mark.django_db
Status = Registration.Status


def registration_of(entrant):
    return Registration.objects.get(event=entrant.event, player=entrant.player)


@pytest.fixture
def playing(make_event, organiser, django_capture_on_commit_callbacks):
    """Nine players, round 1 being played."""
    event = started(make_event, organiser, "individual", count=9, django_capture=django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_round(actor=organiser, event=event)
    return event


@pytest.fixture
def between_rounds(playing, organiser, django_capture_on_commit_callbacks):
    """Round 1 played and closed, round 2 seated and not started."""
    with django_capture_on_commit_callbacks(execute=True):
        play_round(playing)
        ev.end_round(actor=organiser, event=playing)
    assert current_round(playing).number == 2
    return playing


def test_cancelling_a_player_of_the_round_in_play_makes_them_leave_after_it(playing, organiser,
                                                                           django_capture_on_commit_callbacks):
    leaver = Entrant.objects.get(event=playing, number=3)
    cancelled = registration_services.cancel_registration(actor=organiser, registration=registration_of(leaver))
    assert cancelled.status == Status.CANCELLED
    leaver.refresh_from_db()
    assert leaver.left_after_round == 1  # they finish the round at their table
    actions = list(AuditEntry.objects.filter(event=playing).values_list("action", flat=True))
    assert "entrant.left" in actions and "registration.cancelled" in actions
    with django_capture_on_commit_callbacks(execute=True):
        play_round(playing)
        ev.end_round(actor=organiser, event=playing)
    assert 3 in {n for n, _, _ in round_seats(playing, 1)}
    second = round_seats(playing, 2)
    assert len(second) == 8 and 3 not in {n for n, _, _ in second}


def test_cancelling_a_player_seated_for_the_next_round_unseats_them(between_rounds, organiser):
    first = round_seats(between_rounds, 1)
    assert 5 in {n for n, table, _ in round_seats(between_rounds, 2) if table}
    leaver = Entrant.objects.get(event=between_rounds, number=5)
    registration_services.cancel_registration(actor=organiser, registration=registration_of(leaver))
    second = round_seats(between_rounds, 2)
    assert len(second) == 8 and 5 not in {n for n, _, _ in second}  # no longer seated at their table
    assert round_seats(between_rounds, 1) == first  # the round played stays as it was
    leaver.refresh_from_db()
    assert leaver.left_after_round == 1


def test_a_checked_in_player_not_playing_yet_is_only_cancelled(playing, organiser):
    late = arrival_services.add_walk_in(actor=organiser, event=playing, display_name="Late Larry")
    assert registration_services.cancel_registration(actor=organiser, registration=late).status == Status.CANCELLED
    assert not Entrant.objects.filter(event=playing, player=late.player).exists()


def test_the_cancellation_is_refused_whole_when_fewer_than_four_would_be_left(make_event, organiser,
                                                                            django_capture_on_commit_callbacks):
    event = checked_in_event(make_event, organiser, 4, rounds=2, hands_per_round=1, movement_kind="individual")
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_evening(actor=organiser, event=event)
    registration = registration_of(Entrant.objects.get(event=event, number=1))
    with pytest.raises(Conflict, match="Fewer than four"):
        registration_services.cancel_registration(actor=organiser, registration=registration)
    registration.refresh_from_db()
    assert registration.status == Status.CHECKED_IN
    assert Entrant.objects.get(event=event, number=1).left_after_round is None


def test_without_the_evening_the_cancellation_points_to_leaves(playing, organiser):
    # the evening's receiver unplugged: nobody hears the signal
    assert player_leaving.disconnect(dispatch_uid="scoring.player_leaving")
    try:
        _cancel_refused(playing, organiser)
    finally:
        player_leaving.connect(player_left, dispatch_uid="scoring.player_leaving")


def _cancel_refused(playing, organiser):
    registration = registration_of(Entrant.objects.get(event=playing, number=2))
    with pytest.raises(Conflict, match="Leaves"):
        registration_services.cancel_registration(actor=organiser, registration=registration)
    assert Registration.objects.get(pk=registration.pk).status == Status.CHECKED_IN


def test_only_an_organiser_cancels_a_player_of_the_evening(playing, make_user):
    entrant = Entrant.objects.get(event=playing, number=2)
    with pytest.raises(Forbidden):
        registration_services.cancel_registration(actor=make_user(), registration=registration_of(entrant))
    entrant.refresh_from_db()
    assert entrant.left_after_round is None


def test_the_player_cannot_cancel_their_own_place_once_checked_in(playing, make_user):
    user = make_user()
    entrant = Entrant.objects.get(event=playing, number=2)
    entrant.player.user = user
    entrant.player.save()
    with pytest.raises(Conflict, match="see the organiser"):
        registration_services.cancel_registration(actor=user, registration=registration_of(entrant))
    entrant.refresh_from_db()
    assert entrant.left_after_round is None


def test_cancel_from_the_console_page(client, between_rounds, organiser, make_user):
    entrant = Entrant.objects.get(event=between_rounds, number=4)
    registration = registration_of(entrant)
    client.force_login(make_user())
    assert client.post(f"/console/registrations/{registration.pk}/cancel/").status_code == 403
    assert Registration.objects.get(pk=registration.pk).status == Status.CHECKED_IN
    client.force_login(organiser)
    page = client.get(f"/console/events/{between_rounds.pk}/").content.decode()
    assert "This player leaves the evening: no further rounds for them, and the registration is cancelled?" in page
    answer = client.post(f"/console/registrations/{registration.pk}/cancel/", HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert (f"{entrant.player.display_name} leaves the evening: no further round for them, and the registration "
            "is cancelled.") in answer.content.decode()
    entrant.refresh_from_db()
    assert entrant.left_after_round == 1 and 4 not in {n for n, _, _ in round_seats(between_rounds, 2)}


def test_cancel_through_the_api(api, between_rounds, organiser, make_user):
    entrant = Entrant.objects.get(event=between_rounds, number=6)
    registration = registration_of(entrant)
    api.force_authenticate(make_user())
    assert api.post(f"/api/registrations/{registration.pk}/cancel/").status_code == 403
    api.force_authenticate(organiser)
    answer = api.post(f"/api/registrations/{registration.pk}/cancel/")
    assert answer.status_code == 200 and answer.json()["status"] == "cancelled"
    entrant.refresh_from_db()
    assert entrant.left_after_round == 1 and 6 not in {n for n, _, _ in round_seats(between_rounds, 2)}
    again = api.post(f"/api/registrations/{registration.pk}/cancel/")
    assert again.status_code == 200 and again.json()["status"] == "cancelled"


def test_the_api_refuses_with_409_when_fewer_than_four_would_be_left(api, make_event, organiser,
                                                                     django_capture_on_commit_callbacks):
    event = checked_in_event(make_event, organiser, 4, rounds=2, hands_per_round=1, movement_kind="individual")
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_evening(actor=organiser, event=event)
    registration = registration_of(Entrant.objects.get(event=event, number=2))
    api.force_authenticate(organiser)
    answer = api.post(f"/api/registrations/{registration.pk}/cancel/")
    assert answer.status_code == 409 and "Fewer than four players" in answer.json()["detail"]
    assert Registration.objects.get(pk=registration.pk).status == Status.CHECKED_IN
