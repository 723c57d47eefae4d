"""An evening's online tables: the organiser says which tables play online, each round's
online tables are dealt when its clock starts, and at the deadline robots finish the
hands still in play (flagged in the results).

The evening (drive.scoring.services.evening) calls `open_round_tables` and
`finish_round_tables` through the hooks this app lends it (drive.play.apps). A hand that
ends at an online table goes into the results at once (drive.play.services.event_hands).

A player without an account cannot sit at an online table: a robot of the event's kind
plays their seat, and the hands count for them as played (the organiser may seat them,
or a substitute, once they have an account: drive.play.services.tables.offer_seat).
A seat the movement leaves empty is played by the same robot.
"""
from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from drive.core.accounts import User
from drive.core.broadcast import publish_table
from drive.core.clock import seconds_left
from drive.core.errors import Conflict, Invalid
from drive.events.access import require_organiser
from drive.events.models import Event
from drive.events.services.audit import changed, log_action
from engine import Phase, find_variant, new_rng
from engine.robots import ROBOTS
from drive.play.models import PlayAction, PlaySeat, PlayTable
from drive.play.selectors.evening import deadline_tables, online_setting, table_rules
from drive.play.selectors.tables import game_of
from drive.play.services.actions import judged, locked_table, wake_robot
from drive.play.services.event_hands import hand_over, post_hand
from drive.play.services.robots import STANDIN_ROBOT
from drive.scoring.models import OnlineTables, Round, Seat

Mode = OnlineTables.Mode
ROBOT_KINDS = tuple(kind for kind, _label in PlaySeat.Robot.choices if kind)
MAX_TABLE_NUMBER = 999
OVER_PHASES = (Event.Phase.FINISHED, Event.Phase.RESULTS_PUBLISHED)


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
    if event.phase in OVER_PHASES:
        raise Conflict(_("The evening is over: its tables stay as they were played."))
    setting = online_setting(event)
    before = {"mode": setting.mode, "tables": list(setting.tables), "robot": setting.robot}
    after = {"mode": mode, "tables": numbers if mode == Mode.MIXED else [], "robot": robot or setting.robot}
    before, after = changed(before=before, after=after)
    if not after:
        return setting
    setting.mode, setting.tables, setting.robot = mode, numbers if mode == Mode.MIXED else [], robot or setting.robot
    setting.save()
    log_action(actor=actor, event=event, action="tables.online", before=before, after=after, obj=setting)
    return setting


# --- a round starts: its online tables dealt ------------------------------------------------


def open_round_tables(event: Event, round_: Round) -> list[PlayTable]:
    """When the round's clock starts (in its transaction): a table for each online table
    of the round, dealt at once with the event's rules, the movement's players in their
    seats (as their accounts), robots where there is no account or no player. Safe twice."""
    setting = online_setting(event)
    if setting.mode == Mode.PAPER:
        return []
    by_table: dict[int, dict[str, Any]] = {}
    for seat in Seat.objects.filter(round=round_, table__isnull=False).select_related("table", "entrant__player__user"):
        by_table.setdefault(seat.table.number, {})[seat.position] = seat.entrant.player.user
    existing = set(PlayTable.objects.filter(event=event, round_number=round_.number)
                   .values_list("table_number", flat=True))
    made = []
    for number in sorted(by_table):
        if setting.is_online(number) and number not in existing:
            made.append(_open_table(event, round_, number, by_table[number], setting.robot))
    return made


def _open_table(event: Event, round_: Round, number: int, people: dict[str, Any], robot: str) -> PlayTable:
    variant = find_variant(table_rules(event, round_.number))
    rng = new_rng()  # S3, S4: a cryptographically strong shuffle, the deal kept in the record
    game = variant.new_game(rng)
    game.deal(rng)
    table = PlayTable.objects.create(rules=variant.options_json(), record=game.record(), phase=str(game.phase),
                                     event=event, round_number=round_.number, table_number=number)
    seats = []
    for place in variant.seats:
        user = people.get(place)
        person = user is not None and user.is_active
        seats.append(PlaySeat(table=table, seat=place, user=user if person else None, robot="" if person else robot,
                              last_seen=None))  # not seen until they open the table
    PlaySeat.objects.bulk_create(seats)
    wake_robot(table, game)
    return table


