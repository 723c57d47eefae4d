"""A whole event as one versioned JSON document, and back (backup).

Every row of the event, from the club and its players to the hand results with their
history, the corrections, the audit log and the stored standings, keyed by its id in
the exporting database. Import recreates them with new ids (mapping every reference)
into any database, an empty one included, in one transaction. Accounts travel as
usernames and names only, never passwords: on import an unknown username becomes an
account without a usable password (its owner resets it).
"""
from __future__ import annotations

import datetime
import decimal
import secrets
import uuid
from typing import Any, Callable

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from drive.core.errors import Invalid
from drive.events.services.audit import log_action
from drive.events.models import Club, Event, Player
from drive.core.accounts import User
from drive.events.access import require_organiser
from drive.events.prizes import from_legacy

FORMAT, VERSION = "whist-drive-event", 1


def _players(event: Event) -> models.QuerySet[Player]:
    return (apps.get_model("events.player").objects
            .filter(models.Q(registrations__event=event) | models.Q(entries__event=event)).distinct())


# (model label, the event's rows), parents before children. A model another helper has
# not added yet is skipped, so an older document still imports.
PARTS: list[tuple[str, Callable[[Event], models.QuerySet[Any]]]] = [
    ("events.club", lambda e: Club.objects.filter(pk=e.club_id)),
    ("events.player", _players),
    ("events.event", lambda e: Event.objects.filter(pk=e.pk)),
    ("events.registration", lambda e: e.registrations.all()),
    ("movements.entrant", lambda e: e.entrants.all()),
    ("movements.movement", lambda e: apps.get_model("movements.movement").objects.filter(event=e)),
    ("scoring.round", lambda e: e.evening_rounds.all()),
    ("scoring.table", lambda e: e.tables.all()),
    ("scoring.seat", lambda e: apps.get_model("scoring.seat").objects.filter(round__event=e)),
    ("scoring.onlinetables", lambda e: apps.get_model("scoring.onlinetables").objects.filter(event=e)),
    ("scoring.seatclaim", lambda e: apps.get_model("scoring.seatclaim").objects.filter(round__event=e)),
    ("scoring.handresult", lambda e: apps.get_model("scoring.handresult").objects.filter(round__event=e)),
    # The history keeps rows of results since deleted too: found by their round.
    ("scoring.historicalhandresult", lambda e: apps.get_model("scoring.historicalhandresult").objects.filter(
        round_id__in=e.evening_rounds.values("pk"))),
    ("scoring.standing", lambda e: e.standings.all()),
    ("scoring.standingsstate", lambda e: apps.get_model("scoring.standingsstate").objects.filter(event=e)),
    # The evening's online tables: each game's record (its hands card by card), seats and
    # actions, so the hand histories and the standings' "finished by robots" survive a restore.
    ("games.playtable", lambda e: apps.get_model("games.playtable").objects.filter(event=e)),
    ("games.playseat", lambda e: apps.get_model("games.playseat").objects.filter(table__event=e)),
    ("games.playaction", lambda e: apps.get_model("games.playaction").objects.filter(table__event=e)),
    ("live.screen", lambda e: apps.get_model("live.screen").objects.filter(event=e)),
    ("live.announcement", lambda e: e.announcements.all()),
    ("events.auditentry", lambda e: e.audit_entries.all()),
]
# Secrets of the room (table cards, door and screen links): kept when free, so printed
# cards still open after a restore; new ones when a copy of the event already holds them.
FRESH = {"door_code": lambda: secrets.token_urlsafe(16), "token": lambda: secrets.token_urlsafe(24),
         "invite": lambda: secrets.token_urlsafe(18)}
# A backup from before the room's screen had a row of its own carries its link and chime
# on the event, under these names.
LEGACY_SCREEN = {"screen_token": "token", "screen_chime": "chime"}
HISTORY_OF = {"scoring.historicalhandresult": "scoring.handresult"}  # its `id` is the result's id
# Models that moved app since a document was written: its rows (and audit entries naming
# them) are read under the new label (issue 21: the online tables went from play to games).
MOVED = {"play.playtable": "games.playtable", "play.playseat": "games.playseat",
         "play.playaction": "games.playaction", "play.playhandreview": "games.playhandreview"}


