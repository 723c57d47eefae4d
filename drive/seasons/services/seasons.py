"""A club's seasons: created, changed and deleted by its organisers.

Each function takes keyword arguments, checks the actor's permission, runs in one
transaction, leaves an audit entry and, once it commits, has the season's table
recomputed (services.table). Deleting a season never touches its evenings.
"""
from __future__ import annotations

from datetime import date
from typing import Any, TypeGuard

from django.db import transaction
from django.utils.translation import gettext as _

from drive.core.accounts import User
from drive.core.errors import Invalid, NotFound
from drive.core.names import clean_name
from drive.events.access import require_organiser
from drive.events.models import Club
from drive.events.services.audit import changed, log_action, snapshot
from drive.seasons.models import Season
from drive.seasons.services.table import table_changed

SEASON_FIELDS = ("name", "starts_on", "ends_on", "score", "placing_points", "best_of", "min_evenings")
MIN_YEAR, MAX_YEAR = 2000, 2100  # as the events' dates: far dates overflow time zones and are always typos
MOST_PLACES = 200  # points for this many places at most
MOST_POINTS = 10_000  # for one place
MOST_EVENINGS = 10_000  # best_of, min_evenings


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def settings_problems(*, values: dict[str, Any]) -> dict[str, str]:
    """{field: message} of what is wrong with a season's settings (the API, the admin's
    form and the services share it); {} when they are right."""
    problems: dict[str, str] = {}
    starts_on, ends_on = values.get("starts_on"), values.get("ends_on")
    for name, day in (("starts_on", starts_on), ("ends_on", ends_on)):
        if not isinstance(day, date):
            problems[name] = _("Give a date.")
        elif not MIN_YEAR <= day.year <= MAX_YEAR:
            problems[name] = _("Give a date between %(a)s and %(b)s.") % {"a": MIN_YEAR, "b": MAX_YEAR}
    if (isinstance(starts_on, date) and isinstance(ends_on, date) and not problems  # both dates, in range
            and ends_on < starts_on):
        problems["ends_on"] = _("The season cannot end before it starts.")
    score = values.get("score")
    if score not in Season.Score.values:
        problems["score"] = _("Choose how an evening scores: placing_points, total or average.")
    points = values.get("placing_points")
    if points is None:
        points = []
    if not isinstance(points, list) or not all(_whole(p) for p in points):
        problems["placing_points"] = _("Give the points as a list of whole numbers.")
    elif score == Season.Score.PLACING_POINTS and not points:
        problems["placing_points"] = _("Give the points of each place, from the first: e.g. 10, 8, 6.")
    elif len(points) > MOST_PLACES:
        problems["placing_points"] = _("Give points for %(n)s places at most.") % {"n": MOST_PLACES}
    elif any(p < 0 for p in points):
        problems["placing_points"] = _("Points cannot be negative.")
    elif any(p > MOST_POINTS for p in points):
        problems["placing_points"] = _("Give at most %(n)s points for a place.") % {"n": MOST_POINTS}
    elif any(later > earlier for earlier, later in zip(points, points[1:])):
        problems["placing_points"] = _("A place cannot score more than the place above it.")
    best_of = values.get("best_of")
    if best_of is not None and (not _whole(best_of) or not 1 <= best_of <= MOST_EVENINGS):
        problems["best_of"] = _("Give a whole number of evenings from 1 to %(n)s, or nothing for every "
                                "evening.") % {"n": MOST_EVENINGS}
    min_evenings = values.get("min_evenings")
    if not _whole(min_evenings) or not 1 <= min_evenings <= MOST_EVENINGS:
        problems["min_evenings"] = _("Give a whole number of evenings from 1 to %(n)s.") % {"n": MOST_EVENINGS}
    return problems


def _validate(season: Season) -> None:
    """Invalid naming the first wrong field, with the others' messages beside it."""
    season.name = clean_name(season.name, field="name")
    longest = Season._meta.get_field("name").max_length
    if longest is not None and len(season.name) > longest:
        raise Invalid(_("Keep the name to %(n)s characters or fewer.") % {"n": longest},
                      field="name")
    problems = settings_problems(values={name: getattr(season, name) for name in SEASON_FIELDS})
    if problems:
        (field, message), *others = problems.items()
        raise Invalid(message, field=field, extra={name: [text] for name, text in others})
    season.placing_points = list(season.placing_points or [])


@transaction.atomic
def create_season(*, actor: User, club: Club, name: str, starts_on: date, ends_on: date, score: str,
                  placing_points: list[int] | None = None, best_of: int | None = None,
                  min_evenings: int = 1) -> Season:
    """A new season of the club; its table follows (a task, once committed)."""
    require_organiser(actor, club)
    season = Season(club=club, name=name, starts_on=starts_on, ends_on=ends_on, score=score,
                    placing_points=placing_points, best_of=best_of, min_evenings=min_evenings)
    _validate(season)
    season.save()
    log_action(actor=actor, event=None, club=club, action="season.created", obj=season,
               after=snapshot(obj=season, fields=SEASON_FIELDS))
    table_changed(season_id=season.pk)
    return season


def _locked(season: Season) -> Season:
    found = Season.objects.select_for_update().select_related("club").filter(pk=season.pk).first()
    if found is None:
        raise NotFound(_("No such season."))
    return found


@transaction.atomic
def update_season(*, actor: User, season: Season, **fields: Any) -> Season:
    """Change any of the season's settings; the table follows."""
    require_organiser(actor, season.club)
    season = _locked(season)
    unknown = set(fields) - set(SEASON_FIELDS)
    if unknown:
        raise Invalid(_("Unknown fields: %s") % ", ".join(sorted(unknown)))
    before = snapshot(obj=season, fields=list(fields))
    for name, value in fields.items():
        setattr(season, name, value)
    _validate(season)
    season.save()
    old, new = changed(before=before, after=snapshot(obj=season, fields=list(fields)))
    if new:
        log_action(actor=actor, event=None, club=season.club, action="season.changed", before=old, after=new,
                   obj=season)
        table_changed(season_id=season.pk)
    return season


@transaction.atomic
def delete_season(*, actor: User, season: Season) -> None:
    """Remove the season and its table; its evenings (the events and their results) stay."""
    require_organiser(actor, season.club)
    season = _locked(season)
    log_action(actor=actor, event=None, club=season.club, action="season.deleted", obj=season,
               before=snapshot(obj=season, fields=SEASON_FIELDS))
    season.delete()
