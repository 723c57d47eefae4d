"""Registration, waitlist, check-in and their permissions, at the service layer."""
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core import mail
from django.utils import timezone

from drive.core.errors import Conflict, Forbidden, Invalid, NotFound
from drive.events.services import events as services
from drive.events.selectors import events as event_selectors
from drive.events.services import accounts as account_services
from drive.events.services import arrivals as arrival_services
from drive.events.services import registration as registration_services
from drive.events.models import Event, Player, Registration
from drive.movements.models import Entrant

Status = Registration.Status
pytestmark = pytest.mark.django_db


def register_many(event, make_user, count):
    return [registration_services.register(actor=make_user(), event=event) for _ in range(count)]


def test_registrations_beyond_capacity_join_the_waitlist_in_order(make_event, make_user):
    event = make_event(capacity=4)
    regs = register_many(event, make_user, 6)
    assert [r.status for r in regs] == [Status.REGISTERED] * 4 + [Status.WAITLISTED] * 2
    assert [r.waitlist_position for r in regs[4:]] == [1, 2]


def test_registering_twice_changes_nothing(event, make_user):
    user = make_user()
    first = registration_services.register(actor=user, event=event)
    again = registration_services.register(actor=user, event=event)
    assert first.pk == again.pk and again.status == Status.REGISTERED
    assert event.registrations.count() == 1


def test_cancellation_promotes_first_on_waitlist_and_emails_them(make_event, make_user, django_capture_on_commit_callbacks):
    event = make_event(capacity=2)
    regs = register_many(event, make_user, 4)
    with django_capture_on_commit_callbacks(execute=True):
        registration_services.cancel_registration(actor=regs[0].player.user, registration=regs[0])
    statuses = {r.pk: r.status for r in Registration.objects.filter(event=event)}
    assert statuses[regs[2].pk] == Status.REGISTERED  # first on the waitlist
    assert statuses[regs[3].pk] == Status.WAITLISTED
    assert Registration.objects.get(pk=regs[3].pk).waitlist_position == 1  # moved up
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [regs[2].player.user.email]


def test_promotion_and_notification_are_idempotent(make_event, make_user):
    event = make_event(capacity=1)
    regs = register_many(event, make_user, 3)
    Registration.objects.filter(pk=regs[0].pk).update(status=Status.CANCELLED)
    assert registration_services.fill_places_from_waitlist(event_id=event.pk) == [regs[1].pk]
    assert registration_services.fill_places_from_waitlist(event_id=event.pk) == []
    assert registration_services.notify_promoted(registration_id=regs[1].pk) is True
    assert registration_services.notify_promoted(registration_id=regs[1].pk) is False
    assert len(mail.outbox) == 1


def test_cancelling_a_waitlisted_place_promotes_nobody(make_event, make_user, django_capture_on_commit_callbacks):
    event = make_event(capacity=1)
    regs = register_many(event, make_user, 3)
    with django_capture_on_commit_callbacks(execute=True):
        registration_services.cancel_registration(actor=regs[1].player.user, registration=regs[1])
    assert Registration.objects.get(pk=regs[2].pk).status == Status.WAITLISTED
    assert Registration.objects.get(pk=regs[2].pk).waitlist_position == 1


def test_raising_capacity_promotes_from_waitlist(make_event, make_user, organiser, django_capture_on_commit_callbacks):
    event = make_event(capacity=1)
    regs = register_many(event, make_user, 3)
    with django_capture_on_commit_callbacks(execute=True):
        services.update_event(actor=organiser, event=event, capacity=4)
    assert set(Registration.objects.filter(event=event).values_list("status", flat=True)) == {Status.REGISTERED}
    assert len(regs) == 3


def test_cancelled_player_can_register_again_at_the_end(make_event, make_user):
    event = make_event(capacity=1)
    a, b = make_user(), make_user()
    first = registration_services.register(actor=a, event=event)
    registration_services.register(actor=b, event=event)
    registration_services.cancel_registration(actor=a, registration=first)
    again = registration_services.register(actor=a, event=event)
    assert again.pk == first.pk and again.status == Status.WAITLISTED  # b was not promoted (eager task not run)


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"published": False}, "not published"),
        ({"registration_opens_at": timezone.now() + timedelta(days=1)}, "not opened"),
        ({"registration_closes_at": timezone.now() - timedelta(minutes=1)}, "closed"),
        ({"starts_at": timezone.now() - timedelta(minutes=1)}, "closed"),
    ],
)
def test_registration_refused_outside_its_window(make_event, make_user, fields, message):
    event = make_event(**fields)
    with pytest.raises(Conflict, match=message):
        registration_services.register(actor=make_user(), event=event)


