"""Keeping a season's table up with its evenings: computed whole from the published
results (drive.seasons.table), stored, and recomputed when anything it reads changes.

A change (the season's rules, an evening published or corrected) asks for a Celery task
once it commits (`table_changed`); a broker that cannot take it is logged, never raised,
so the change still answers 2xx. A read never shows a table behind its inputs: it
compares what the stored table was computed from with the rows now (`fresh_table`) and
recomputes first when they differ, as final standings are.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from drive.core import jobs
from drive.scoring.services.freshness import fresh_standings
from drive.seasons import table
from drive.seasons.models import Season, SeasonStanding, SeasonTable
from drive.seasons.selectors import seasons as selectors

RECOMPUTE_SEASON_TASK = "drive.seasons.tasks.recompute_season"


def table_changed(*, season_id: int) -> None:
    """Inside the change's transaction: the table is recomputed by a task once it commits."""
    jobs.after_commit(RECOMPUTE_SEASON_TASK, season_id)


@transaction.atomic
def recompute_season(*, season_id: int, only_if_stale: bool = False) -> int | None:
    """Compute the season's table from scratch and store it; the number of rows, or None
    when the season is gone (deleted meanwhile) or, `only_if_stale`, the table is fresh.
    Safe to run twice or out of order: the season's row serialises the computations."""
    season = Season.objects.select_for_update().filter(pk=season_id).first()
    if season is None:
        return None
    # The versions first, then the rows: a correction landing between them makes the
    # stored source older than the rows, and the next read computes again.
    events = list(selectors.counting_events(season))
    source = selectors.table_source(season, events)
    if only_if_stale and selectors.stored_source(season) == source:
        return None
    for event in events:
        fresh_standings(event=event)  # published standings behind their results are recomputed first
    evenings = selectors.evening_lines(events)
    names = selectors.player_names({line.player for evening in evenings for line in evening.lines})
    rows = table.compute(evenings, selectors.season_rules(season), names)
    SeasonStanding.objects.filter(season=season).delete()
    SeasonStanding.objects.bulk_create(
        SeasonStanding(season=season, player_id=row.player, position=position, place=row.place,
                       evenings=row.evenings, counted=row.counted, score=row.score, qualified=row.qualified)
        for position, row in enumerate(rows, start=1))
    SeasonTable.objects.update_or_create(season=season, defaults={
        "source": source, "evenings": selectors.evening_entries(events), "computed_at": timezone.now()})
    return len(rows)


def fresh_table(*, season: Season) -> None:
    """Before a read: a table never computed, or behind what it is computed from (a lost
    task, Redis down), is recomputed now."""
    events = list(selectors.counting_events(season))
    if selectors.stored_source(season) != selectors.table_source(season, events):
        recompute_season(season_id=season.pk, only_if_stale=True)
