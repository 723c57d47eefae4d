"""The room's screen: the secret screen link and what the projector shows.

Services (`issue_screen_link`, `revoke_screen_link`) check the organiser themselves, one
transaction each. `screen_state` is a read: no writes, no permission decisions (the
token in the URL is the key). The live page lives on the top floor: it reads events
and scoring, nothing below reaches up to it.
"""
import secrets
from collections.abc import Sequence

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Count

from drive.scoring.services.freshness import fresh_standings
from drive.core.clock import WARN_SECONDS, clock_text, seconds_left
from drive.core import broadcast
from drive.events.services.audit import log_action
from drive.events.models import Event, Registration
from drive.events.access import require_organiser
from drive.scoring.selectors.rounds import current_round
from drive.scoring.models import HandResult, Round, Seat
from drive.scoring.selectors.results import leaders, standings, standings_stamp

from drive.live.services.announcements import on_screen
from drive.live.selectors.screen import chimes
from drive.live.models import Screen
from drive.live.chart import chart

Phase = Event.Phase
State = Round.State
SEATS_PER_PAGE = 20  # "find your table": two columns of ten at projector size
LINES_PER_PAGE = 10  # standings: the top ten first, then the rest page by page
CHART_SECONDS = 600  # a chart kept for one stored standings (a newer one has its own key)
ANNOUNCEMENT_CHARS_PER_LINE = 45  # an announcement longer than this wraps to a second line


def paged(items, size):
    """Pages of `size` items; a script on the screen turns them."""
    return [items[i:i + size] for i in range(0, len(items), size)]


def new_screen_token():
    return secrets.token_urlsafe(24)  # 192 bits: not guessable from the room or outside


def _locked_screen(event: Event) -> tuple[Event, Screen]:
    """The event (locked: one write to its screen at a time, the first one included) and
    its screen, made on first use."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    screen = Screen.objects.filter(event=event).first() or Screen()
    screen.event = event  # the returned event's `screen` is this one
    return event, screen


@transaction.atomic
def issue_screen_link(*, actor, event):
    """A new screen link for the event; any earlier one stops working at once."""
    require_organiser(actor, event.club)
    event, screen = _locked_screen(event)
    had_link = bool(screen.token)
    screen.token = new_screen_token()
    screen.save()
    # Never the token itself: the log is read by every organiser, the link is a key.
    log_action(actor=actor, event=event, action="screen.link_issued", before={"link": had_link},
               after={"link": True}, obj=event)
    broadcast.publish(event.pk, broadcast.Change.SCREEN)
    return event


@transaction.atomic
def revoke_screen_link(*, actor, event):
    """No screen link: an open screen shows "not found" on its next refresh."""
    require_organiser(actor, event.club)
    event, screen = _locked_screen(event)
    had_link = bool(screen.token)
    screen.token = None
    screen.save()
    log_action(actor=actor, event=event, action="screen.link_revoked", before={"link": had_link},
               after={"link": False}, obj=event)
    broadcast.publish(event.pk, broadcast.Change.SCREEN)
    return event


def lines_taken(notes):
    """How many standings lines the announcements on top take from the lists below (all
    sizes follow the screen's height, so this holds on any projector): a one-line
    announcement takes two, a two-line one (the most shown) three."""
    return sum(2 if len(note.text) <= ANNOUNCEMENT_CHARS_PER_LINE else 3 for note in notes)


def screen_state(event, now=None):
    """What the screen shows now: {"state": "before" | "seating" | "playing" | "between" |
    "finished" | "published", ...} with that state's data, and the announcements on top."""
    notes = on_screen(event)
    taken = lines_taken(notes)
    base = {"event": event, "announcements": notes, "chime": chimes(event)}
    if event.phase == Phase.REGISTRATION:
        checked_in = event.registrations.filter(status=Registration.Status.CHECKED_IN).count()
        return {**base, "state": "before", "checked_in": checked_in}
    if event.phase == Phase.RESULTS_PUBLISHED:
        table = standings(event, fresh_standings(event=event))
        return {**base, "state": "published", **table, "chart": leaders_chart(event, "wide", table["computed_at"])}
    if event.phase == Phase.FINISHED:
        return {**base, "state": "finished"}
    round_ = current_round(event)
    if round_ is None:
        return {**base, "state": "before", "checked_in": None}
    if round_.state == State.SEATED:
        seats = seating_list(round_)
        per_page = getattr(settings, "SCREEN_SEATS_PER_PAGE", SEATS_PER_PAGE)  # tests page sooner
        per_page = max(6, per_page - 2 * taken)  # two columns: a line off each
        return {**base, "state": "seating", "round": round_, "seats": seats, "seat_pages": paged(seats, per_page)}
    stamp = standings_stamp(event, fresh_standings(event=event))
    per_page = max(3, getattr(settings, "SCREEN_LINES_PER_PAGE", LINES_PER_PAGE) - taken)
    chart_ = leaders_chart(event, "side", stamp.computed_at, rounds=round_.number)
    # The standings' part of the screen is rendered once per stored standings (its key):
    # the lines are read only when a rendering is made.
    pages = Lazy(lambda: paged(standings(event, stamp.fresh)["lines"], per_page))
    # The live standings count confirmed hands only; the screen says how many wait.
    data = {**base, "round": round_, "standings_key": f"screen:{stamp.key}:{per_page}", "line_pages": pages,
            **hands_entered(event, round_), "chart": chart_, "awaiting": stamp.awaiting}
    if round_.state == State.PLAYING:
        left = seconds_left(round_, now)
        return {**data, "state": "playing", "seconds_left": left, "paused": bool(round_.paused_at),
                "clock_text": clock_text(left) if left is not None else "",
                "warn": left is not None and 0 < left <= WARN_SECONDS, "over": left == 0}
    return {**data, "state": "between"}


def leaders_chart(event, frame, stamp, rounds=None):
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


class Lazy(Sequence):
    """A list computed when first looked at (a template that finds its rendering in the
    cache never looks)."""

    def __init__(self, compute):
        self._compute, self._items = compute, None

    def _got(self):
        if self._items is None:
            self._items = self._compute()
        return self._items

    def __getitem__(self, index):
        return self._got()[index]

    def __len__(self):
        return len(self._got())


def seating_list(round_):
    """Everyone in the round, alphabetically: (name, table number or None, seat label)."""
    seats = Seat.objects.filter(round=round_).select_related("table", "entrant__player")
    rows = [{"name": s.entrant.player.display_name, "table": s.table.number if s.table_id else None,
             "seat": s.get_position_display() if s.table_id else ""} for s in seats]
    return sorted(rows, key=lambda row: (row["name"].casefold(), row["table"] or 0))


def hands_entered(event, round_):
    """Hands of the round with a result (a disputed one counts as entered), out of all."""
    tables = (Seat.objects.filter(round=round_, table__isnull=False).values("table").distinct().count())
    entered = HandResult.objects.filter(round=round_).aggregate(n=Count("id"))["n"]
    return {"hands_entered": entered, "hands_total": tables * event.hands_per_round}


@transaction.atomic
def set_screen_chime(*, actor, event, chime):
    """Whether open screens sound a chime when the round clock reaches zero."""
    require_organiser(actor, event.club)
    event, screen = _locked_screen(event)
    before = {"screen_chime": screen.chime}
    screen.chime = bool(chime)
    screen.save()
    log_action(actor=actor, event=event, action="screen.chime_set", before=before,
               after={"screen_chime": screen.chime}, obj=event)
    broadcast.publish(event.pk, broadcast.Change.SCREEN)
    return event
