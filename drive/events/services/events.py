"""Events: creating and changing them, opening and closing registration, the door code, clubs.

Each function takes keyword arguments, checks the actor's permission, runs in one
transaction and announces the change on the channel layer after commit.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from drive.core import broadcast, jobs
from engine import find_variant
from drive.core.errors import Conflict, Invalid, NotFound
from drive.core.names import clean_name

from drive.events.services.audit import changed, log_action, snapshot
from drive.events.models import Club, Event, Registration, new_door_code
from drive.core.accounts import Account, User
from drive.events.access import require_club_creator, require_organiser
from drive.events.prizes import clean_prizes
from django.contrib.auth import get_user_model
from django.utils.text import slugify
from drive.events.selectors.events import registration_state

Status = Registration.Status

EVENT_FIELDS = (
    "title venue starts_at capacity registration_opens_at registration_closes_at rounds hands_per_round "
    "round_minutes movement_kind rules_preset trump_rule scoring_rule tie_break_rule prizes published "
    "result_confirmation sit_out_score progressive_convention missed_rounds"
).split()


# The settings that shape an evening: the movement, the seats, the hands and the scores
# are built from them at the start, so once it has started they stay.
SHAPING_FIELDS = (
    "rounds hands_per_round scoring_rule trump_rule movement_kind rules_preset sit_out_score tie_break_rule "
    "result_confirmation progressive_convention missed_rounds"
).split()


MIN_YEAR, MAX_YEAR = 2000, 2100  # far dates overflow time zones and are always typos


def _full_clean(instance: models.Model, **kwargs: Any) -> None:
    try:
        instance.full_clean(**kwargs)
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise Invalid(messages[0], field=None if field == "__all__" else field, extra={}) from exc


def _validate_event(event: Event) -> None:
    _full_clean(event, exclude=["club"])
    for name in ("starts_at", "registration_opens_at", "registration_closes_at"):
        moment = getattr(event, name)
        if moment and not MIN_YEAR <= moment.year <= MAX_YEAR:
            raise Invalid(_("Give a date between %(a)s and %(b)s.") % {"a": MIN_YEAR, "b": MAX_YEAR}, field=name)
    opens, closes = event.registration_opens_at, event.registration_closes_at
    if opens and closes and opens >= closes:
        raise Invalid(_("Registration must open before it closes."), field="registration_closes_at")
    if closes and closes > event.starts_at:
        raise Invalid(_("Registration must close by the start of the evening."), field="registration_closes_at")
    event.prizes = clean_prizes(event.prizes)
    _validate_rules(event)


def _validate_rules(event: Event) -> None:
    """A paper drive is scored from the tricks entered, hand by hand (rule D1): a preset
    that needs the cards held (honours L4, coronets L7) or runs over games and rubbers
    (L2) cannot be scored from them, so it is refused rather than scored as a drive."""
    rules = find_variant(event.rules_preset).options
    if rules.honours or rules.coronets or rules.rubbers:
        raise Invalid(_("“%(preset)s” cannot score a paper drive: it needs the cards held (honours) or "
                        "runs over rubbers. Choose the drive rules or short whist.")
                      % {"preset": event.get_rules_preset_display()}, field="rules_preset")
    if rules.scoring == "game" and event.scoring_rule != Event.ScoringRule.OVER_SIX:
        # Short whist counts only the tricks over six (rule S7.1); tricks taken is the drive's count (D3).
        raise Invalid(_("“%(preset)s” scores the tricks over six: choose that scoring, or the drive rules.")
                      % {"preset": event.get_rules_preset_display()}, field="scoring_rule")


def _refuse_reshaping(event: Event, fields: dict[str, Any]) -> None:
    """409 naming the first field that would change a started evening's shape."""
    if event.phase == Event.Phase.REGISTRATION:
        return
    for name in SHAPING_FIELDS:
        if name in fields and fields[name] != getattr(event, name):
            field = Event._meta.get_field(name)
            label = field.verbose_name if isinstance(field, models.Field) else name  # SHAPING_FIELDS are columns
            raise Conflict(_("The evening has started: “%(field)s” can no longer change.") % {"field": label},
                           extra={"field": name})
    present = event.registrations.filter(status=Status.CHECKED_IN).count()
    if "capacity" in fields and fields["capacity"] != event.capacity and fields["capacity"] < present:
        raise Conflict(_("The evening has started with %(n)s players present: the capacity cannot go below that.")
                       % {"n": present}, extra={"field": "capacity"})


def locked_event(*, event_id: int) -> Event:
    """The event row locked for this transaction: registrations of one event queue here."""
    try:
        return Event.objects.select_for_update().get(pk=event_id)
    except Event.DoesNotExist:
        raise NotFound(_("No such event.")) from None


def require_register_open(*, event: Event) -> None:
    """Once the evening has been played, who came to it is part of its record: no check-in,
    walk-in, no-show or cancellation changes it any more (a mistaken row is a matter for
    the evening's corrections, not the door's)."""
    if event.is_over:
        raise Conflict(_("The evening is over: its players can no longer change."))


# --- players ----------------------------------------------------------------------


# --- events -----------------------------------------------------------------------


