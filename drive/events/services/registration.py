"""Registration: a place while there is one, else the waitlist; cancelling; the waitlist
filled in order as places free up (a Celery task, safe to run twice); the promoted told by email."""
from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Max
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from drive.core import broadcast
from drive.core.errors import Conflict, Forbidden
from drive.core.accounts import User
from drive.events.access import is_organiser, require_login
from drive.events.models import Event, Registration
from drive.events.selectors.events import registration_state
from drive.events.services.accounts import player_for_user
from drive.events.services.audit import log_action, snapshot
from drive.events.services.events import enqueue_promotion, locked_event, require_register_open
from drive.events.signals import player_leaving

Status = Registration.Status


def _places_taken(event: Event) -> int:
    return event.registrations.filter(status__in=Registration.HOLDS_PLACE).count()


def _next_waitlist_position(event: Event) -> int:
    top = event.registrations.filter(status=Status.WAITLISTED).aggregate(top=Max("waitlist_position"))["top"]
    return (top or 0) + 1


def register(*, actor: User, event: Event) -> Registration:
    """Register the actor: a place if one is free, else the end of the waitlist.

    Registering again while registered or waitlisted changes nothing (idempotent).
    """
    return register_or_get(actor=actor, event=event)[0]


@transaction.atomic
def register_or_get(*, actor: User, event: Event) -> tuple[Registration, bool]:
    """`register`, saying whether this call registered the actor (True) or found them
    registered or waitlisted already (False). Decided under the event's lock: of two
    requests at the same instant, one registers and the other finds that registration."""
    player = player_for_user(user=actor)
    event = locked_event(event_id=event.pk)
    closed = registration_state(event)
    if closed:
        raise Conflict(closed)
    registration = event.registrations.filter(player=player).first()
    if registration and registration.status != Status.CANCELLED:
        return registration, False
    registration = registration or Registration(event=event, player=player)
    _admit(event, registration)
    registration.registered_at = timezone.now()
    registration.cancelled_at = None
    registration.save()
    broadcast.publish(event.pk, broadcast.Change.REGISTRATIONS)
    return registration, True


def _admit(event: Event, registration: Registration) -> None:
    # A free place goes to the waitlist first (the promotion task fills it), never to a newcomer.
    waiting = event.registrations.filter(status=Status.WAITLISTED).exists()
    if not waiting and _places_taken(event) < event.capacity:
        registration.status, registration.waitlist_position = Status.REGISTERED, None
    else:
        registration.status = Status.WAITLISTED
        registration.waitlist_position = _next_waitlist_position(event)


def _leave_evening(actor: User, event: Event, registration: Registration) -> None:
    # Once the evening has started, its checked-in players are in its movement, which only
    # the evening (scoring, a floor up) can re-plan: it listens for `player_leaving`.
    answers = player_leaving.send(sender=Event, actor=actor, event=event, player_id=registration.player_id)
    if not answers:
        raise Conflict(_("The evening has started and this player is checked in: use “Leaves” on the "
                         "evening's Players tab."))


@transaction.atomic
def cancel_registration(*, actor: User, registration: Registration) -> Registration:
    """A player cancels their own place; an organiser may cancel anyone's.

    A checked-in player cancelled while the evening runs leaves it as a leaver does: no
    round after the current one, the rest of the movement re-planned."""
    require_login(actor)
    event = locked_event(event_id=registration.event_id)
    registration = Registration.objects.select_related("player").get(pk=registration.pk)
    own = registration.player.user_id == actor.pk
    if not own and not is_organiser(actor, event.club):
        raise Forbidden(_("You can only cancel your own registration."))
    if registration.status == Status.CANCELLED:
        return registration
    require_register_open(event=event)
    if own and not is_organiser(actor, event.club):
        if registration.status not in (Status.REGISTERED, Status.WAITLISTED):
            raise Conflict(_("You are already checked in: please see the organiser."))
        if timezone.now() >= event.starts_at:
            raise Conflict(_("The evening has started: please see the organiser."))
    if registration.status == Status.CHECKED_IN and event.phase == Event.Phase.IN_PROGRESS:
        _leave_evening(actor, event, registration)
    held_place = registration.status in Registration.HOLDS_PLACE
    before = snapshot(obj=registration, fields=["status"])
    registration.status, registration.cancelled_at = Status.CANCELLED, timezone.now()
    registration.waitlist_position = None
    registration.save()
    if not own:  # the organiser's write; a player's own cancellation is theirs
        log_action(actor=actor, event=event, action="registration.cancelled", before=before,
                   after=snapshot(obj=registration, fields=["status"]), obj=registration)
    renumber_waitlist(event=event)
    if held_place:
        enqueue_promotion(event_id=event.pk)
    broadcast.publish(event.pk, broadcast.Change.REGISTRATIONS)
    return registration


def renumber_waitlist(*, event: Event) -> None:
    waiting = event.registrations.filter(status=Status.WAITLISTED).order_by("waitlist_position", "id")
    for position, registration in enumerate(waiting, start=1):
        if registration.waitlist_position != position:
            registration.waitlist_position = position
            registration.save(update_fields=["waitlist_position", "updated_at"])


@transaction.atomic
def fill_places_from_waitlist(*, event_id: int) -> list[int]:
    """Move the first of the waitlist into free places; returns the promoted ids.

    Recomputed from the rows each time, so running it twice promotes nobody twice.
    """
    event = locked_event(event_id=event_id)
    free = event.capacity - _places_taken(event)
    if free <= 0 or timezone.now() >= event.starts_at:
        return []
    promoted = list(event.registrations.filter(status=Status.WAITLISTED).order_by("waitlist_position", "id")[:free])
    now = timezone.now()
    for registration in promoted:
        registration.status, registration.waitlist_position, registration.promoted_at = Status.REGISTERED, None, now
        registration.save(update_fields=["status", "waitlist_position", "promoted_at", "updated_at"])
    if promoted:
        renumber_waitlist(event=event)
        broadcast.publish(event.pk, broadcast.Change.REGISTRATIONS)
    return [registration.pk for registration in promoted]


@transaction.atomic
def notify_promoted(*, registration_id: int) -> bool:
    """Tell a promoted player by email that they have a place. Sent once."""
    registration = (
        Registration.objects.select_for_update(of=("self",)).select_related("player__user", "event").get(pk=registration_id)
    )
    user = registration.player.user
    if registration.status != Status.REGISTERED or registration.promotion_notified_at or not (user and user.email):
        return False
    registration.promotion_notified_at = timezone.now()
    registration.save(update_fields=["promotion_notified_at", "updated_at"])
    event = registration.event
    # A worker has no request: write in the player's own language.
    with translation.override(registration.player.language or settings.LANGUAGE_CODE):
        start = date_format(timezone.localtime(event.starts_at), "DATETIME_FORMAT")
        send_mail(
            subject=_("You have a place at %(title)s") % {"title": event.title},
            message=_("A place has become free at %(title)s on %(start)s, and it is yours. See you there!")
            % {"title": event.title, "start": start},
            from_email=settings.DEFAULT_FROM_EMAIL,
            recipient_list=[user.email],
        )
    return True
