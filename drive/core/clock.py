"""The round clock: time left, how it is written, when it warns. One definition for the
Python pages; the scripts read the warning from the page (`data-warn-seconds`)."""
from __future__ import annotations

from datetime import datetime
from typing import Protocol

from django.utils import timezone

WARN_SECONDS = 120  # the clock turns to its warning style in the last two minutes


class Timed(Protocol):
    """What the clock reads of a round (the scoring app's Round, a floor up)."""

    @property
    def deadline(self) -> datetime | None: ...

    @property
    def paused_at(self) -> datetime | None: ...


def seconds_left(round_: Timed, now: datetime | None = None) -> int | None:
    """Seconds to the round's deadline (frozen while paused); None before it starts."""
    if round_.deadline is None:
        return None
    now = round_.paused_at or now or timezone.now()
    return max(0, int((round_.deadline - now).total_seconds()))


def clock_text(seconds: int | float) -> str:
    """"m:ss" (or "h:mm:ss"): what the clock shows before its script takes over."""
    minutes, secs = divmod(max(0, int(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"