def _model(label: str) -> type[models.Model] | None:
    try:
        return apps.get_model(label)
    except LookupError:
        return None


def _plain(value: Any) -> Any:
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (decimal.Decimal, uuid.UUID)):
        return str(value)
    return value


def _fields(model: type[models.Model]) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def _is_user(field: models.Field) -> bool:
    return field.is_relation and field.related_model is get_user_model()


# --- export ---------------------------------------------------------------------------


def export_event(*, event_id: int) -> dict[str, Any]:
    """The event as a JSON-ready dict (see the module's docstring)."""
    event = Event.objects.select_related("club").get(pk=event_id)
    users: set[int] = set(event.club.organisers.values_list("pk", flat=True))
    rows = {}
    for label, select in PARTS:
        model = _model(label)
        if model is None:
            continue
        fields = _fields(model)
        rows[label] = [
            {"pk": obj.pk, **{f.attname: _plain(f.value_from_object(obj)) for f in fields}}
            for obj in select(event).order_by("pk")
        ]
        for field in filter(_is_user, fields):
            users.update(row[field.attname] for row in rows[label] if row[field.attname] is not None)
    people = get_user_model().objects.filter(pk__in=users)
    return {
        "format": FORMAT, "version": VERSION, "exported_at": timezone.now().isoformat(),
        "event": event.pk,
        "users": {str(u.pk): {"username": u.get_username(), "email": u.email, "first_name": u.first_name,
                              "last_name": u.last_name} for u in people},
        "organisers": list(event.club.organisers.values_list("pk", flat=True)),
        "rows": rows,
    }


@transaction.atomic
def export_for_organiser(*, actor: User, event: Event) -> dict[str, Any]:
    """The download of the console and the API: organisers only, and logged, since the
    document holds the players' names and the organisers' email addresses."""
    require_organiser(actor, event.club)
    log_action(actor=actor, event=event, action="event.exported", after={"format": FORMAT, "version": VERSION},
               obj=event)
    return export_event(event_id=event.pk)


# --- import ---------------------------------------------------------------------------


def _check(document: Any) -> None:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise Invalid(_("This is not an exported whist drive."))
    if document.get("version") != VERSION:
        raise Invalid(_("This export is version %(v)s; this server reads version %(ours)s.")
                      % {"v": document.get("version"), "ours": VERSION})


def _import_users(document: dict[str, Any]) -> dict[int, int]:
    User, mapped = get_user_model(), {}
    for old, person in document.get("users", {}).items():
        user = User.objects.filter(username=person["username"]).first()
        if user is None:
            user = User(username=person["username"], email=person.get("email", ""),
                        first_name=person.get("first_name", ""), last_name=person.get("last_name", ""))
            user.set_unusable_password()
            user.save()
        mapped[int(old)] = user.pk
    return mapped


class _Mapper:
    """Old ids to new ones, per model label."""

    def __init__(self, users: dict[int, int]) -> None:
        self.ids: dict[str, dict[int, int]] = {get_user_model()._meta.label_lower: users}

    def new(self, model: type[models.Model] | None, old: int | None) -> int | None:
        if model is None or old is None:  # a model this database lacks, or no reference
            return None
        return self.ids.get(model._meta.label_lower, {}).get(old)


def _value(field: models.Field, raw: Any, mapper: _Mapper) -> Any:
    related = field.related_model
    if field.is_relation and isinstance(related, type) and issubclass(related, models.Model):
        new = mapper.new(related, raw)
        if new is None and raw is not None and not field.null:
            raise Invalid(_("The export refers to a missing %(model)s (id %(id)s).")
                          % {"model": related._meta.verbose_name, "id": raw})
        return new
    return field.to_python(raw) if raw is not None else None