# --- the deadline: robots finish the hands still in play -----------------------------------


def finish_table(table_id: int, *, at_deadline: bool = True, now: datetime | None = None) -> int:
    """Robots play out the table's game (every hand the round still owes), each hand they
    had a part in flagged in the results. With `at_deadline`, only if the round is still
    played past its deadline (beat's sweep: a resumed or closed round is left alone).
    Answers how many actions the robots made."""
    with transaction.atomic():
        table = locked_table(table_id)
        if table.event_id is None or table.phase == PlayTable.Phase.OVER:
            return 0
        if at_deadline:
            round_ = Round.objects.filter(event_id=table.event_id, number=table.round_number).first()
            # A paused clock is not past its deadline: the pause does not count (resume_clock
            # moves the deadline on by its length), and robots wait with the players.
            if (round_ is None or round_.state != Round.State.PLAYING or round_.paused_at is not None
                    or seconds_left(round_, now) != 0):
                return 0
        return _robots_play_out(table)


def _robots_play_out(table: PlayTable) -> int:
    game = game_of(table)
    kinds = {s.seat: s.robot or STANDIN_ROBOT for s in table.seats.all()}
    played = 0
    while game.phase != Phase.OVER:
        if game.phase == Phase.SCORED:
            game.deal(new_rng())
            continue
        seat = game.to_act
        # Every seat's robot sees that seat's view only; people's seats get the rules robot.
        chooser = ROBOTS[kinds.get(seat) if kinds.get(seat) in ROBOTS else STANDIN_ROBOT](seed=secrets.randbits(32))
        text = judged(game, str(chooser.choose(game.view(seat))))
        played += 1
        PlayAction.objects.create(table=table, version=table.version + played, seat=seat, action=text, by_robot=True)
        if hand_over(table, game):
            post_hand(table, game, by_robots=True)
    if played:
        table.record, table.phase = game.record(), str(game.phase)
        table.version += played
        table.save(update_fields=["record", "version", "phase", "changed_at"])
        publish_table(table.pk, table.version)
    return played


def finish_round_tables(event: Event, round_: Round) -> int:
    """The round is being closed (at or past its deadline, or forced by the organiser): its
    online tables' unfinished hands are played out by robots (flagged), and the tables are
    finished: their hands are shown to everyone from now. Answers how many robot actions."""
    played = 0
    now = timezone.now()
    for table_id in PlayTable.objects.filter(event=event, round_number=round_.number).values_list("pk", flat=True):
        played += finish_table(table_id, at_deadline=False)
        PlayTable.objects.filter(pk=table_id, finished_at__isnull=True).update(finished_at=now)
    return played


def resume_round_tables(event: Event, round_: Round) -> int:
    """The round's clock runs again (in the resume's transaction): its online tables'
    silence counts from now (a pause is no one's silence), and each table's robot to act
    is woken, since the robots waited while the clock was stopped. Answers how many tables."""
    tables = list(PlayTable.objects.filter(event=event, round_number=round_.number, finished_at__isnull=True)
                  .exclude(phase=PlayTable.Phase.OVER))
    PlayTable.objects.filter(pk__in=[t.pk for t in tables]).update(changed_at=timezone.now())
    for table in tables:
        wake_robot(table, game_of(table))  # at its version: a task already sent plays it once
    return len(tables)


def finish_late_tables(now: datetime | None = None) -> int:
    """Beat's sweep: every online table whose round is past its deadline has its hands
    finished by robots. Answers how many tables it finished."""
    return sum(1 for table_id in deadline_tables(now) if finish_table(table_id, now=now))
