"""The room's screen as stored: no writes, no permission decisions (the token in a
screen's URL is the key; the console's pages check the organiser before they read)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from django.core.cache import cache
from django.db.models import Count

from drive.events.models import Event
from drive.scoring.models import HandResult, Round, Seat
from drive.scoring.selectors.results import leaders

from drive.live.chart import chart
from drive.live.models import Announcement, Screen

T = TypeVar("T")
SEATS_PER_PAGE = 20  # "find your table": two columns of ten at projector size
LINES_PER_PAGE = 10  # standings: the top ten first, then the rest page by page
CHART_SECONDS = 600  # a chart kept for one stored standings (a newer one has its own key)
ANNOUNCEMENT_CHARS_PER_LINE = 45  # an announcement longer than this wraps to a second line


def screen_of(event: Event) -> Screen | None:
    """The event's screen, or None until the organiser makes a link or sets the chime
    (read through the event, so a screen loaded with it costs no query)."""
    try:
        return event.screen
    except Screen.DoesNotExist:
        return None


def screen_token(event: Event) -> str | None:
    """The token of the event's screen link; None when there is none (never made, or revoked)."""
    screen = screen_of(event)
    return screen.token if screen is not None else None


def chimes(event: Event) -> bool:
    """Whether the event's open screens sound a chime when the round clock reaches zero."""
    screen = screen_of(event)
    return screen is not None and screen.chime


def event_for_screen(token: str | None) -> Event | None:
    """The event whose screen link this is, or None (a wrong or revoked link)."""
    if not token:
        return None
    return Event.objects.filter(screen__token=token).select_related("club", "screen").first()


def paged(*, items: Sequence[T], size: int) -> list[Sequence[T]]:
    """Pages of `size` items; a script on the screen turns them."""
    return [items[i:i + size] for i in range(0, len(items), size)]


def lines_taken(*, notes: Iterable[Announcement]) -> int:
    """How many standings lines the announcements on top take from the lists below (all
    sizes follow the screen's height, so this holds on any projector): a one-line
    announcement takes two, a two-line one (the most shown) three."""
    return sum(2 if len(note.text) <= ANNOUNCEMENT_CHARS_PER_LINE else 3 for note in notes)


def leaders_chart(*, event: Event, frame: str, stamp: datetime | None,
                  rounds: int | None = None) -> dict[str, Any] | None:
    """The leaders' running totals, laid out for the chart (None before any hand counts).
    During the evening the x axis runs to the end of the current round, not of the
    evening: early on, one round of five would squeeze the lines into a spike.

    The runs are computed from the hands as the standings are (about 40 ms for 400
    players): once per stored standings (`stamp`, their computed_at), then every screen's
    refreshes reuse them until the next recomputation."""
    key = f"screen-leaders:{event.pk}:{stamp.isoformat()}" if stamp else None
    runs = cache.get(key) if key else None
    if runs is None:
        runs = leaders(event)
        if key:
            cache.set(key, runs, CHART_SECONDS)
    return chart(runs, rounds=rounds or event.rounds, hands_per_round=event.hands_per_round, frame=frame)


class Lazy(Sequence[T]):
    """A list computed when first looked at (a template that finds its rendering in the
    cache never looks)."""

    def __init__(self, compute: Callable[[], Sequence[T]]) -> None:
        self._compute: Callable[[], Sequence[T]] = compute
        self._items: Sequence[T] | None = None

    def _got(self) -> Sequence[T]:
        if self._items is None:
            self._items = self._compute()
        return self._items

    def __getitem__(self, index: Any) -> Any:
        return self._got()[index]

    def __len__(self) -> int:
        return len(self._got())


def seating_list(*, round_: Round) -> list[dict[str, Any]]:
    """Everyone in the round, alphabetically: (name, table number or None, seat label)."""
    seats = Seat.objects.filter(round=round_).select_related("table", "entrant__player")
    rows = [{"name": s.entrant.player.display_name, "table": s.table.number if s.table is not None else None,
             "seat": s.get_position_display() if s.table_id else ""} for s in seats]
    return sorted(rows, key=lambda row: (row["name"].casefold(), row["table"] or 0))


def hands_entered(*, event: Event, round_: Round) -> dict[str, int]:
    """Hands of the round with a result (a disputed one counts as entered), out of all."""
    tables = (Seat.objects.filter(round=round_, table__isnull=False).values("table").distinct().count())
    entered = HandResult.objects.filter(round=round_).aggregate(n=Count("id"))["n"]
    return {"hands_entered": entered, "hands_total": tables * event.hands_per_round}
