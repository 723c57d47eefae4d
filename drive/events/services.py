"""Business rules for events, registration and check-in.

Each function takes keyword arguments, checks the actor's permission, runs in one
transaction and announces the change on the channel layer after commit.
"""
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils import translation
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import ngettext

from drive import broadcast
from engine.rules import preset
from drive.errors import Conflict, Forbidden, Invalid, NotFound
from drive.names import clean_name

from .audit import changed, log_action, snapshot
from .models import Club, Event, Player, Registration, new_door_code
from .permissions import is_organiser, require_club_creator, require_login, require_organiser
from .prizes import clean_prizes

Status = Registration.Status

EVENT_FIELDS = (
    "title venue starts_at capacity registration_opens_at registration_closes_at rounds hands_per_round "
    "round_minutes movement_kind rules_preset trump_rule scoring_rule tie_break_rule prizes published "
    "result_confirmation sit_out_score progressive_convention missed_rounds"
).split()


# The settings that shape an evening: the movement, the seats, the hands and the scores
# are built from them at the start, so once it has started they stay (issue 10).
SHAPING_FIELDS = (
    "rounds hands_per_round scoring_rule trump_rule movement_kind rules_preset sit_out_score tie_break_rule "
    "result_confirmation progressive_convention missed_rounds"
).split()


MIN_YEAR, MAX_YEAR = 2000, 2100  # far dates overflow time zones and are always typos


def _full_clean(instance, **kwargs):
    try:
        instance.full_clean(**kwargs)
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise Invalid(messages[0], field=None if field == "__all__" else field, extra={}) from exc


def _validate_event(event):
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


def _validate_rules(event):
    """A paper drive is scored from the tricks entered, hand by hand (rule D1): a preset
    that needs the cards held (honours L4, coronets L7) or runs over games and rubbers
    (L2) cannot be scored from them, so it is refused rather than scored as a drive."""
    rules = preset(event.rules_preset)
    if rules.honours or rules.coronets or rules.rubbers:
        raise Invalid(_("“%(preset)s” cannot score a paper drive: it needs the cards held (honours) or "
                        "runs over rubbers. Choose the drive rules or short whist.")
                      % {"preset": event.get_rules_preset_display()}, field="rules_preset")
    if rules.scoring == "game" and event.scoring_rule != Event.ScoringRule.OVER_SIX:
        # Short whist counts only the tricks over six (rule S7.1); tricks taken is the drive's count (D3).
        raise Invalid(_("“%(preset)s” scores the tricks over six: choose that scoring, or the drive rules.")
                      % {"preset": event.get_rules_preset_display()}, field="scoring_rule")


def _refuse_reshaping(event, fields):
    """409 naming the first field that would change a started evening's shape."""
    if event.phase == Event.Phase.REGISTRATION:
        return
    for name in SHAPING_FIELDS:
        if name in fields and fields[name] != getattr(event, name):
            label = Event._meta.get_field(name).verbose_name
            raise Conflict(_("The evening has started: “%(field)s” can no longer change.") % {"field": label},
                           extra={"field": name})
    present = event.registrations.filter(status=Status.CHECKED_IN).count()
    if "capacity" in fields and fields["capacity"] != event.capacity and fields["capacity"] < present:
        raise Conflict(_("The evening has started with %(n)s players present: the capacity cannot go below that.")
                       % {"n": present}, extra={"field": "capacity"})


def _locked_event(event_id):
    """The event row locked for this transaction: registrations of one event queue here."""
    try:
        return Event.objects.select_for_update().get(pk=event_id)
    except Event.DoesNotExist:
        raise NotFound(_("No such event.")) from None


# --- players ----------------------------------------------------------------------


def player_for_user(*, user):
    """The player record of a logged-in user, created on first use."""
    require_login(user)
    player = Player.objects.filter(user=user).first()
    if player:
        return player
    name = user.get_full_name() or user.get_username()
    try:
        with transaction.atomic():
            return Player.objects.create(user=user, display_name=name[:80])
    except IntegrityError:  # created by a concurrent request of the same user
        return Player.objects.get(user=user)


# --- events -----------------------------------------------------------------------


