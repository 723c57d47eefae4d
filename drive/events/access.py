"""Who may do what, and the event a page or endpoint acts on: one place for both.

Every service checks its permission here (views only ask, to show buttons). The lookups
answer 404 when the user may not see the event and 403 when they do not organise it.
"""
from typing import TypeGuard

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from drive.core.accounts import Account, User
from drive.core.errors import Forbidden
from drive.events.models import Club, Event
from drive.events.selectors import events as selectors


def is_organiser(user: User | None, club: Club) -> TypeGuard[Account]:
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return club.organisers.filter(pk=user.pk).exists()


def require_organiser(user: User | None, club: Club) -> Account:
    """The organiser's account acting; Forbidden for anyone else."""
    if not is_organiser(user, club):
        raise Forbidden(_("Only the club's organisers may do this."))
    return user


def may_create_club(user: User | None) -> TypeGuard[Account]:
    """The admin's rule, the only page that makes clubs: an active staff account with the
    add-club permission (a superuser has every permission)."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_active and user.is_staff and user.has_perm("events.add_club")


def require_club_creator(user: User | None) -> Account:
    if not may_create_club(user):
        raise Forbidden(_("Only site staff allowed to add clubs may create one."))
    return user


def require_login(user: User | None) -> Account:
    """The signed-in account acting; Forbidden for the anonymous visitor."""
    if user is None or not user.is_authenticated:
        raise Forbidden(_("Please log in first."))
    return user


def any_event(event_id: int) -> Event:
    """The event by its id (404 if there is none), for pages whose own check follows: the
    player's entry in it, or the permission its service checks."""
    return get_object_or_404(Event.objects.select_related("club"), pk=event_id)


def visible_event(user: User, event_id: int, *, with_places: bool = False) -> Event:
    """The event if the user may see it (published, or their club's); 404 otherwise."""
    events = selectors.visible_events(user).select_related("club")
    if with_places:
        events = selectors.events_with_places(events)
    return get_object_or_404(events, pk=event_id)


def organised_event(user: User, event_id: int, *, with_places: bool = False) -> Event:
    event = visible_event(user, event_id, with_places=with_places)
    require_organiser(user, event.club)
    return event
