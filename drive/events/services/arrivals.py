"""The night: check-in by the organiser or at the door, walk-ins, no-shows, and the
fixed table of a player who should not move."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from drive.core import broadcast
from drive.core.errors import Conflict, Invalid, NotFound
from drive.core.names import clean_name
from drive.core.accounts import User
from drive.events.access import require_login, require_organiser
from drive.events.models import Event, Player, Registration
from drive.events.selectors import events as selectors
from drive.events.services.audit import log_action, snapshot
from drive.events.services.events import locked_event, require_register_open
from drive.events.services.registration import renumber_waitlist

Status = Registration.Status


def _registration_for_organiser(actor: User, registration: Registration) -> Registration:
    """The registration re-read under its event's lock, once the actor is known to organise it."""
    registration = Registration.objects.select_related("event__club").get(pk=registration.pk)
    require_organiser(actor, registration.event.club)
    event = locked_event(event_id=registration.event_id)
    registration.refresh_from_db()
    registration.event = event  # the phase and capacity as read under the lock
    return registration


@transaction.atomic
def check_in(*, actor: User, registration: Registration) -> Registration:
    """The organiser marks a player arrived (also from the waitlist or a no-show)."""
    registration = _registration_for_organiser(actor, registration)
    require_register_open(event=registration.event)
    if registration.status == Status.CHECKED_IN:
        return registration
    if registration.status == Status.CANCELLED:
        raise Conflict(_("This registration was cancelled; register the player again first."))
    before = snapshot(obj=registration, fields=["status"])
    _mark_arrived(registration)
    renumber_waitlist(event=registration.event)
    log_action(actor=actor, event=registration.event, action="registration.checked_in", before=before,
               after=snapshot(obj=registration, fields=["status"]), obj=registration)
    return registration


def _mark_arrived(registration: Registration) -> None:
    registration.status, registration.waitlist_position = Status.CHECKED_IN, None
    registration.checked_in_at = timezone.now()
    registration.save(update_fields=["status", "waitlist_position", "checked_in_at", "updated_at"])
    broadcast.publish(registration.event_id, broadcast.Change.ARRIVALS)


@transaction.atomic
def self_check_in(*, actor: User, event: Event, door_code: str) -> tuple[Registration, bool]:
    """Scanning the door code marks the actor arrived. Returns (registration, already)."""
    account = require_login(actor)
    event = locked_event(event_id=event.pk)
    if door_code != event.door_code:
        raise NotFound(_("This door code is not valid for this event."))
    require_register_open(event=event)
    # now + hours < start, not now < start - hours: an event dated in year 1 must not overflow.
    if timezone.now() + timedelta(hours=settings.CHECKIN_OPENS_HOURS_BEFORE) < event.starts_at:
        hours = settings.CHECKIN_OPENS_HOURS_BEFORE
        raise Conflict(ngettext("Check-in opens %(hours)s hour before the start.",
                                "Check-in opens %(hours)s hours before the start.", hours) % {"hours": hours})
    player = Player.objects.filter(user=account).first()
    registration = player and event.registrations.filter(player=player).first()
    if not registration or registration.status == Status.CANCELLED:
        raise Conflict(_("You are not registered for this event: please see the organiser."))
    if registration.status == Status.CHECKED_IN:
        return registration, True
    if registration.status == Status.WAITLISTED:
        raise Conflict(_("You are on the waitlist: please see the organiser."))
    _mark_arrived(registration)
    return registration, False


@transaction.atomic
def add_walk_in(*, actor: User, event: Event, display_name: str = "", category: str = "",
                player: Player | None = None) -> Registration:
    """A player who turns up unregistered, added and checked in at once: by name (a new
    player record), or `player`, one of the club's players found by name at the door, so
    that this evening is theirs with the ones before (the seasons count them together).

    The organiser can see the room, so a walk-in may take the event over capacity.
    """
    require_organiser(actor, event.club)
    event = locked_event(event_id=event.pk)
    require_register_open(event=event)
    if category not in Player.Category.values:
        raise Invalid(_("Unknown category."), field="category")
    if player is not None:
        return _walk_in_known(actor, event, player, category)
    if not (display_name or "").strip():
        raise Invalid(_("Enter the player's name."), field="display_name")
    name = clean_name(display_name, field="display_name")
    if len(name) > 80:
        raise Invalid(_("A name is at most 80 characters."), field="display_name")
    player = Player.objects.create(display_name=name, club=event.club, category=category)
    now = timezone.now()
    registration = Registration.objects.create(
        event=event, player=player, status=Status.CHECKED_IN, walk_in=True, registered_at=now, checked_in_at=now
    )
    log_action(actor=actor, event=event, action="registration.walk_in_added",
               after={"display_name": name, "category": category, "status": registration.status}, obj=registration)
    broadcast.publish(event.pk, broadcast.Change.ARRIVALS)
    return registration