@transaction.atomic
def create_event(*, actor, club, **fields):
    require_organiser(actor, club)
    unknown = set(fields) - set(EVENT_FIELDS)
    if unknown:
        raise Invalid(_("Unknown fields: %s") % ", ".join(sorted(unknown)))
    event = Event(club=club, **fields)
    _validate_event(event)
    event.save()
    log_action(actor=actor, event=event, action="event.created", after=snapshot(event, EVENT_FIELDS), obj=event)
    return event


@transaction.atomic
def update_event(*, actor, event, **fields):
    require_organiser(actor, event.club)
    event = _locked_event(event.pk)
    unknown = set(fields) - set(EVENT_FIELDS)
    if unknown:
        raise Invalid(_("Unknown fields: %s") % ", ".join(sorted(unknown)))
    _refuse_reshaping(event, fields)
    before = snapshot(event, list(fields))
    for name, value in fields.items():
        setattr(event, name, value)
    _validate_event(event)
    event.save()
    old, new = changed(before, snapshot(event, list(fields)))
    if new:
        log_action(actor=actor, event=event, action="event.changed", before=old, after=new, obj=event)
    if "capacity" in fields:
        _enqueue_promotion(event.pk)
    broadcast.publish(event.pk, "event")
    return event


def registration_state(event, now=None):
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


# --- registration -----------------------------------------------------------------


def _places_taken(event):
    return event.registrations.filter(status__in=Registration.HOLDS_PLACE).count()


def _next_waitlist_position(event):
    top = event.registrations.filter(status=Status.WAITLISTED).aggregate(top=Max("waitlist_position"))["top"]
    return (top or 0) + 1


def register(*, actor, event):
    """Register the actor: a place if one is free, else the end of the waitlist.

    Registering again while registered or waitlisted changes nothing (idempotent).
    """
    return register_or_get(actor=actor, event=event)[0]


@transaction.atomic
def register_or_get(*, actor, event) -> tuple[Registration, bool]:
    """`register`, saying whether this call registered the actor (True) or found them
    registered or waitlisted already (False). Decided under the event's lock: of two
    requests at the same instant, one registers and the other finds that registration."""
    player = player_for_user(user=actor)
    event = _locked_event(event.pk)
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
    broadcast.publish(event.pk, "registrations")
    return registration, True


def _admit(event, registration):
    # A free place goes to the waitlist first (the promotion task fills it), never to a newcomer.
    waiting = event.registrations.filter(status=Status.WAITLISTED).exists()
    if not waiting and _places_taken(event) < event.capacity:
        registration.status, registration.waitlist_position = Status.REGISTERED, None
    else:
        registration.status = Status.WAITLISTED
        registration.waitlist_position = _next_waitlist_position(event)


# Once the evening has started, its checked-in players are in its movement, which only the
# evening (scoring, a floor up) can re-plan: it says at start-up how a player leaves it, so
# a cancellation here takes them out of the evening without importing it.
_evening_leavers = []


def on_leaving_evening(handler) -> None:
    """Set how a checked-in player leaves a started evening: `handler(actor, event,
    player_id)`, run in the cancellation's transaction (the event's row locked)."""
    _evening_leavers[:] = [handler]


def _leave_evening(actor, event, registration):
    if not _evening_leavers:
        raise Conflict(_("The evening has started and this player is checked in: use “Leaves” on the "
                         "evening's Players tab."))
    _evening_leavers[0](actor, event, registration.player_id)


