"""Reads of seasons: the evenings that count, their published lines as the pure table takes
them, what a stored table was computed from, and the table as the API and pages show it.
No writes, no permission decisions."""
from __future__ import annotations

from datetime import date, datetime, time, timedelta
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import F, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from drive.events.models import Club, Event, Player
from drive.scoring.models import Standing
from drive.scoring.selectors.standings import fixed_partners
from drive.scoring.standings import pair_unit
from drive.seasons import table
from drive.seasons.models import Season, SeasonStanding, SeasonTable

if TYPE_CHECKING:  # django-stubs' name for a row with annotated values (a test-only package)
    from django_stubs_ext import WithAnnotations

    class _Versioned(TypedDict):
        results_version: int | None  # of its standings; None before any

    VersionedEvent = WithAnnotations[Event, _Versioned]


class EveningEntry(TypedDict):
    event: int
    title: str
    date: str  # the local date of its start, ISO


class TableRow(TypedDict):
    place: int | None
    player_id: int
    name: str
    evenings: int
    counted: int
    score: str
    qualified: bool


class SeasonTableView(TypedDict):
    id: int
    name: str
    evenings: list[EveningEntry]
    rows: list[TableRow]


def club_by_id(club_id: int) -> Club:
    """The club (404 if there is none)."""
    return get_object_or_404(Club, pk=club_id)


def season_by_id(season_id: int) -> Season:
    """The season (404 if there is none), with its club."""
    return get_object_or_404(Season.objects.select_related("club"), pk=season_id)


def club_seasons(club: Club) -> QuerySet[Season]:
    """The club's seasons, the latest first, with their stored tables (what they counted)."""
    return Season.objects.filter(club=club).select_related("table").order_by("-starts_on", "-id")


def local_date(moment: datetime) -> date:
    """The date of a moment in the site's time zone (settings.TIME_ZONE), whoever asks."""
    return timezone.localtime(moment, timezone.get_default_timezone()).date()


def local_bounds(starts_on: date, ends_on: date) -> tuple[datetime, datetime]:
    """[from, until) in the site's time zone: the first moment of `starts_on` and the first
    moment of the day after `ends_on` (both days included)."""
    zone = timezone.get_default_timezone()
    return (datetime.combine(starts_on, time.min, tzinfo=zone),
            datetime.combine(ends_on + timedelta(days=1), time.min, tzinfo=zone))


def counting_events(season: Season) -> QuerySet[VersionedEvent]:
    """The evenings that count for the season: its club's, started on a local date within
    starts_on..ends_on, results published; oldest first, each with `results_version` (of
    its standings; None before any)."""
    since, until = local_bounds(season.starts_on, season.ends_on)
    return (Event.objects.filter(club_id=season.club_id, phase=Event.Phase.RESULTS_PUBLISHED,
                                 starts_at__gte=since, starts_at__lt=until)
            .annotate(results_version=F("standings_state__results_version"))
            .order_by("starts_at", "id"))


def seasons_counting(event: Event) -> list[int]:
    """The ids of the seasons the event's evening falls in (its club's, its local date)."""
    day = local_date(event.starts_at)
    return list(Season.objects.filter(club_id=event.club_id, starts_on__lte=day, ends_on__gte=day)
                .order_by("id").values_list("id", flat=True))


def season_rules(season: Season) -> table.Rules:
    return table.Rules(score=season.score, placing_points=tuple(season.placing_points or ()),
                       best_of=season.best_of, min_evenings=season.min_evenings)


def table_source(season: Season, events: Sequence[VersionedEvent]) -> dict[str, Any]:
    """Everything a season's table is computed from, as JSON stores it: the rules, and each
    counting evening with its results version (a correction raises it), title and date."""
    return {
        "rules": [season.club_id, season.starts_on.isoformat(), season.ends_on.isoformat(), season.score,
                  list(season.placing_points or []), season.best_of, season.min_evenings],
        "events": [[event.pk, event.results_version or 0, event.title, local_date(event.starts_at).isoformat()]
                   for event in events],
    }


def evening_entries(events: Sequence[Event]) -> list[EveningEntry]:
    return [{"event": event.pk, "title": event.title, "date": local_date(event.starts_at).isoformat()}
            for event in events]


def stored_source(season: Season) -> dict[str, Any] | None:
    """What the stored table was computed from; None before the first computation."""
    return SeasonTable.objects.filter(season=season).values_list("source", flat=True).first()


def evening_lines(events: Sequence[Event]) -> list[table.Evening]:
    """Each evening's published lines (its stored standings), keyed by player record: the
    same person across evenings. In a fixed-partner drive the pair is the ranked unit."""
    lines: dict[int, list[table.Line]] = {event.pk: [] for event in events}
    partners = {event.pk: fixed_partners(event) for event in events
                if event.movement_kind == Event.MovementKind.PAIRS}
    rows = Standing.objects.filter(event__in=list(lines)).values_list(
        "event_id", "entrant_id", "entrant__player_id", "place", "total", "hands_played")
    for event_id, entrant_id, player_id, place, total, hands_played in rows:
        unit = pair_unit(entrant_id, partners[event_id]) if event_id in partners else None
        lines[event_id].append(table.Line(player=player_id, place=place, total=total, hands_played=hands_played,
                                          unit=unit))
    return [table.Evening(event=event_id, lines=tuple(found)) for event_id, found in lines.items()]


def player_names(players: set[int]) -> dict[int, str]:
    return dict(Player.objects.filter(pk__in=players).values_list("id", "display_name"))


def season_table(season: Season) -> SeasonTableView:
    """The stored table as the API gives it (services.table makes sure it is fresh first)."""
    stored = SeasonTable.objects.filter(season=season).first()
    rows = SeasonStanding.objects.filter(season=season).select_related("player").order_by("position")
    return {
        "id": season.pk,
        "name": season.name,
        "evenings": list(stored.evenings) if stored is not None else [],
        "rows": [{"place": row.place, "player_id": row.player_id, "name": row.player.display_name,
                  "evenings": row.evenings, "counted": row.counted, "score": f"{row.score:.2f}",
                  "qualified": row.qualified} for row in rows],
    }
