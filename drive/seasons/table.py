"""The season table from plain data: pure Python, no Django, no ORM (issue 22).

An evening gives each player who played in it a score, from its published results:

- ``placing_points``: the points of the player's place (``points[place - 1]``, 0 beyond
  the list); the units tied for a place share the points of the places they fill,
  averaged (two tied 2nd with [10, 8, 6] get 7 each). A unit is what the evening ranked:
  the player, or in a fixed-partner drive the pair (both partners get the pair's points);
- ``total``: the published total;
- ``average``: the published total divided by the hands the player played.

The season's score is the sum of the player's best ``best_of`` evening scores (all of them
when ``best_of`` is None); for ``average`` the mean of them. A player is qualified with
at least ``min_evenings`` evenings. Qualified rows come first, by score descending, places
1, 2, 2, 4 (scores compared after rounding to two places, half up); then the others by
score descending with no place. Everything is exact (fractions) until that rounding.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

PLACING_POINTS = "placing_points"
TOTAL = "total"
AVERAGE = "average"
SCORES = (PLACING_POINTS, TOTAL, AVERAGE)


@dataclass(frozen=True)
class Line:
    """One player's line of one evening's published results."""

    player: int
    place: int
    total: Decimal | Fraction | int
    hands_played: int
    unit: int | None = None  # what the evening ranked (a fixed pair); None: the player alone


@dataclass(frozen=True)
class Evening:
    event: int
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Rules:
    score: str
    placing_points: tuple[int, ...] = ()
    best_of: int | None = None  # None: every evening counts
    min_evenings: int = 1

    def __post_init__(self) -> None:
        if self.score not in SCORES:
            raise ValueError(f"unknown score {self.score!r}")


@dataclass(frozen=True)
class Row:
    place: int | None  # None: not qualified
    player: int
    evenings: int  # evenings played in the season
    counted: int  # those in the score (at most best_of)
    score: Decimal  # two places, rounded half up
    qualified: bool
    exact: Fraction  # the score before rounding


def rounded(value: Fraction | Decimal | int) -> Decimal:
    """Two decimal places, rounded half up (a half goes away from zero), from the exact value."""
    value = Fraction(value)
    cents = abs(value) * 100
    whole = cents.numerator // cents.denominator
    if (cents - whole) * 2 >= 1:
        whole += 1
    return Decimal(-whole if value < 0 else whole).scaleb(-2)


def points_of(place: int, points: Sequence[int]) -> int:
    """The points of one place: ``points[place - 1]``, 0 beyond the list."""
    return points[place - 1] if 1 <= place <= len(points) else 0


def placing_points(lines: Iterable[Line], points: Sequence[int]) -> dict[int, Fraction]:
    """{player: points} of one evening: the units sharing a place share the points of the
    places they fill (places p .. p + k - 1 for k units tied at p), averaged."""
    units_at: dict[int, set[int]] = defaultdict(set)
    lines = list(lines)
    for line in lines:
        units_at[line.place].add(line.player if line.unit is None else line.unit)
    share = {}
    for place, units in units_at.items():
        filled = range(place, place + len(units))
        share[place] = Fraction(sum(points_of(p, points) for p in filled), len(units))
    return {line.player: share[line.place] for line in lines}


def evening_scores(evening: Evening, rules: Rules) -> dict[int, Fraction]:
    """{player: score} of the players who played in the evening (a hand or more)."""
    played = [line for line in evening.lines if line.hands_played > 0]
    if rules.score == PLACING_POINTS:
        shares = placing_points(evening.lines, rules.placing_points)  # the places as published
        return {line.player: shares[line.player] for line in played}
    if rules.score == TOTAL:
        return {line.player: Fraction(line.total) for line in played}
    return {line.player: Fraction(line.total) / line.hands_played for line in played}


def season_score(scores: Sequence[Fraction], rules: Rules) -> tuple[Fraction, int]:
    """(score, evenings counted) from one player's evening scores: the best ``best_of``."""
    best = sorted(scores, reverse=True)
    if rules.best_of is not None:
        best = best[:rules.best_of]
    total = sum(best, Fraction(0))
    if rules.score == AVERAGE:
        return (total / len(best) if best else Fraction(0)), len(best)
    return total, len(best)


def compute(evenings: Iterable[Evening], rules: Rules, names: Mapping[int, str] | None = None) -> list[Row]:
    """The season table: every player with at least one evening, qualified rows first.
    `names` ({player: name}) orders the rows of one score alphabetically (then by id)."""
    names = names or {}
    by_player: dict[int, list[Fraction]] = defaultdict(list)
    for evening in evenings:
        for player, score in evening_scores(evening, rules).items():
            by_player[player].append(score)
    rows = []
    for player, scores in by_player.items():
        exact, counted = season_score(scores, rules)
        rows.append(Row(place=None, player=player, evenings=len(scores), counted=counted, score=rounded(exact),
                        qualified=len(scores) >= rules.min_evenings, exact=exact))

    def order(row: Row) -> tuple[Decimal, str, int]:
        return -row.score, names.get(row.player, "").casefold(), row.player

    qualified = sorted((row for row in rows if row.qualified), key=order)
    placed, previous, place = [], None, 0
    for index, row in enumerate(qualified, start=1):
        if row.score != previous:
            place, previous = index, row.score
        placed.append(Row(place=place, player=row.player, evenings=row.evenings, counted=row.counted,
                          score=row.score, qualified=True, exact=row.exact))
    return placed + sorted((row for row in rows if not row.qualified), key=order)
