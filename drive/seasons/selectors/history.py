"""Reads of one player's history across evenings: every published evening they played
(place of how many, total, hands, prizes), the season tables they are in, their grade now
and after each evening. No writes, no permission decisions (drive.seasons.access)."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, TypedDict

from django.db.models import Count, OuterRef, Q, Subquery
from django.shortcuts import get_object_or_404

from drive.events.models import Event, Player
from drive.scoring.models import Standing
from drive.scoring.selectors.results import standings
from drive.scoring.selectors.standings import Freshness
from drive.seasons import grade
from drive.seasons.models import GradePoint, PlayerGrade, Season, SeasonStanding
from drive.seasons.selectors.grades import field_average
from drive.seasons.selectors.seasons import local_date

if TYPE_CHECKING:  # django-stubs' name for a row with annotated values (a test-only package)
    from django_stubs_ext import WithAnnotations

    class _Placed(TypedDict):
        of: int  # the lines placed that evening

    PlacedStanding = WithAnnotations[Standing, _Placed]

ONE_PLACE = Decimal("0.1")


class EveningLine(TypedDict):
    event: int
    title: str
    date: str  # the local date of its start, ISO
    place: int
    of: int  # the players placed that evening
    total: Decimal
    hands_played: int


class GradeView(TypedDict):
    value: float | None  # None before a rated hand
    provisional: bool
    hands: int


class History(TypedDict):
    player_id: int
    name: str
    evenings: list[EveningLine]
    grade: GradeView


class GradeStep(TypedDict):
    day: date  # the evening's local date
    event: int
    title: str
    value: float
    hands: int
    provisional: bool


def player_by_id(player_id: int) -> Player:
    """The player (404 if there is none)."""
    return get_object_or_404(Player.objects.select_related("user"), pk=player_id)


def player_clubs(player: Player) -> set[int]:
    """The ids of the player's clubs: the club of the record (a walk-in's), and every club
    they registered for or played an evening of."""
    clubs = set(Event.objects.filter(Q(registrations__player=player) | Q(entrants__player=player))
                .values_list("club_id", flat=True).distinct())
    if player.club_id is not None:
        clubs.add(player.club_id)
    return clubs


def published_events(player: Player) -> list[Event]:
    """The published evenings the player played (an entrant), newest first."""
    return list(Event.objects.filter(entrants__player=player, phase=Event.Phase.RESULTS_PUBLISHED)
                .order_by("-starts_at", "-id"))


def club_seasons(player: Player) -> list[Season]:
    """The seasons of the player's clubs."""
    return list(Season.objects.filter(club_id__in=player_clubs(player)).order_by("id"))


def published_standings(player: Player) -> list[PlacedStanding]:
    """The player's lines of every published evening, newest first, each with its event
    and `of` (the lines placed that evening)."""
    placed = (Standing.objects.filter(event=OuterRef("event")).order_by().values("event")
              .annotate(n=Count("pk")).values("n"))
    return list(Standing.objects.filter(entrant__player=player, event__phase=Event.Phase.RESULTS_PUBLISHED)
                .select_related("event").annotate(of=Subquery(placed))
                .order_by("-event__starts_at", "-event_id"))


def evening_lines(lines: list[PlacedStanding]) -> list[EveningLine]:
    return [{"event": line.event_id, "title": line.event.title, "date": local_date(line.event.starts_at).isoformat(),
             "place": line.place, "of": line.of, "total": line.total, "hands_played": line.hands_played}
            for line in lines]


def prizes_won(player: Player, lines: Sequence[Standing], fresh: dict[int, Freshness]) -> dict[int, list[str]]:
    """{event: names of the prizes the player took}, as the published results award them
    (`fresh`: services have made sure of each evening's standings)."""
    won: dict[int, list[str]] = {}
    for line in lines:
        if not line.event.prizes:
            continue
        table = standings(line.event, fresh[line.event_id])
        mine = next((found for found in table["lines"] if found.entrant_id == line.entrant_id), None)
        if mine is not None and mine.prizes:
            won[line.event_id] = list(mine.prizes)
    return won


def grade_of(player: Player) -> GradeView:
    """The player's grade now (services.grades makes sure it is fresh first)."""
    stored = PlayerGrade.objects.filter(player=player).first()
    if stored is None:
        return {"value": None, "provisional": True, "hands": 0}
    rating = grade.Rating(mu=stored.mu, sigma=stored.sigma, hands=stored.hands)
    return {"value": shown(grade.grade(rating, field_average())), "provisional": grade.provisional(stored.hands),
            "hands": stored.hands}


def shown(value: float) -> float:
    """A grade as it is shown: one decimal place, rounded half up."""
    return float(Decimal(repr(value)).quantize(ONE_PLACE, rounding="ROUND_HALF_UP"))


def grade_steps(player: Player) -> list[GradeStep]:
    """The player's grade after each evening they played rated hands in, oldest first
    (each against the field as it stood after that evening)."""
    points = (GradePoint.objects.filter(player=player).select_related("evening__event")
              .order_by("evening__starts_at", "evening__event_id"))
    return [{"day": local_date(point.evening.starts_at), "event": point.evening.event_id,
             "title": point.evening.event.title,
             "value": shown(grade.grade(grade.Rating(mu=point.mu, sigma=point.sigma, hands=point.hands),
                                        point.evening.average)),
             "hands": point.hands, "provisional": grade.provisional(point.hands)} for point in points]


def season_rows(player: Player) -> list[SeasonStanding]:
    """The player's rows of the season tables (services.table makes them fresh first), the
    latest season first."""
    return list(SeasonStanding.objects.filter(player=player).select_related("season__club")
                .order_by("-season__starts_on", "-season_id"))


def history(player: Player) -> History:
    """What GET /api/players/<id>/history/ gives."""
    return {"player_id": player.pk, "name": player.display_name,
            "evenings": evening_lines(published_standings(player)), "grade": grade_of(player)}
