"""Reads behind the whist grade: the evenings it rates (every published evening, in order of
play), the hands of one as the pure grade takes them, the stored ratings and what they
were computed from. No writes, no permission decisions."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import F

from drive.events.models import Event
from drive.scoring.models import HandResult, Seat
from drive.scoring.services.results import FINISHED_BY_ROBOTS, PLAYED_ONLINE, STOOD_IN
from drive.seasons import grade
from drive.seasons.models import GradeBook, GradedEvening, GradePoint, PlayerGrade

ONLINE_REASONS = (PLAYED_ONLINE, FINISHED_BY_ROBOTS, STOOD_IN)  # why an online hand's row was written


@dataclass(frozen=True)
class EveningKey:
    """An evening as the grade orders it and knows it changed."""

    event: int
    starts_at: datetime
    results_version: int

    @property
    def order(self) -> tuple[datetime, int]:
        return self.starts_at, self.event


def rated_evenings() -> list[EveningKey]:
    """Every evening with published results, of every club, in order of play (start, id),
    with its results version (0 before any)."""
    rows = (Event.objects.filter(phase=Event.Phase.RESULTS_PUBLISHED)
            .annotate(version=F("standings_state__results_version")).order_by("starts_at", "id")
            .values_list("id", "starts_at", "version"))
    return [EveningKey(event=pk, starts_at=starts_at, results_version=version or 0) for pk, starts_at, version in rows]


def graded_evenings() -> list[GradedEvening]:
    """The evenings the stored grades rated, in the order they were rated."""
    return list(GradedEvening.objects.order_by("starts_at", "event_id"))


def key_of(evening: GradedEvening) -> EveningKey:
    return EveningKey(event=evening.event_id, starts_at=evening.starts_at, results_version=evening.results_version)


def evening_hands(event_id: int) -> list[grade.Hand]:
    """The hands of one evening that rate its players, in order (round, table, hand): every
    hand that counts in its published standings (a disputed one does not) with four players
    seated, but those robots played a part of:

    - a hand flagged as robots' (finished by robots at the deadline, or a robot stood in
      for an absent person), now or in any earlier version of the row (an organiser's
      later correction of its tricks does not make the hand the people's);
    - a hand played online at which a seat's player has no active account: a robot
      played that seat (drive.games seats robots there).
    """
    seats: dict[tuple[int, int], dict[str, tuple[int, bool]]] = {}
    rows = (Seat.objects.filter(round__event_id=event_id, table__isnull=False)
            .values_list("round__number", "table__number", "position", "entrant__player_id",
                         "entrant__player__user__is_active"))
    for round_number, table, position, player, active in rows:
        seats.setdefault((round_number, table), {})[position] = (player, bool(active))
    results = (HandResult.objects.filter(round__event_id=event_id).exclude(status=HandResult.Status.DISPUTED)
               .values_list("id", "round__number", "table__number", "hand_number", "ns_tricks", "change_kind"))
    history = HandResult.history.filter(round__event_id=event_id)
    by_robots = set(history.filter(change_kind=HandResult.ChangeKind.ROBOTS).values_list("id", flat=True))
    online = set(history.filter(history_change_reason__in=ONLINE_REASONS).values_list("id", flat=True))
    hands = []
    for pk, round_number, table, hand_number, ns_tricks, kind in sorted(results, key=lambda r: (r[1], r[2], r[3])):
        seated = seats.get((round_number, table), {})
        if len(seated) != 4 or kind == HandResult.ChangeKind.ROBOTS or pk in by_robots:
            continue
        if pk in online and not all(active for _, active in seated.values()):
            continue
        hands.append(grade.Hand(ns=(seated["N"][0], seated["S"][0]), ew=(seated["E"][0], seated["W"][0]),
                                ns_tricks=ns_tricks))
    return hands


def stored_ratings() -> dict[int, grade.Rating]:
    """{player: Rating} now: after every graded evening."""
    return {player: grade.Rating(mu=mu, sigma=sigma, hands=hands)
            for player, mu, sigma, hands in PlayerGrade.objects.values_list("player_id", "mu", "sigma", "hands")}


def ratings_after(evenings: Iterable[GradedEvening]) -> dict[int, grade.Rating]:
    """{player: Rating} as they stood after `evenings` (graded, in order): each player's
    last grade point among them."""
    order = {evening.pk: position for position, evening in enumerate(evenings)}
    points = GradePoint.objects.filter(evening_id__in=list(order)).values_list(
        "evening_id", "player_id", "mu", "sigma", "hands")
    ratings: dict[int, grade.Rating] = {}
    for _, player, mu, sigma, hands in sorted(points, key=lambda p: (order[p[0]], p[1])):
        ratings[player] = grade.Rating(mu=mu, sigma=sigma, hands=hands)
    return ratings


def field_average() -> float:
    """The field's mean mu after the last graded evening (the prior's before any)."""
    last = GradedEvening.objects.order_by("-starts_at", "-event_id").values_list("average", flat=True).first()
    return grade.MU if last is None else last


def evenings_rated() -> int:
    """How many evenings the stored ratings rest on (GradeBook.evenings; 0 before any)."""
    return GradeBook.objects.filter(pk=1).values_list("evenings", flat=True).first() or 0
