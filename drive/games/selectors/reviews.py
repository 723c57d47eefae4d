"""The stored double-dummy review of a finished hand (drive.games.services.reviews makes
it): read only, never computed here."""
from __future__ import annotations

from drive.games.models import PlayHandReview


def stored_review(*, table_id: int, hand: int) -> PlayHandReview | None:
    """The hand's stored review row (its `review` is None where no review applies), or
    None while none is stored yet."""
    return PlayHandReview.objects.filter(table_id=table_id, hand=hand).first()
