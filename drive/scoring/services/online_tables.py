"""An evening's online tables, hosted a floor down (drive.games): the organiser says which
tables play online; each round's online tables are dealt when its clock starts (the
movement's players in their seats), hold still while the clock is paused, and at the
round's close (or its deadline, beat's sweep) robots finish the hands still in play. The
evening calls the games app; it hears the hands played there through its signals
(drive.scoring.receivers) and counts them as confirmed results (services.results).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from drive.core.accounts import User
from drive.core.clock import seconds_left
from drive.core.errors import Conflict, Invalid
from drive.events.access import require_organiser
from drive.events.models import Event
from drive.events.services.audit import changed, log_action
from drive.games.models import PlaySeat
from drive.games.selectors.evening import rounds_with_tables, unfinished_tables
from drive.games.services import rounds as games
from drive.games.services.actions import locked_table
from drive.scoring.models import OnlineTables, Round, Seat
from drive.scoring.selectors.online_tables import online_setting, table_rules

Mode = OnlineTables.Mode
ROBOT_KINDS = tuple(kind for kind, _label in PlaySeat.Robot.choices if kind)
MAX_TABLE_NUMBER = 999


# --- the organiser's setting ------------------------------------------------------------


def _table_numbers(tables: Any) -> list[int]:
    ok = isinstance(tables, list) and all(
        isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= MAX_TABLE_NUMBER for n in tables)
    if not ok:
        raise Invalid(_("Tables are given by their numbers, e.g. [1, 3]."), field="tables")
    return sorted(set(tables))


@transaction.atomic
def set_online_tables(*, actor: User | None, event: Event, mode: str, tables: Any = None,
                      robot: str | None = None) -> OnlineTables:
    """The organiser says how the evening's tables play: all on paper, all online, or mixed
    (the tables listed online). Any time before the evening is over. The change holds from
    the next round that starts: the setting is read when a round's clock starts, and a
    round being played keeps its way of playing (its online tables are dealt already, its
    paper tables take their results on paper) until it is closed. A change that changes
    nothing is not logged."""
    require_organiser(actor, event.club)
    if mode not in Mode.values:
        raise Invalid(_("Tables are played on paper, online or mixed."), field="mode")
    numbers = _table_numbers([] if tables is None else tables)
    if mode == Mode.MIXED and not numbers:
        raise Invalid(_("Say which tables play online."), field="tables")
    if robot is not None and robot not in ROBOT_KINDS:
        raise Invalid(_("A robot is one of %(kinds)s.") % {"kinds": ", ".join(ROBOT_KINDS)}, field="robot")
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.is_over:
        raise Conflict(_("The evening is over: its tables stay as they were played."))
    setting = online_setting(event=event)
    before = {"mode": setting.mode, "tables": list(setting.tables), "robot": setting.robot}
    after = {"mode": mode, "tables": numbers if mode == Mode.MIXED else [], "robot": robot or setting.robot}
    before, after = changed(before=before, after=after)
    if not after:
        return setting
    setting.mode, setting.tables, setting.robot = mode, numbers if mode == Mode.MIXED else [], robot or setting.robot
    setting.save()
    log_action(actor=actor, event=event, action="tables.online", before=before, after=after, obj=setting)
    return setting


# --- what the round's clock does to them --------------------------------------------------


def open_round_tables(*, event: Event, round_: Round) -> int:
    """When the round's clock starts (in its transaction): each online table of the round
    dealt with the event's rules, the movement's players in their seats (as their accounts),
    the event's robot where there is no account or no player. Safe twice. Answers how many."""
    setting = online_setting(event=event)
    if setting.mode == Mode.PAPER:
        return 0
    seating: dict[int, dict[str, Any]] = {}
    for seat in Seat.objects.filter(round=round_, table__isnull=False).select_related("table", "entrant__player__user"):
        if seat.table is not None and setting.is_online(seat.table.number):  # the filter left out sit-outs
            seating.setdefault(seat.table.number, {})[seat.position] = seat.entrant.player.user
    if not seating:
        return 0
    return len(games.open_tables(event_id=event.pk, round_number=round_.number, seating=seating,
                                 rules=table_rules(event=event, round_number=round_.number), robot=setting.robot))


def stop_round_clock(*, event: Event, round_: Round) -> int:
    """The round's clock is paused (in the pause's transaction): its online tables wait."""
    return games.stop_clock(event_id=event.pk, round_number=round_.number)


def run_round_clock(*, event: Event, round_: Round) -> int:
    """The round's clock runs again (in the resume's transaction): its robots play again."""
    return games.run_clock(event_id=event.pk, round_number=round_.number)


def close_round_tables(*, event: Event, round_: Round) -> int:
    """The round is being closed at or past its deadline, or forced (in the close's
    transaction, before the tables still out are counted): robots finish its online hands
    (flagged), and its tables are finished. Answers how many robot actions."""
    return games.finish_tables(event_id=event.pk, round_number=round_.number)


# --- the deadline: robots finish the hands still in play -----------------------------------


def past_deadline(*, round_: Round | None, now: datetime | None = None) -> bool:
    """The round is being played past its deadline. A paused clock is not: the pause does
    not count (resume_clock moves the deadline on by its length), robots wait with the players."""
    return (round_ is not None and round_.state == Round.State.PLAYING and round_.paused_at is None
            and seconds_left(round_, now) == 0)


def finish_late_table(*, table_id: int, now: datetime | None = None) -> int:
    """Robots play out the online table's game if its round is still played past its deadline
    (a resumed or closed round is left alone). Answers how many actions they made."""
    with transaction.atomic():
        table = locked_table(table_id=table_id)  # the table first, as a player's card takes it
        if table.event_id is None or table.round_number is None:  # a casual table: no round, no deadline
            return 0
        round_ = Round.objects.filter(event_id=table.event_id, number=table.round_number).first()
        if not past_deadline(round_=round_, now=now):
            return 0
        return games.finish_table(table_id=table_id)


def finish_late_tables(*, now: datetime | None = None) -> int:
    """Beat's sweep: every online table whose round is past its deadline has its hands
    finished by robots. Answers how many tables it finished."""
    finished = 0
    for event_id, round_number in rounds_with_tables():
        round_ = Round.objects.filter(event_id=event_id, number=round_number).first()
        if past_deadline(round_=round_, now=now):
            finished += sum(1 for table_id in unfinished_tables(event_id=event_id, round_number=round_number)
                            if finish_late_table(table_id=table_id, now=now))
    return finished
