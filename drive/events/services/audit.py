"""The audit log: every organiser write leaves one entry (after pretix's `log_action`).

Call `log_action` inside the service's transaction, after the write, so the entry
and the change commit or roll back together.
"""
from __future__ import annotations

import datetime
import decimal
import uuid
from typing import Any

from django.apps import apps
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from drive.core.seats import seat_letter

from drive.core.accounts import User
from drive.events.models import AuditEntry, Club, Event, Registration
from drive.events.prizes import PrizeKind, shown_name


def _jsonable(value: Any) -> Any:
    """Values as JSON can hold them: dates as ISO text, model rows as their id."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (decimal.Decimal, uuid.UUID)):
        return str(value)
    if isinstance(value, models.Model):
        return value.pk
    if isinstance(value, datetime.timedelta):
        return value.total_seconds()
    return value


def snapshot(*, obj: models.Model, fields: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """The named fields of a row, ready for `before`/`after`."""
    return _jsonable({name: getattr(obj, name) for name in fields})


def changed(*, before: dict, after: dict) -> tuple[dict, dict]:
    """Only the keys whose value differs, on both sides."""
    keys = [k for k in after if before.get(k) != after.get(k)]
    return {k: before.get(k) for k in keys}, {k: after[k] for k in keys}


def describe(*, obj: models.Model) -> str:
    """A short, language-free name for the object of an entry: a registration by its
    player, a round or a table by its number; a hand result says its place in `after`."""
    label = obj._meta.label_lower
    if isinstance(obj, Registration):
        return obj.player.display_name
    if label in ("scoring.round", "scoring.table"):
        return str(getattr(obj, "number"))  # scoring's models, a floor above: read by name
    if label in ("scoring.handresult", "scoring.onlinetables"):
        return ""  # a hand says its place in `after`; the evening's one setting, its changes
    return str(obj)


def _actor_label(actor: User | None) -> str:
    if actor is None or not getattr(actor, "is_authenticated", False):
        return ""
    # hasattr is False when the account has no player (the reverse one-to-one raises).
    name = actor.player.display_name if hasattr(actor, "player") else ""
    return (name or actor.get_username())[:150]


def log_action(*, actor: User | None, event: Event | None, action: str, before: dict | None = None,
               after: dict | None = None, obj: models.Model | None = None,
               club: Club | None = None) -> AuditEntry:
    """Record one organiser write. `action` is a dotted code such as "registration.checked_in"."""
    if club is not None:
        club_id = club.pk
    elif event is not None:
        club_id = event.club_id
    else:
        raise ValueError("log_action needs an event or a club")
    user = actor if actor is not None and actor.is_authenticated else None
    return AuditEntry.objects.create(
        club_id=club_id, event=event, actor=user, actor_label=_actor_label(actor), action=action,
        object_type=obj._meta.label_lower if obj is not None else "",
        object_id=str(obj.pk) if obj is not None and obj.pk is not None else "",
        object_repr=describe(obj=obj)[:200] if obj is not None else "",
        before=_jsonable(before) if before is not None else None,
        after=_jsonable(after) if after is not None else None,
    )


# What each action code reads as in the console; a code missing here shows as itself.
ACTION_LABELS = {
    "club.created": _("club created"),
    "event.created": _("event created"),
    "event.changed": _("settings changed"),
    "event.registration_opened": _("published, registration opened"),
    "event.registration_closed": _("registration closed"),
    "event.exported": _("backup downloaded"),
    "event.door_code_reissued": _("door code reissued"),
    "event.imported": _("imported from a backup"),
    "registration.checked_in": _("checked in"),
    "registration.no_show": _("marked a no-show"),
    "registration.absent_no_shows": _("everyone not arrived marked a no-show"),
    "registration.cancelled": _("registration cancelled"),
    "registration.walk_in_added": _("walk-in added"),
    "registration.fixed_table_set": _("fixed table set"),
    "evening.started": _("evening started"),
    "movement.retried": _("movement asked again"),
    "entrant.added": _("late arrival joined"),
    "entrant.left": _("player left"),
    "round.started": _("round started"),
    "round.clock_paused": _("clock paused"),
    "round.clock_resumed": _("clock resumed"),
    "round.ended": _("round ended"),
    "result.correction": _("result corrected"),
    "result.revoke": _("revoke penalty"),
    "result.adjusted": _("score adjusted"),
    "results.published": _("results published"),
    "screen.link_issued": _("screen link issued"),
    "screen.link_revoked": _("screen link revoked"),
    "screen.chime_set": _("screen chime set"),
    "announcement.made": _("announcement"),
    "announcement.taken_down": _("announcement taken down"),
    "table.link_reissued": _("table link reissued"),
    "seat_claim.released": _("seat claim released"),
    "tables.online": _("online tables set"),
    "season.created": _("season created"),
    "season.changed": _("season changed"),
    "season.deleted": _("season deleted"),
    "player.merged": _("players merged"),
}


def action_label(*, action: str) -> str:
    return str(ACTION_LABELS.get(action, action))


PLACE_KEYS = ("round", "table", "hand_number")


def place(*, entry: AuditEntry) -> str:
    """"Round 2 · table 5 · hand 3" for an entry about one hand, else ""."""
    after = entry.after or {}
    if not all(key in after for key in PLACE_KEYS):
        return ""
    return _("Round %(k)s · table %(t)s · hand %(n)s") % {"k": after["round"], "t": after["table"],
                                                         "n": after["hand_number"]}


def changes(*, entry: AuditEntry) -> list[tuple[str, Any, Any]]:
    """(field, before, after) for every key either side names, in a stable order (a hand's
    place aside: `place` says it)."""
    before, after = entry.before or {}, entry.after or {}
    keys = list(before) + [k for k in after if k not in before]
    if place(entry=entry):
        keys = [k for k in keys if k not in PLACE_KEYS]
    return [(k, before.get(k), after.get(k)) for k in keys]


def readable_changes(*, entry: AuditEntry) -> list[tuple[str, Any, Any]]:
    """`changes` as an organiser reads them: each field by its name in the interface (the
    logged row's model, else the event's), choices by their labels, times in the local
    time zone, yes/no, lists joined. The API keeps the stored values."""
    model = _logged_model(entry)
    shown = []
    for name, old, new in changes(entry=entry):
        field = _field(model, name)
        shown.append((_label(field, name), _value(field, name, old), _value(field, name, new)))
    return shown


# What the log writes beside the logged row's fields: counts, flags, another row's fields.
KEY_LABELS = {
    "display_name": _("name"),              # a walk-in's player (the entry is the registration's)
    "category": _("category"),
    "entrants": _("players"),
    "count": _("players"),
    "registrations": _("registrations"),
    "forced": _("ended anyway"),
    "link": _("screen link"),
    "screen_chime": _("chime at the end of the round"),  # the room's screen's (live), logged on its event
    "claims_released": _("seat claims released"),
    "reason": _("reason"),
    "format": _("format"),
    "exported_event": _("event in the backup"),
    "exported_at": _("backup made at"),
    "ew_tricks": _("E-W tricks"),           # a hand's, beside its N-S tricks
    "version": _("version"),
    "round": _("round"),                    # a seat claim's (the entry is its table's)
    "table": _("table"),
    "seat": _("seat"),
    "signed_in": _("signed in"),
    "claimed_at": _("claimed at"),
    "player": _("player"),                  # a merge's: the record removed, the one kept
    "dropped": _("registrations dropped"),
    "evenings": _("evenings"),
}
# Values the log writes as codes: the door code is never logged, only that it is new.
VALUE_LABELS = {("door_code", "new"): _("a new one"),
                # the robot of an evening's empty seats (drive.play's kinds, a floor up)
                ("robot", "rules"): _("rules robot"), ("robot", "random"): _("random robot"),
                ("robot", "strong"): _("strong robot")}


def _label(field: models.Field | None, name: str) -> str:
    if name in KEY_LABELS:
        return str(KEY_LABELS[name])
    return str(field.verbose_name) if field is not None else name.replace("_", " ")


def _value(field: models.Field | None, name: str, value: Any) -> Any:
    if name == "seat":
        return seat_letter(value)
    if isinstance(value, str) and (name, value) in VALUE_LABELS:
        return VALUE_LABELS[(name, value)]
    return _readable(field, value)


def _logged_model(entry: AuditEntry) -> type[models.Model]:
    try:
        return apps.get_model(entry.object_type) if entry.object_type else Event
    except (LookupError, ValueError):
        return Event


def _field(model: type[models.Model], name: str) -> models.Field | None:
    for candidate in (model, Event):
        try:
            field = candidate._meta.get_field(name)
        except FieldDoesNotExist:
            continue
        if field.concrete:  # a reverse relation ("entrants") has no label: KEY_LABELS names it
            return field
    return None


def _readable(field: models.Field | None, value: Any) -> Any:
    if field is not None and field.choices and isinstance(value, (str, int)):
        return dict(field.flatchoices).get(value, value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return ", ".join(str(_readable(None, v)) for v in value)
    if isinstance(value, dict) and set(value) == {"name", "kind"}:  # a prize (drive.events.prizes)
        kind = dict(PrizeKind.choices).get(value["kind"], value["kind"])
        return f"{shown_name(value['name'])} ({kind})"
    if isinstance(value, str) and len(value) >= 19 and value[4:5] == "-" and value[10:11] == "T":
        try:
            moment = datetime.datetime.fromisoformat(value)
        except ValueError:
            return value
        if timezone.is_aware(moment):
            moment = timezone.localtime(moment)
        return formats.date_format(moment, "j M Y H:i")
    return value