def test_anonymous_cannot_register(event):
    with pytest.raises(Forbidden):
        registration_services.register(actor=AnonymousUser(), event=event)


def test_player_cannot_cancel_someone_elses_registration(event, make_user):
    registration = registration_services.register(actor=make_user(), event=event)
    with pytest.raises(Forbidden):
        registration_services.cancel_registration(actor=make_user(), registration=registration)


def test_organiser_can_cancel_anyones_registration(event, make_user, organiser):
    registration = registration_services.register(actor=make_user(), event=event)
    assert registration_services.cancel_registration(actor=organiser, registration=registration).status == Status.CANCELLED


def test_only_organisers_create_and_edit_events(club, make_user, event, other_club):
    starts = timezone.now() + timedelta(days=3)
    with pytest.raises(Forbidden):
        services.create_event(actor=make_user(), club=club, title="X", starts_at=starts, capacity=8)
    with pytest.raises(Forbidden):
        services.update_event(actor=make_user(), event=event, capacity=8)
    rival = other_club.organisers.get()
    with pytest.raises(Forbidden):  # organising another club gives no rights here
        services.update_event(actor=rival, event=event, capacity=8)


def test_event_validation_names_the_field(club, organiser):
    starts = timezone.now() + timedelta(days=3)
    with pytest.raises(Invalid) as err:
        services.create_event(actor=organiser, club=club, title="X", starts_at=starts, capacity=2)
    assert err.value.field == "capacity"
    with pytest.raises(Invalid) as err:
        services.create_event(actor=organiser, club=club, title="X", starts_at=starts, capacity=8,
                              registration_closes_at=starts + timedelta(hours=1))
    assert err.value.field == "registration_closes_at"


def test_organiser_checks_in_and_marks_no_shows(event, make_user, organiser):
    a = registration_services.register(actor=make_user(), event=event)
    b = registration_services.register(actor=make_user(), event=event)
    assert arrival_services.check_in(actor=organiser, registration=a).status == Status.CHECKED_IN
    assert arrival_services.check_in(actor=organiser, registration=a).status == Status.CHECKED_IN  # one click twice is fine
    assert arrival_services.mark_absent_as_no_shows(actor=organiser, event=event) == 1
    assert Registration.objects.get(pk=b.pk).status == Status.NO_SHOW
    assert arrival_services.check_in(actor=organiser, registration=b).status == Status.CHECKED_IN  # late after all


def test_players_cannot_check_in_or_mark_no_shows(event, make_user):
    registration = registration_services.register(actor=make_user(), event=event)
    stranger = make_user()
    for action in (arrival_services.check_in, arrival_services.mark_no_show):
        with pytest.raises(Forbidden):
            action(actor=stranger, registration=registration)
    with pytest.raises(Forbidden):
        arrival_services.mark_absent_as_no_shows(actor=stranger, event=event)
    with pytest.raises(Forbidden):
        arrival_services.add_walk_in(actor=stranger, event=event, display_name="Sneaky")


def test_self_check_in_with_door_code_and_repeat_scan(make_event, make_user):
    event = make_event(starts_at=timezone.now() + timedelta(hours=1))
    user = make_user()
    registration_services.register(actor=user, event=event)
    registration, already = arrival_services.self_check_in(actor=user, event=event, door_code=event.door_code)
    assert registration.status == Status.CHECKED_IN and not already
    _, already = arrival_services.self_check_in(actor=user, event=event, door_code=event.door_code)
    assert already


def test_self_check_in_refusals(make_event, make_user):
    soon = make_event(starts_at=timezone.now() + timedelta(hours=1), capacity=4)
    with pytest.raises(NotFound):
        arrival_services.self_check_in(actor=make_user(), event=soon, door_code="wrong")
    with pytest.raises(Conflict, match="not registered"):
        arrival_services.self_check_in(actor=make_user(), event=soon, door_code=soon.door_code)
    far = make_event(title="Later", starts_at=timezone.now() + timedelta(days=2))
    user = make_user()
    registration_services.register(actor=user, event=far)
    with pytest.raises(Conflict, match="opens"):
        arrival_services.self_check_in(actor=user, event=far, door_code=far.door_code)


