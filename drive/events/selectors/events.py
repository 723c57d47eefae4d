"""Reads for pages and the API: no writes, no permission decisions beyond filtering."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import TypedDict

from django.db.models import Case, Count, F, Max, Q, QuerySet, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from drive.core.accounts import User
from drive.events.models import AuditEntry, Club, Event, Player, Registration

Status = Registration.Status
UPCOMING_FOR = timedelta(hours=12)  # after its start, an evening still counts as tonight's


class Places(TypedDict):
    capacity: int
    taken: int
    waitlisted: int
    checked_in: int
    no_show: int


def event_places(event: Event) -> Places:
    """Places taken, capacity, waitlist length and arrivals of one event."""
    counts = event.registrations.aggregate(
        taken=Count("id", filter=Q(status__in=Registration.HOLDS_PLACE)),
        waitlisted=Count("id", filter=Q(status=Status.WAITLISTED)),
        checked_in=Count("id", filter=Q(status=Status.CHECKED_IN)),
        no_show=Count("id", filter=Q(status=Status.NO_SHOW)),
    )
    return {"capacity": event.capacity, "taken": counts["taken"], "waitlisted": counts["waitlisted"],
            "checked_in": counts["checked_in"], "no_show": counts["no_show"]}


def events_with_places(queryset: QuerySet[Event]) -> QuerySet[Event]:
    """The events with their counts, in the queryset's own order or else the model's: Django
    leaves Meta.ordering out of a query that groups for an aggregate, so it is asked for."""
    ordering = queryset.query.order_by or tuple(Event._meta.ordering or ())
    return queryset.select_related("club").annotate(
        taken=Count("registrations", filter=Q(registrations__status__in=Registration.HOLDS_PLACE)),
        waitlisted=Count("registrations", filter=Q(registrations__status=Status.WAITLISTED)),
        checked_in=Count("registrations", filter=Q(registrations__status=Status.CHECKED_IN)),
    ).order_by(*ordering)


def visible_events(user: User) -> QuerySet[Event]:
    """Published events for everyone, plus every event of the clubs the user organises."""
    events = Event.objects.all()
    if user.is_authenticated and user.is_superuser:
        return events
    if user.is_authenticated:
        return events.filter(Q(published=True) | Q(club__organisers=user)).distinct()
    return events.filter(published=True)


def upcoming_and_past(events: QuerySet[Event], now: datetime | None = None,
                      past_limit: int = 10) -> tuple[QuerySet[Event], QuerySet[Event]]:
    """Tonight's and future events soonest first; the latest past ones after them.

    An evening counts as upcoming until twelve hours after its start.
    """
    boundary = (now or timezone.now()) - UPCOMING_FOR
    upcoming = events_with_places(events.filter(starts_at__gte=boundary)).order_by("starts_at", "id")
    past = events_with_places(events.filter(starts_at__lt=boundary)).order_by("-starts_at", "-id")[:past_limit]
    return upcoming, past


def organised_clubs(user: User) -> QuerySet[Club]:
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.all() if user.is_superuser else Club.objects.filter(organisers=user)


def organised_events(user: User, now: datetime | None = None) -> QuerySet[Event]:
    """The console's list, all of it: as the home page orders it (tonight's and the coming
    events soonest first, then the past ones latest first)."""
    past = Q(starts_at__lt=(now or timezone.now()) - UPCOMING_FOR)
    return (Event.objects.filter(club__in=organised_clubs(user))
            .annotate(is_past=Case(When(past, then=Value(1)), default=Value(0)),
                      coming_at=Case(When(~past, then=F("starts_at"))), past_at=Case(When(past, then=F("starts_at"))))
            .order_by("is_past", "coming_at", "-past_at", "-id"))


STATUS_ORDER = [Status.REGISTERED, Status.WAITLISTED, Status.CHECKED_IN, Status.NO_SHOW, Status.CANCELLED]


def registrations_for_event(event: Event) -> QuerySet[Registration]:
    """At the door the organiser looks for who is expected: not arrived first, then the
    waitlist in order, then those arrived, then the rest; by name within."""
    status_order = Case(*(When(status=s, then=Value(i)) for i, s in enumerate(STATUS_ORDER)))
    return (
        event.registrations.select_related("player")
        .annotate(status_order=status_order)
        .order_by("status_order", "waitlist_position", "player__display_name", "id")
    )


def registration_of(user: User, event: Event) -> Registration | None:
    if not user.is_authenticated:
        return None
    return event.registrations.filter(player__user=user).first()


def registrations_of(user: User) -> QuerySet[Registration]:
    if not user.is_authenticated:
        return Registration.objects.none()
    return Registration.objects.filter(player__user=user).select_related("event__club").order_by("-event__starts_at")


def audit_log(event: Event) -> QuerySet[AuditEntry]:
    """The event's audit entries, newest first."""
    return event.audit_entries.select_related("actor").order_by("-created_at", "-id")