def _walk_in_known(actor: User, event: Event, player: Player, category: str) -> Registration:
    """The walk-in is a player the club knows: their own record checked in (a registration
    they had for the evening, cancelled or not, is the one checked in)."""
    locked = Player.objects.select_for_update().filter(pk=player.pk).first()
    if locked is None or not selectors.is_club_player(locked, event.club):
        raise Invalid(_("Choose one of the club's players."), field="player")
    player = locked  # the row as it is now, locked
    registration = event.registrations.filter(player=player).first()
    if registration is not None and registration.status == Status.CHECKED_IN:
        raise Conflict(_("%(name)s is checked in already.") % {"name": player.display_name})
    before = snapshot(obj=registration, fields=["status"]) if registration is not None else None
    if category and not player.category:  # told at the door: kept for the ladies' and gents' prizes
        player.category = category
        player.save(update_fields=["category"])
    if registration is None:
        now = timezone.now()
        registration = Registration.objects.create(
            event=event, player=player, status=Status.CHECKED_IN, walk_in=True, registered_at=now, checked_in_at=now)
    else:
        registration.cancelled_at = None
        registration.save(update_fields=["cancelled_at", "updated_at"])
        _mark_arrived(registration)
        renumber_waitlist(event=event)
    log_action(actor=actor, event=event, action="registration.walk_in_added", before=before,
               after={"player": player.pk, "display_name": player.display_name, "category": player.category,
                      "status": registration.status}, obj=registration)
    broadcast.publish(event.pk, broadcast.Change.ARRIVALS)
    return registration


@transaction.atomic
def mark_no_show(*, actor: User, registration: Registration) -> Registration:
    registration = _registration_for_organiser(actor, registration)
    require_register_open(event=registration.event)
    if registration.status == Status.NO_SHOW:
        return registration
    if registration.status != Status.REGISTERED:
        raise Conflict(_("Only a registered player who has not arrived can be marked a no-show."))
    registration.status = Status.NO_SHOW
    registration.save(update_fields=["status", "updated_at"])
    log_action(actor=actor, event=registration.event, action="registration.no_show",
               before={"status": Status.REGISTERED}, after={"status": Status.NO_SHOW}, obj=registration)
    broadcast.publish(registration.event_id, broadcast.Change.ARRIVALS)
    return registration


def table_count(*, event: Event) -> int:
    """The tables the event can have: a full house of four a table."""
    return max(event.capacity // 4, 1)


@transaction.atomic
def set_fixed_table(*, actor: User, registration: Registration, table: int | None) -> Registration:
    """Keep a player who should not move (mobility) at table `table` all evening; None clears it.

    The start of the evening copies it into the movement, so it can change only before
    then; the event's lock orders it against that start.
    """
    registration = _registration_for_organiser(actor, registration)
    event = registration.event
    if event.phase != Event.Phase.REGISTRATION:
        raise Conflict(_("The evening has started and its movement is set: a fixed table can no longer change."))
    if registration.status == Status.CANCELLED:
        raise Conflict(_("This registration was cancelled; register the player again first."))
    tables = table_count(event=event)
    if table is not None and (type(table) is not int or not 1 <= table <= tables):
        raise Invalid(_("Give a table number from 1 to %(count)s, or none to clear it.") % {"count": tables},
                      field="table")
    taken = (event.registrations.filter(fixed_table=table).exclude(pk=registration.pk)
             .exclude(status=Status.CANCELLED).select_related("player").first() if table else None)
    if taken is not None:  # two who stay put at one table would meet every round
        raise Invalid(_("Table %(n)s is already fixed for %(name)s.") % {"n": table, "name": taken.player.display_name},
                      field="table")
    before = snapshot(obj=registration, fields=["fixed_table"])
    registration.fixed_table = table
    registration.save(update_fields=["fixed_table", "updated_at"])
    log_action(actor=actor, event=event, action="registration.fixed_table_set", before=before,
               after={"fixed_table": table}, obj=registration)
    broadcast.publish(event.pk, broadcast.Change.REGISTRATIONS)
    return registration


@transaction.atomic
def mark_absent_as_no_shows(*, actor: User, event: Event) -> int:
    """Everyone registered but not arrived becomes a no-show; returns how many."""
    require_organiser(actor, event.club)
    require_register_open(event=locked_event(event_id=event.pk))
    absent = event.registrations.filter(status=Status.REGISTERED)
    ids = list(absent.values_list("pk", flat=True))
    count = absent.update(status=Status.NO_SHOW, updated_at=timezone.now())
    log_action(actor=actor, event=event, action="registration.absent_no_shows",
               before={"status": Status.REGISTERED, "registrations": ids},
               after={"status": Status.NO_SHOW, "count": count})
    broadcast.publish(event.pk, broadcast.Change.ARRIVALS)
    return count