def test_walk_in_is_added_by_name_and_checked_in(make_event, organiser):
    event = make_event(capacity=4)
    registration = arrival_services.add_walk_in(actor=organiser, event=event, display_name="  Vera  ")
    assert registration.walk_in and registration.status == Status.CHECKED_IN
    assert registration.player.display_name == "Vera" and registration.player.user is None
    with pytest.raises(Invalid) as err:
        arrival_services.add_walk_in(actor=organiser, event=event, display_name="   ")
    assert err.value.field == "display_name"


def test_player_cannot_cancel_after_check_in(make_event, make_user, organiser):
    event = make_event()
    user = make_user()
    registration = registration_services.register(actor=user, event=event)
    arrival_services.check_in(actor=organiser, registration=registration)
    with pytest.raises(Conflict):
        registration_services.cancel_registration(actor=user, registration=registration)


def test_promotion_email_is_in_the_players_language(make_event, make_user):
    event = make_event(capacity=1)
    registration_services.register(actor=make_user(), event=event)
    user = account_services.sign_up(username="olena", password="pw-Whist-2026", email="o@example.org", display_name="Олена", language="uk")
    waiting = registration_services.register(actor=user, event=event)
    Registration.objects.filter(event=event).exclude(pk=waiting.pk).update(status=Status.CANCELLED)
    registration_services.fill_places_from_waitlist(event_id=event.pk)
    assert registration_services.notify_promoted(registration_id=waiting.pk)
    assert mail.outbox[0].subject == f"Для вас є місце: {event.title}"


def test_event_list_splits_upcoming_from_past(client, make_event):
    make_event(title="Last spring", starts_at=timezone.now() - timedelta(days=200))
    make_event(title="Tonight", starts_at=timezone.now() - timedelta(hours=1))
    make_event(title="Next week")
    page = client.get("/").content.decode()
    assert page.index("Tonight") < page.index("Next week") < page.index("Past events") < page.index("Last spring")


def test_the_event_list_marks_an_evening_under_way_and_links_its_standings(client, make_event):
    tonight = make_event(title="Tonight", starts_at=timezone.now() - timedelta(hours=1))
    make_event(title="Next week")
    page = client.get("/").content.decode()
    assert 'class="tag live"' not in page and "/standings/" not in page
    Event.objects.filter(pk=tonight.pk).update(phase=Event.Phase.IN_PROGRESS)
    page = client.get("/").content.decode()
    assert page.count('class="tag live"') == 1 and page.count("/standings/") == 1
    assert f'<a href="/events/{tonight.pk}/standings/">Standings</a>' in page
    client.cookies["django_language"] = "ru"
    assert '<span class="tag live">идёт игра</span>' in client.get("/").content.decode()


def test_publish_and_close_registration_are_organiser_moves(make_event, organiser, make_user):
    event = make_event(published=False)
    assert event_selectors.event_status(event) == "draft"
    with pytest.raises(Forbidden):
        services.open_registration(actor=make_user(), event=event)
    event = services.open_registration(actor=organiser, event=event)
    assert event_selectors.event_status(event) == "registration_open"
    with pytest.raises(Forbidden):
        services.close_registration(actor=make_user(), event=event)
    event = services.close_registration(actor=organiser, event=event)
    assert event_selectors.event_status(event) == "registration_closed"
    with pytest.raises(Conflict):
        services.close_registration(actor=organiser, event=event)
    with pytest.raises(Conflict):
        registration_services.register(actor=make_user(), event=event)


def test_event_page_links_a_player_to_their_evening(client, make_event, make_user):
    event = make_event(phase=Event.Phase.IN_PROGRESS)
    user = make_user()
    Entrant.objects.create(event=event, player=Player.objects.create(user=user, display_name="Vera"), number=1)
    client.force_login(user)
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert f"/events/{event.pk}/my-evening/" in page and f"/events/{event.pk}/standings/" in page
    client.force_login(make_user())
    assert f"/events/{event.pk}/my-evening/" not in client.get(f"/events/{event.pk}/").content.decode()