@transaction.atomic
def cancel_registration(*, actor, registration):
    """A player cancels their own place; an organiser may cancel anyone's.

    A checked-in player cancelled while the evening runs leaves it as a leaver does: no
    round after the current one, the rest of the movement re-planned."""
    require_login(actor)
    event = _locked_event(registration.event_id)
    registration = Registration.objects.select_related("player").get(pk=registration.pk)
    own = registration.player.user_id == actor.pk
    if not own and not is_organiser(actor, event.club):
        raise Forbidden(_("You can only cancel your own registration."))
    if registration.status == Status.CANCELLED:
        return registration
    if own and not is_organiser(actor, event.club):
        if registration.status not in (Status.REGISTERED, Status.WAITLISTED):
            raise Conflict(_("You are already checked in: please see the organiser."))
        if timezone.now() >= event.starts_at:
            raise Conflict(_("The evening has started: please see the organiser."))
    if registration.status == Status.CHECKED_IN and event.phase == Event.Phase.IN_PROGRESS:
        _leave_evening(actor, event, registration)
    held_place = registration.status in Registration.HOLDS_PLACE
    before = snapshot(registration, ["status"])
    registration.status, registration.cancelled_at = Status.CANCELLED, timezone.now()
    registration.waitlist_position = None
    registration.save()
    if not own:  # the organiser's write; a player's own cancellation is theirs
        log_action(actor=actor, event=event, action="registration.cancelled", before=before,
                   after=snapshot(registration, ["status"]), obj=registration)
    _renumber_waitlist(event)
    if held_place:
        _enqueue_promotion(event.pk)
    broadcast.publish(event.pk, "registrations")
    return registration


def _renumber_waitlist(event):
    waiting = event.registrations.filter(status=Status.WAITLISTED).order_by("waitlist_position", "id")
    for position, registration in enumerate(waiting, start=1):
        if registration.waitlist_position != position:
            registration.waitlist_position = position
            registration.save(update_fields=["waitlist_position", "updated_at"])


def _enqueue_promotion(event_id):
    from .tasks import promote_waitlist  # tasks import services: import late to avoid a cycle

    promote_waitlist.delay_on_commit(event_id)


@transaction.atomic
def fill_places_from_waitlist(*, event_id):
    """Move the first of the waitlist into free places; returns the promoted ids.

    Recomputed from the rows each time, so running it twice promotes nobody twice.
    """
    event = _locked_event(event_id)
    free = event.capacity - _places_taken(event)
    if free <= 0 or timezone.now() >= event.starts_at:
        return []
    promoted = list(event.registrations.filter(status=Status.WAITLISTED).order_by("waitlist_position", "id")[:free])
    now = timezone.now()
    for registration in promoted:
        registration.status, registration.waitlist_position, registration.promoted_at = Status.REGISTERED, None, now
        registration.save(update_fields=["status", "waitlist_position", "promoted_at", "updated_at"])
    if promoted:
        _renumber_waitlist(event)
        broadcast.publish(event.pk, "registrations")
    return [registration.pk for registration in promoted]


@transaction.atomic
def notify_promoted(*, registration_id):
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


# --- check-in ---------------------------------------------------------------------


def _registration_for_organiser(actor, registration):
    """The registration re-read under its event's lock, once the actor is known to organise it."""
    registration = Registration.objects.select_related("event__club").get(pk=registration.pk)
    require_organiser(actor, registration.event.club)
    event = _locked_event(registration.event_id)
    registration.refresh_from_db()
    registration.event = event  # the phase and capacity as read under the lock
    return registration


@transaction.atomic
def check_in(*, actor, registration):
    """The organiser marks a player arrived (also from the waitlist or a no-show)."""
    registration = _registration_for_organiser(actor, registration)
    if registration.status == Status.CHECKED_IN:
        return registration
    if registration.status == Status.CANCELLED:
        raise Conflict(_("This registration was cancelled; register the player again first."))
    before = snapshot(registration, ["status"])
    _mark_arrived(registration)
    _renumber_waitlist(registration.event)
    log_action(actor=actor, event=registration.event, action="registration.checked_in", before=before,
               after=snapshot(registration, ["status"]), obj=registration)
    return registration


def _mark_arrived(registration):
    registration.status, registration.waitlist_position = Status.CHECKED_IN, None
    registration.checked_in_at = timezone.now()
    registration.save(update_fields=["status", "waitlist_position", "checked_in_at", "updated_at"])
    broadcast.publish(registration.event_id, "arrivals")