def _fresh_secrets(model: type[models.Model], values: dict[str, Any]) -> None:
    for name, make in FRESH.items():
        if values.get(name) and model._default_manager.filter(**{name: values[name]}).exists():
            values[name] = make()


def _insert(label: str, model: type[models.Model], row: dict[str, Any], mapper: _Mapper) -> int | None:
    values = {f.attname: _value(f, row.get(f.attname), mapper) for f in _fields(model) if f.attname in row}
    if label in HISTORY_OF:  # the result a history row belongs to (kept as is if since deleted)
        values["id"] = mapper.new(_model(HISTORY_OF[label]), row["id"]) or row["id"]
    if label == "events.auditentry" and row.get("object_type") in MOVED:
        row = {**row, "object_type": MOVED[row["object_type"]]}
        values["object_type"] = row["object_type"]
    if label == "events.auditentry" and row.get("object_type") and _model(row["object_type"]):
        new = mapper.new(_model(row["object_type"]), int(row["object_id"])) if row["object_id"].isdigit() else None
        values["object_id"] = str(new) if new is not None else row["object_id"]
    if label == "events.event" and isinstance(values.get("prizes"), list):
        values["prizes"] = from_legacy(values["prizes"])  # a backup from before prize kinds: names only
    if label == "scoring.seatclaim" and model._default_manager.filter(secret_hash=values["secret_hash"]).exists():
        return None  # the same phone's claim already stands in this database
    if label == "events.player" and values.get("user_id"):
        existing = model._default_manager.filter(user_id=values["user_id"]).first()
        if existing is not None:  # an account has one player: the copy shares it
            return existing.pk
    _fresh_secrets(model, values)
    obj = model(**values)
    # raw: the stored timestamps stay as they were, and no new history row is written.
    obj.save_base(raw=True, force_insert=True)
    return obj.pk


def _club(document: dict[str, Any], row: dict[str, Any], mapper: _Mapper) -> int:
    club = Club.objects.filter(slug=row["slug"]).first()
    if club is None:
        club = Club.objects.create(name=row["name"], slug=row["slug"])
    users = mapper.ids[get_user_model()._meta.label_lower]
    club.organisers.add(*(users[old] for old in document.get("organisers", []) if old in users))
    return club.pk


def _with_screens(rows: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """The rows, with an older backup's screen link and chime (on its events) as the screen
    rows a newer one holds, imported as those are (a link already held here made anew)."""
    if "live.screen" in rows:
        return rows
    screens = [{"pk": row["pk"], "event_id": row["pk"], "created_at": row.get("created_at"),
                "updated_at": row.get("updated_at"),
                **{new: row[old] for old, new in LEGACY_SCREEN.items() if old in row}}
               for row in rows.get("events.event", []) if LEGACY_SCREEN.keys() & row.keys()]
    return {**rows, "live.screen": screens} if screens else rows


@transaction.atomic
def import_event(*, document: dict[str, Any]) -> Event:
    """Recreate an exported event here with new ids; returns the new event."""
    _check(document)
    mapper = _Mapper(_import_users(document))
    rows = _with_screens({MOVED.get(label, label): kept for label, kept in document.get("rows", {}).items()})
    for label, _select in PARTS:
        model = _model(label)
        if model is None or label not in rows:
            continue
        mapped = mapper.ids.setdefault(label, {})
        for row in rows[label]:
            new = _club(document, row, mapper) if label == "events.club" else _insert(label, model, row, mapper)
            if new is not None:
                mapped[row["pk"]] = new
    exported_event = document.get("event")
    new_event = mapper.ids["events.event"].get(exported_event) if exported_event is not None else None
    if new_event is None:
        raise Invalid(_("The export holds no event."))
    event = Event.objects.get(pk=new_event)
    # The restore is part of the event's history too (by the command line: no account).
    log_action(actor=None, event=event, action="event.imported", obj=event,
               after={"exported_event": document.get("event"), "exported_at": document.get("exported_at")})
    return event
