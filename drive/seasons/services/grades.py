"""Keeping the players' whist grades up with the published evenings (drive.seasons.grade).

The stored grades say what they were computed from: each rated evening (GradedEvening)
with its start and results version, and each player's rating after every evening they
played in (GradePoint). An update compares that with the published evenings now, in order
of play, keeps everything before the first evening that differs (a new one, a corrected
one, one gone or moved), starts again from the ratings as they stood there, and rates
from that evening on. An evening published after the others (the usual case) rates its
own hands onto the stored ratings and nothing else; a correction of an older evening
replays from it; `from_scratch` replays everything. Either way the floats come out the
same as rating every hand from the first (tests/seasons/test_grade_follow.py).

A published or corrected evening (the `results_changed` signal) asks for the update by a
Celery task once it commits; a read never shows grades behind the evenings
(`fresh_grades`). The GradeBook row serialises the computations.
"""
from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from drive.core import jobs
from drive.seasons import grade
from drive.seasons.models import GradeBook, GradedEvening, GradePoint, PlayerGrade
from drive.seasons.selectors import grades as selectors

UPDATE_GRADES_TASK = "drive.seasons.tasks.update_grades"


def grades_changed() -> None:
    """Inside a change's transaction, or after it: the grades are updated by a task once
    it commits (a broker down is logged, and the next read updates them)."""
    jobs.after_commit(UPDATE_GRADES_TASK)


def evening_results_changed(*, sender: type, event_id: int, **kwargs: Any) -> None:
    """The receiver of `results_changed` (sent after commit): have the grades follow."""
    grades_changed()


def _first_difference(wanted: list[selectors.EveningKey], stored: list[GradedEvening]) -> int:
    for index, (key, evening) in enumerate(zip(wanted, stored)):
        if key != selectors.key_of(evening):
            return index
    return min(len(wanted), len(stored))


@transaction.atomic
def update_grades(*, from_scratch: bool = False) -> int | None:
    """Bring the stored grades up to the published evenings; the number of evenings rated,
    or None when nothing had changed. Safe to run twice or at once: the second waits for
    the first and finds nothing to do."""
    book, _ = GradeBook.objects.select_for_update().get_or_create(pk=1)
    wanted = selectors.rated_evenings()
    stored = selectors.graded_evenings()
    trusted = book.evenings == len(stored)  # no graded evening went away with its event
    keep = 0 if from_scratch else _first_difference(wanted, stored)
    if trusted and keep == len(wanted) == len(stored):
        return None
    # The ratings as they stood after the evenings kept: the stored ones when all are kept.
    before = selectors.stored_ratings()
    ratings = dict(before) if trusted and keep == len(stored) else selectors.ratings_after(stored[:keep])
    GradedEvening.objects.filter(pk__in=[evening.pk for evening in stored[keep:]]).delete()  # their points with them
    for key in wanted[keep:]:
        hands = selectors.evening_hands(key.event)
        ratings, moved = grade.rate(ratings, hands)
        evening = GradedEvening.objects.create(event_id=key.event, starts_at=key.starts_at,
                                               results_version=key.results_version, hands=len(hands),
                                               average=grade.average(ratings))
        GradePoint.objects.bulk_create(
            GradePoint(evening=evening, player_id=player, mu=ratings[player].mu, sigma=ratings[player].sigma,
                       hands=ratings[player].hands) for player in sorted(moved))
    _store(before, ratings)
    book.computed_at, book.evenings = timezone.now(), len(wanted)
    book.save(update_fields=["computed_at", "evenings"])
    return len(wanted) - keep


def _store(before: dict[int, grade.Rating], after: dict[int, grade.Rating]) -> None:
    """The players' ratings now: only the rows that changed are written."""
    gone = [player for player in before if player not in after]
    PlayerGrade.objects.filter(player_id__in=gone).delete()
    changed = {player: rating for player, rating in after.items() if before.get(player) != rating}
    rows = {row.player_id: row for row in PlayerGrade.objects.filter(player_id__in=list(changed))}
    now = timezone.now()
    for player, row in rows.items():
        row.mu, row.sigma, row.hands, row.updated_at = changed[player].mu, changed[player].sigma, changed[player].hands, now
    PlayerGrade.objects.bulk_update(list(rows.values()), ["mu", "sigma", "hands", "updated_at"], batch_size=500)
    PlayerGrade.objects.bulk_create(
        PlayerGrade(player_id=player, mu=rating.mu, sigma=rating.sigma, hands=rating.hands)
        for player, rating in sorted(changed.items()) if player not in rows)


def fresh_grades() -> None:
    """Before a read: grades behind the published evenings (a lost task, Redis down) are
    brought up to them now."""
    stored = selectors.graded_evenings()
    wanted = selectors.rated_evenings()
    behind = len(wanted) != len(stored) or _first_difference(wanted, stored) != len(wanted)
    if behind or selectors.evenings_rated() != len(stored):
        update_grades()
