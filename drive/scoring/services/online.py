"""Tables played online: the evening lends its round moves to online play (a floor up),
and a hand played online comes in as a confirmed result, with no entry step.

Online play (drive.play) registers its handlers from its AppConfig.ready(): this floor
cannot import it. With no handler registered every table is on paper, as before.
"""
from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.utils.translation import gettext_noop

from drive.core.errors import Conflict
from drive.events.models import Event

from drive.scoring.models import HandResult, Round, Table
from drive.scoring.services.results import _after_change, _check_hand, _save, _tricks, _trump

RoundHandler = Callable[[Event, Round], None]
# Why a hand's row changed, kept in its history in English (shown in the reader's language).
PLAYED_ONLINE = gettext_noop("played online")
FINISHED_BY_ROBOTS = gettext_noop("finished by robots at the round's deadline")
STOOD_IN = gettext_noop("played online, a robot standing in for a player who did not come")
ORGANISER_KINDS = (HandResult.ChangeKind.CORRECTION, HandResult.ChangeKind.REVOKE, HandResult.ChangeKind.ADJUSTED)

_round_started: list[RoundHandler] = []
_round_closing: list[RoundHandler] = []
_clock_resumed: list[RoundHandler] = []


def on_round_started(handler: RoundHandler) -> None:
    """Set what happens when a round's clock starts: `handler(event, round_)`, in the
    start's transaction (the event's row locked)."""
    _round_started[:] = [handler]


def on_round_closing(handler: RoundHandler) -> None:
    """Set what happens to a round's unfinished online hands when it is closed at or past its
    deadline (or forced): `handler(event, round_)`, in the close's transaction, before the
    tables still out are counted."""
    _round_closing[:] = [handler]


def on_clock_resumed(handler: RoundHandler) -> None:
    """Set what happens when a paused round clock runs again: `handler(event, round_)`, in
    the resume's transaction (online tables' robots wait while the clock is paused)."""
    _clock_resumed[:] = [handler]


def clock_resumed(event: Event, round_: Round) -> None:
    for handler in _clock_resumed:
        handler(event, round_)


def round_started(event: Event, round_: Round) -> None:
    for handler in _round_started:
        handler(event, round_)


def round_closing(event: Event, round_: Round) -> None:
    for handler in _round_closing:
        handler(event, round_)


@transaction.atomic
def record_played_hand(*, event_id: int, round_number: int, table_number: int, hand_number: int, ns_tricks: int,
                       trump: str | None, by_robots: bool = False,
                       stood_in: bool = False) -> tuple[HandResult, str]:
    """A hand played to its end at an online table: stored as a confirmed result (no seat
    entered it, none confirmed it: the engine counted the tricks), so recomputation,
    standings and the live pages follow as for paper. `by_robots`: robots finished it at
    the deadline, and the row says so (its kind, shown in the results and the console);
    `stood_in`: a robot played for an absent person in it, flagged the same way.

    Idempotent. A paper entry at the same hand gives way to the hand as played; an
    organiser's correction stands (the organiser's word is final). Returns (result,
    outcome): "created", "updated", "unchanged" or "kept" (a correction stands)."""
    table = (Table.objects.select_for_update(of=("self",)).select_related("event")
             .filter(event_id=event_id, number=table_number).first())
    round_ = Round.objects.filter(event_id=event_id, number=round_number).first()
    if table is None or round_ is None or round_.state == Round.State.PENDING:
        raise Conflict("no such round or table for an online hand")
    event = table.event
    _check_hand(event, hand_number)
    ns_tricks = _tricks(ns_tricks)
    trump = _trump(event, round_, hand_number, None if trump == "NT" else trump)
    kind = HandResult.ChangeKind.ROBOTS if by_robots or stood_in else HandResult.ChangeKind.ENTRY
    result = HandResult.objects.filter(round=round_, table=table, hand_number=hand_number).first()
    if result is not None and result.change_kind in ORGANISER_KINDS:
        return result, "kept"
    if result is not None and (result.ns_tricks, result.trump, result.status, result.change_kind) == (
            ns_tricks, trump, HandResult.Status.CONFIRMED, kind):
        return result, "unchanged"
    outcome = "created" if result is None else "updated"
    result = result or HandResult(round=round_, table=table, hand_number=hand_number)
    result.ns_tricks, result.trump, result.status, result.change_kind = ns_tricks, trump, HandResult.Status.CONFIRMED, kind
    result.entered_by = result.confirmed_by = ""
    result.disputed_ns_tricks = None
    _save(result, FINISHED_BY_ROBOTS if by_robots else STOOD_IN if stood_in else PLAYED_ONLINE)
    _after_change(event, round_, table)
    return result, outcome

