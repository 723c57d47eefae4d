"""The room's screen: the secret screen link and what the projector shows.

Services (`issue_screen_link`, `revoke_screen_link`) check the organiser themselves, one
transaction each. `screen_state` makes no permission decisions (the token in the URL is
the key); it stays a service because the final standings it shows are recomputed first
when stale (fresh_standings). The screen's plain reads are drive.live.selectors.screen.
The live page lives on the top floor: it reads events and scoring, nothing below reaches
up to it.
"""
import secrets
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction

from drive.scoring.services.freshness import fresh_standings
from drive.core.clock import WARN_SECONDS, clock_text, seconds_left
from drive.core import broadcast
from drive.events.services.audit import log_action
from drive.events.models import Event, Registration
from drive.events.access import require_organiser
from drive.scoring.selectors.rounds import current_round
from drive.scoring.models import Round
from drive.scoring.selectors.results import standings, standings_stamp

from drive.core.accounts import User
from drive.live.selectors.announcements import on_screen
from drive.live.selectors.screen import (LINES_PER_PAGE, SEATS_PER_PAGE, Lazy, chimes, hands_entered, leaders_chart,
                                        lines_taken, paged, seating_list)
from drive.live.models import Screen

Phase = Event.Phase
State = Round.State


def new_screen_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits: not guessable from the room or outside


def _locked_screen(event: Event) -> tuple[Event, Screen]:
    """The event (locked: one write to its screen at a time, the first one included) and
    its screen, made on first use."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    screen = Screen.objects.filter(event=event).first() or Screen()
    screen.event = event  # the returned event's `screen` is this one
    return event, screen


@transaction.atomic
def issue_screen_link(*, actor: User, event: Event) -> Event:
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
def revoke_screen_link(*, actor: User, event: Event) -> Event:
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


def screen_state(*, event: Event, now: datetime | None = None) -> dict[str, Any]:
    """What the screen shows now: {"state": "before" | "seating" | "playing" | "between" |
    "finished" | "published", ...} with that state's data, and the announcements on top."""
    notes = on_screen(event=event)
    taken = lines_taken(notes=notes)
    base = {"event": event, "announcements": notes, "chime": chimes(event)}
    if event.phase == Phase.REGISTRATION:
        checked_in = event.registrations.filter(status=Registration.Status.CHECKED_IN).count()
        return {**base, "state": "before", "checked_in": checked_in}
    if event.phase == Phase.RESULTS_PUBLISHED:
        table = standings(event, fresh_standings(event=event))
        chart_ = leaders_chart(event=event, frame="wide", stamp=table["computed_at"])
        return {**base, "state": "published", **table, "chart": chart_}
    if event.phase == Phase.FINISHED:
        return {**base, "state": "finished"}
    round_ = current_round(event)
    if round_ is None:
        return {**base, "state": "before", "checked_in": None}
    if round_.state == State.SEATED:
        seats = seating_list(round_=round_)
        per_page = getattr(settings, "SCREEN_SEATS_PER_PAGE", SEATS_PER_PAGE)  # tests page sooner
        per_page = max(6, per_page - 2 * taken)  # two columns: a line off each
        seat_pages = paged(items=seats, size=per_page)
        return {**base, "state": "seating", "round": round_, "seats": seats, "seat_pages": seat_pages}
    stamp = standings_stamp(event, fresh_standings(event=event))
    per_page = max(3, getattr(settings, "SCREEN_LINES_PER_PAGE", LINES_PER_PAGE) - taken)
    chart_ = leaders_chart(event=event, frame="side", stamp=stamp.computed_at, rounds=round_.number)
    # The standings' part of the screen is rendered once per stored standings (its key):
    # the lines are read only when a rendering is made.
    pages = Lazy(lambda: paged(items=standings(event, stamp.fresh)["lines"], size=per_page))
    # The live standings count confirmed hands only; the screen says how many wait.
    data = {**base, "round": round_, "standings_key": f"screen:{stamp.key}:{per_page}", "line_pages": pages,
            **hands_entered(event=event, round_=round_), "chart": chart_, "awaiting": stamp.awaiting}
    if round_.state == State.PLAYING:
        left = seconds_left(round_, now)
        return {**data, "state": "playing", "seconds_left": left, "paused": bool(round_.paused_at),
                "clock_text": clock_text(left) if left is not None else "",
                "warn": left is not None and 0 < left <= WARN_SECONDS, "over": left == 0}
    return {**data, "state": "between"}


@transaction.atomic
def set_screen_chime(*, actor: User, event: Event, chime: object) -> Event:
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