def registration_state(event: Event, now: datetime | None = None) -> str | None:
    """Why registration is closed, or None when it is open."""
    now = now or timezone.now()
    if not event.published:
        return _("This event is not published.")
    if event.registration_opens_at and now < event.registration_opens_at:
        return _("Registration has not opened yet.")
    closes = event.registration_closes_at or event.starts_at
    if now >= closes:
        return _("Registration is closed.")
    return None


def event_status(event: Event, now: datetime | None = None) -> str:
    """The organiser's one-word state before the evening: draft, open or closed; else the phase."""
    if event.phase != Event.Phase.REGISTRATION:
        return event.phase
    if not event.published:
        return "draft"
    return "registration_closed" if registration_state(event, now) else "registration_open"


# --- one player across evenings: the club's players, found by name at the door -----------


class PlayerMatch(TypedDict):
    id: int
    name: str
    category: str
    account: bool  # signed up (the player record of an account), else a walk-in
    evenings: int  # evenings of the club they were checked in at
    last_seen: datetime | None  # the start of the latest of them
    here: str | None  # their registration's status for the event asked about, if any
    here_label: str  # that status in words ("" without one)


MATCHES = 8  # names offered at once: the organiser types on for fewer


def club_players(club: Club) -> QuerySet[Player]:
    """The club's players: its walk-ins (added at one of its evenings) and everyone who has
    registered for one of its events (an account's player belongs to no one club)."""
    return Player.objects.filter(Q(club=club) | Q(registrations__event__club=club)).distinct()


def is_club_player(player: Player, club: Club) -> bool:
    return club_players(club).filter(pk=player.pk).exists()


def name_key(text: str) -> str:
    """A name as the search compares it: case folded (Unicode: Cyrillic too, which the
    databases' LIKE folds only on PostgreSQL with a Unicode collation), ё as е, spaces
    collapsed."""
    return " ".join((text or "").casefold().replace("ё", "е").split())


def find_club_players(club: Club, query: str, *, event: Event | None = None,
                      limit: int = MATCHES) -> list[PlayerMatch]:
    """The club's players whose name holds every word of `query` (case-insensitive, any
    part of the name), those starting with it first, then by name; at most `limit`.
    `event`: say how each is registered for it (checked in already, on the list...)."""
    words = name_key(query).split()
    if not words:
        return []
    key = " ".join(words)
    found = [(pk, name) for pk, name in club_players(club).values_list("pk", "display_name")
             if all(word in name_key(name) for word in words)]
    found.sort(key=lambda item: (not name_key(item[1]).startswith(key), name_key(item[1]), item[0]))
    ids = [pk for pk, _ in found[:limit]]
    arrived = Q(registrations__event__club=club, registrations__status=Status.CHECKED_IN)
    rows = {player.pk: player for player in Player.objects.filter(pk__in=ids).annotate(
        evenings=Count("registrations", filter=arrived),
        last_seen=Max("registrations__event__starts_at", filter=arrived))}
    here = dict(event.registrations.filter(player_id__in=ids).values_list("player_id", "status")) if event else {}
    return [{"id": pk, "name": rows[pk].display_name, "category": rows[pk].category,
             "account": rows[pk].user_id is not None, "evenings": rows[pk].evenings,
             "last_seen": rows[pk].last_seen, "here": here.get(pk),
             "here_label": str(Status(here[pk]).label) if pk in here else ""} for pk in ids]


def player_by_id(player_id: object) -> Player | None:
    """The player of an id as typed into a form or a body (None for no such player)."""
    try:
        pk = int(str(player_id).strip())
    except (TypeError, ValueError):
        return None
    if not 1 <= pk < 2 ** 31:  # past the column's range the database would raise
        return None
    return Player.objects.filter(pk=pk).first()