@transaction.atomic
def self_check_in(*, actor, event, door_code):
    """Scanning the door code marks the actor arrived. Returns (registration, already)."""
    require_login(actor)
    event = _locked_event(event.pk)
    if door_code != event.door_code:
        raise NotFound(_("This door code is not valid for this event."))
    # now + hours < start, not now < start - hours: an event dated in year 1 must not overflow.
    if timezone.now() + timedelta(hours=settings.CHECKIN_OPENS_HOURS_BEFORE) < event.starts_at:
        hours = settings.CHECKIN_OPENS_HOURS_BEFORE
        raise Conflict(ngettext("Check-in opens %(hours)s hour before the start.",
                                "Check-in opens %(hours)s hours before the start.", hours) % {"hours": hours})
    player = Player.objects.filter(user=actor).first()
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
def add_walk_in(*, actor, event, display_name, category=""):
    """A player who turns up unregistered, added by name and checked in at once.

    The organiser can see the room, so a walk-in may take the event over capacity.
    """
    require_organiser(actor, event.club)
    event = _locked_event(event.pk)
    if not (display_name or "").strip():
        raise Invalid(_("Enter the player's name."), field="display_name")
    name = clean_name(display_name, field="display_name")
    if len(name) > 80:
        raise Invalid(_("A name is at most 80 characters."), field="display_name")
    if category not in Player.Category.values:
        raise Invalid(_("Unknown category."), field="category")
    player = Player.objects.create(display_name=name, club=event.club, category=category)
    now = timezone.now()
    registration = Registration.objects.create(
        event=event, player=player, status=Status.CHECKED_IN, walk_in=True, registered_at=now, checked_in_at=now
    )
    log_action(actor=actor, event=event, action="registration.walk_in_added",
               after={"display_name": name, "category": category, "status": registration.status}, obj=registration)
    broadcast.publish(event.pk, "arrivals")
    return registration


@transaction.atomic
def mark_no_show(*, actor, registration):
    registration = _registration_for_organiser(actor, registration)
    if registration.status == Status.NO_SHOW:
        return registration
    if registration.status != Status.REGISTERED:
        raise Conflict(_("Only a registered player who has not arrived can be marked a no-show."))
    registration.status = Status.NO_SHOW
    registration.save(update_fields=["status", "updated_at"])
    log_action(actor=actor, event=registration.event, action="registration.no_show",
               before={"status": Status.REGISTERED}, after={"status": Status.NO_SHOW}, obj=registration)
    broadcast.publish(registration.event_id, "arrivals")
    return registration