@transaction.atomic
def create_event(*, actor: User, club: Club, **fields: Any) -> Event:
    require_organiser(actor, club)
    unknown = set(fields) - set(EVENT_FIELDS)
    if unknown:
        raise Invalid(_("Unknown fields: %s") % ", ".join(sorted(unknown)))
    event = Event(club=club, **fields)
    _validate_event(event)
    event.save()
    log_action(actor=actor, event=event, action="event.created", after=snapshot(obj=event, fields=EVENT_FIELDS), obj=event)
    return event


@transaction.atomic
def update_event(*, actor: User, event: Event, **fields: Any) -> Event:
    require_organiser(actor, event.club)
    event = locked_event(event_id=event.pk)
    unknown = set(fields) - set(EVENT_FIELDS)
    if unknown:
        raise Invalid(_("Unknown fields: %s") % ", ".join(sorted(unknown)))
    _refuse_reshaping(event, fields)
    before = snapshot(obj=event, fields=list(fields))
    for name, value in fields.items():
        setattr(event, name, value)
    _validate_event(event)
    event.save()
    old, new = changed(before=before, after=snapshot(obj=event, fields=list(fields)))
    if new:
        log_action(actor=actor, event=event, action="event.changed", before=old, after=new, obj=event)
    if "capacity" in fields:
        enqueue_promotion(event_id=event.pk)
    broadcast.publish(event.pk, broadcast.Change.EVENT)
    return event


# --- registration -----------------------------------------------------------------


PROMOTE_WAITLIST_TASK = "drive.events.tasks.promote_waitlist"


def enqueue_promotion(*, event_id: int) -> None:
    """Once this transaction commits, fill free places from the waitlist (a Celery task)."""
    jobs.after_commit(PROMOTE_WAITLIST_TASK, event_id)


# --- check-in ---------------------------------------------------------------------


def _club_organisers(usernames: Iterable[str] | None) -> list[Account]:
    """The accounts named as a new club's organisers; Invalid naming those that do not exist."""
    wanted = list(dict.fromkeys(usernames or ()))
    users = {u.get_username(): u for u in get_user_model().objects.filter(username__in=wanted)}
    missing = [name for name in wanted if name not in users]
    if missing:
        raise Invalid(_("No account has this username: %(names)s.") % {"names": ", ".join(missing)},
                      field="organisers")
    return [users[name] for name in wanted]


@transaction.atomic
def create_club(*, actor: User, name: str, slug: str = "", organisers: Iterable[str] | None = ()) -> Club:
    """A new club, as the admin makes one: its name, its slug (from the name when left out)
    and its organisers; the actor organises it too."""
    creator = require_club_creator(actor)
    name = clean_name(name, field="name")
    slug = (slug or "").strip() or slugify(name)
    if not slug:  # a name of letters slugify drops (Cyrillic, say) gives none
        raise Invalid(_("Give the club a slug: Latin letters, digits and hyphens."), field="slug")
    club = Club(name=name, slug=slug)
    _full_clean(club)
    members = _club_organisers(organisers)
    try:
        with transaction.atomic():
            club.save()
    except IntegrityError as exc:  # the same slug saved meanwhile by another request
        raise Invalid(_("A club with this slug already exists."), field="slug") from exc
    club.organisers.add(creator, *members)
    log_action(actor=creator, event=None, club=club, action="club.created", obj=club,
               after={"name": name, "slug": slug, "organisers": sorted(u.get_username() for u in {creator, *members})})
    return club


@transaction.atomic
def open_registration(*, actor: User, event: Event) -> Event:
    """Publish the event: players can see it and register within its window."""
    require_organiser(actor, event.club)
    event = locked_event(event_id=event.pk)
    if event.phase != Event.Phase.REGISTRATION:
        raise Conflict(_("The evening has already started."))
    before = snapshot(obj=event, fields=["published"])
    event.published = True
    event.save(update_fields=["published", "updated_at"])
    log_action(actor=actor, event=event, action="event.registration_opened", before=before,
               after={"published": True}, obj=event)
    broadcast.publish(event.pk, broadcast.Change.EVENT)
    return event


@transaction.atomic
def close_registration(*, actor: User, event: Event) -> Event:
    """Stop new registrations now; the waitlist stays as it is."""
    require_organiser(actor, event.club)
    event = locked_event(event_id=event.pk)
    now = timezone.now()
    if registration_state(event, now):
        raise Conflict(_("Registration is not open."))
    before = snapshot(obj=event, fields=["registration_opens_at", "registration_closes_at"])
    event.registration_closes_at = now
    if event.registration_opens_at and event.registration_opens_at >= now:
        event.registration_opens_at = None
    event.save(update_fields=["registration_closes_at", "registration_opens_at", "updated_at"])
    log_action(actor=actor, event=event, action="event.registration_closed", before=before,
               after=snapshot(obj=event, fields=["registration_opens_at", "registration_closes_at"]), obj=event)
    broadcast.publish(event.pk, broadcast.Change.EVENT)
    return event


@transaction.atomic
def reissue_door_code(*, actor: User, event: Event) -> Event:
    """A new door code (a photo of the QR code went round): the old one stops at once."""
    require_organiser(actor, event.club)
    event = locked_event(event_id=event.pk)
    event.door_code = new_door_code()
    event.save(update_fields=["door_code", "updated_at"])
    # Never the code itself: the log is read by every organiser, and the code is a key.
    log_action(actor=actor, event=event, action="event.door_code_reissued", after={"door_code": "new"}, obj=event)
    broadcast.publish(event.pk, broadcast.Change.EVENT)  # the room's screen shows the door's code too
    return event


