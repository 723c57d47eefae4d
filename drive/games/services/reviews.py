"""The double-dummy review of a finished hand of an online table, computed once by a
worker and stored (PlayHandReview): the hand history only reads it (issue 19: the page
ran the review on every GET, 0.5-2.7 s each).

A hand's last action asks for its review after commit (`review_after_commit`); a page
that finds none, an older table's hand, asks again at most once a minute
(`ask_review`). The task may run twice: the first run stores, a second does nothing."""
from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db import transaction

from drive.core.jobs import task
from engine import EngineError, GameState, Phase, analyse
from drive.games.models import PlayHandReview, PlayTable
from drive.games.selectors.tables import hand_records

REVIEW_TASK = "drive.games.tasks.review_hand"
ASK_AGAIN_SECONDS = 60  # a page asks a worker for one hand's missing review at most this often


def store_review(*, table_id: int, hand: int) -> bool:
    """Compute the review of the table's `hand` (numbered from 1) and store it, once.
    False, and nothing computed, when it is stored already or the hand is not finished."""
    if PlayHandReview.objects.filter(table_id=table_id, hand=hand).exists():
        return False
    table = PlayTable.objects.filter(pk=table_id).first()
    records = hand_records(table) if table is not None else []
    if not 1 <= hand <= len(records):
        return False
    # Seconds of double dummy, outside any transaction; two runs at once meet at the
    # unique (table, hand) and the second keeps the first one's row.
    computed = _review(records[hand - 1]["record"])
    _, created = PlayHandReview.objects.get_or_create(table=table, hand=hand, defaults={"review": computed})
    return created


def _review(record: dict[str, Any]) -> dict[str, Any] | None:
    """The review of the record's last hand; None where none applies (two or three hands
    in play, two-card tricks)."""
    try:
        return analyse(record)
    except EngineError:
        return None


def hand_ended(*, game: GameState) -> int | None:
    """The number of the hand the last action ended (before the next is dealt), else None."""
    return len(game.deals) if game.phase in (Phase.SCORED, Phase.OVER) else None


def review_after_commit(*, table_id: int, hand: int) -> None:
    """The ended hand's review is asked of a worker once the action commits."""
    transaction.on_commit(lambda: task(REVIEW_TASK).delay(table_id, hand), robust=True)


def ask_review(*, table_id: int, hand: int) -> bool:
    """A page found no review of the hand: ask a worker for it, at most once a minute a
    hand (the cache remembers; a broker that cannot take it is logged). With eager Celery
    (the embedded default) it is computed here and now."""
    if not cache.add(f"play:review-asked:{table_id}:{hand}", True, ASK_AGAIN_SECONDS):
        return False
    transaction.on_commit(lambda: task(REVIEW_TASK).delay(table_id, hand), robust=True)
    return True