def table_count(event):
    """The tables the event can have: a full house of four a table."""
    return max(event.capacity // 4, 1)


@transaction.atomic
def set_fixed_table(*, actor, registration, table):
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
    tables = table_count(event)
    if table is not None and (type(table) is not int or not 1 <= table <= tables):
        raise Invalid(_("Give a table number from 1 to %(count)s, or none to clear it.") % {"count": tables},
                      field="table")
    taken = (event.registrations.filter(fixed_table=table).exclude(pk=registration.pk)
             .exclude(status=Status.CANCELLED).select_related("player").first() if table else None)
    if taken is not None:  # two who stay put at one table would meet every round
        raise Invalid(_("Table %(n)s is already fixed for %(name)s.") % {"n": table, "name": taken.player.display_name},
                      field="table")
    before = snapshot(registration, ["fixed_table"])
    registration.fixed_table = table
    registration.save(update_fields=["fixed_table", "updated_at"])
    log_action(actor=actor, event=event, action="registration.fixed_table_set", before=before,
               after={"fixed_table": table}, obj=registration)
    broadcast.publish(event.pk, "registrations")
    return registration


@transaction.atomic
def mark_absent_as_no_shows(*, actor, event):
    """Everyone registered but not arrived becomes a no-show; returns how many."""
    require_organiser(actor, event.club)
    _locked_event(event.pk)
    absent = event.registrations.filter(status=Status.REGISTERED)
    ids = list(absent.values_list("pk", flat=True))
    count = absent.update(status=Status.NO_SHOW, updated_at=timezone.now())
    log_action(actor=actor, event=event, action="registration.absent_no_shows",
               before={"status": Status.REGISTERED, "registrations": ids},
               after={"status": Status.NO_SHOW, "count": count})
    broadcast.publish(event.pk, "arrivals")
    return count


def _club_organisers(usernames) -> list:
    """The accounts named as a new club's organisers; Invalid naming those that do not exist."""
    wanted = list(dict.fromkeys(usernames or ()))
    users = {u.get_username(): u for u in get_user_model().objects.filter(username__in=wanted)}
    missing = [name for name in wanted if name not in users]
    if missing:
        raise Invalid(_("No account has this username: %(names)s.") % {"names": ", ".join(missing)},
                      field="organisers")
    return [users[name] for name in wanted]


@transaction.atomic
def create_club(*, actor, name: str, slug: str = "", organisers=()) -> Club:
    """A new club, as the admin makes one: its name, its slug (from the name when left out)
    and its organisers; the actor organises it too."""
    require_club_creator(actor)
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
    club.organisers.add(actor, *members)
    log_action(actor=actor, event=None, club=club, action="club.created", obj=club,
               after={"name": name, "slug": slug, "organisers": sorted(u.get_username() for u in {actor, *members})})
    return club


def password_problems(password: str, *, username=None, email=None) -> list[str]:
    """What the site's password rules (AUTH_PASSWORD_VALIDATORS) find wrong with a new
    account's password, the username and email given for the similarity check."""
    account = get_user_model()(username=username if isinstance(username, str) else "",
                               email=email if isinstance(email, str) else "")
    try:
        validate_password(password, account)
    except ValidationError as exc:
        return list(exc.messages)
    return []


@transaction.atomic
def sign_up(*, username, password, email="", display_name, language=""):
    """A new user account with its player record (emails go out in `language`)."""
    User = get_user_model()
    username = clean_name(username, field="username")
    display_name = clean_name(display_name, field="display_name") if (display_name or "").strip() else ""
    if User.objects.filter(username__iexact=username).exists():
        raise Invalid(_("This username is taken."), field="username")
    problems = password_problems(password, username=username, email=email)
    if problems:
        raise Invalid(" ".join(problems), field="password")
    user = User.objects.create_user(username=username, password=password, email=email or "")
    language = language if language in dict(settings.LANGUAGES) else ""
    Player.objects.create(user=user, display_name=display_name[:80] or username, language=language)
    return user


@transaction.atomic
def open_registration(*, actor, event):
    """Publish the event: players can see it and register within its window."""
    require_organiser(actor, event.club)
    event = _locked_event(event.pk)
    if event.phase != Event.Phase.REGISTRATION:
        raise Conflict(_("The evening has already started."))
    before = snapshot(event, ["published"])
    event.published = True
    event.save(update_fields=["published", "updated_at"])
    log_action(actor=actor, event=event, action="event.registration_opened", before=before,
               after={"published": True}, obj=event)
    broadcast.publish(event.pk, "event")
    return event


@transaction.atomic
def close_registration(*, actor, event):
    """Stop new registrations now; the waitlist stays as it is."""
    require_organiser(actor, event.club)
    event = _locked_event(event.pk)
    now = timezone.now()
    if registration_state(event, now):
        raise Conflict(_("Registration is not open."))
    before = snapshot(event, ["registration_opens_at", "registration_closes_at"])
    event.registration_closes_at = now
    if event.registration_opens_at and event.registration_opens_at >= now:
        event.registration_opens_at = None
    event.save(update_fields=["registration_closes_at", "registration_opens_at", "updated_at"])
    log_action(actor=actor, event=event, action="event.registration_closed", before=before,
               after=snapshot(event, ["registration_opens_at", "registration_closes_at"]), obj=event)
    broadcast.publish(event.pk, "event")
    return event


@transaction.atomic
def reissue_door_code(*, actor, event):
    """A new door code (a photo of the QR code went round): the old one stops at once."""
    require_organiser(actor, event.club)
    event = _locked_event(event.pk)
    event.door_code = new_door_code()
    event.save(update_fields=["door_code", "updated_at"])
    # Never the code itself: the log is read by every organiser, and the code is a key.
    log_action(actor=actor, event=event, action="event.door_code_reissued", after={"door_code": "new"}, obj=event)
    broadcast.publish(event.pk, "event")  # the room's screen shows the door's code too
    return event


def event_status(event, now=None):
    """The organiser's one-word state before the evening: draft, open or closed; else the phase."""
    if event.phase != Event.Phase.REGISTRATION:
        return event.phase
    if not event.published:
        return "draft"
    return "registration_closed" if registration_state(event, now) else "registration_open"
