"""Robots at online tables: a seated robot, or one standing in for a silent person,
plays its seat with the engine's robots (engine/robots), seeing that seat's view only.
Robots never play on their own: a casual table with no person present is paused (its
robots wait until a person is back), and closed once nobody has come for long."""
from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, prefetch_related_objects
from django.utils import timezone

from drive.core.broadcast import publish_table
from engine import ROBOTS, Phase
from drive.games.models import PlaySeat, PlayTable
from drive.games.selectors.tables import game_of, seats_with_players
from drive.games.services.actions import (is_paused, judged, locked_table, record_action, robot_move_started,
                                         send_robot_move, wake_robot)

STANDIN_ROBOT = "rules"  # who plays for a silent person
ACTING = (Phase.AUCTION, Phase.EXCHANGE, Phase.PLAY)


def play_robot(*, table_id: int, version: int) -> bool:
    """The robot to act plays, if the table is still at `version` and a robot is to act
    (a task sent twice, or overtaken by its player's return, does nothing). At an event's
    table whose round clock is paused it waits: the clock's resume wakes it again
    (drive.games.services.rounds.run_clock); at a casual table with no person
    present it waits too: the first person back wakes it (actions.back_in_seat)."""
    with transaction.atomic():
        # As a person's action reads it (actions.apply_action): the record only if this process
        # has not the game at this version; the seats with their players once, for the robot
        # woken next and for this process's sockets that take the change as it left the table.
        table = PlayTable.objects.select_for_update().defer("record").filter(pk=table_id).first()
        if table is None or table.finished_at is not None:
            return False
        robot_move_started(table=table)  # this was the table's pending move: the next may be queued
        if table.clock_stopped:
            return False
        prefetch_related_objects([table], seats_with_players())
        seats = list(table.seats.all())
        if is_paused(table=table, seats=seats):
            return False
        game = game_of(table)
        seat = next((s for s in seats if s.seat == game.to_act), None) if game.to_act else None
        if seat is None or not seat.played_by_robot:
            return False
        if table.version != version:
            wake_robot(table=table, game=game)  # overtaken: the move of the table's version waited for this one
            return False
        robot = ROBOTS[seat.robot or STANDIN_ROBOT](seed=secrets.randbits(32))
        action = robot.choose(game.view(seat.seat))  # its own seat's view, nothing else
        text = judged(game=game, action=str(action))
        record_action(table=table, game=game, seat=seat.seat, text=text, by_robot=True)
        return True


def sweep_silent_seats(*, now: datetime | None = None) -> int:
    """Beat's sweep: a person to act who has been silent past the table's timeout gets a
    robot standing in until they act again; at an evening's table, so does every person
    who has not come since the round started, once the timeout has passed from its start
    (whether or not it is their turn). Answers how many seats it gave a stand-in."""
    now = now or timezone.now()
    quiet = PlayTable.objects.filter(Q(changed_at__lt=now - timedelta(seconds=1)) | Q(event__isnull=False),
                                     finished_at__isnull=True, phase__in=[str(p) for p in ACTING])
    count = 0
    for table_id in quiet.values_list("pk", flat=True):
        count += stand_in_if_silent(table_id=table_id, now=now)
    return count


def stand_in_if_silent(*, table_id: int, now: datetime) -> int:
    """The person to act silent past the table's timeout (counted from the table's last
    change) gets a stand-in; at an evening's table, so does every person absent since the
    round started (stand_in_for_absent). Answers how many seats it gave a stand-in."""
    with transaction.atomic():
        table = locked_table(table_id=table_id)
        if table.finished_at is not None:
            return 0
        if table.clock_stopped:
            return 0  # nobody is silent while the clock is stopped; its resume wakes the robots
        silent = table.changed_at <= now - timedelta(seconds=table.timeout_seconds)
        absent = stand_in_for_absent(table=table, now=now) if table.event_id is not None else 0
        if not silent and not absent:
            return 0
        if is_paused(table=table, seats=list(table.seats.all()), now=now):
            return 0  # nobody to play with: the first person back wakes the robots
        if absent:
            publish_table(table.pk, table.version)  # the table and the console show the stand-ins
        game = game_of(table)
        seat = table.seats.filter(seat=game.to_act).first() if game.to_act else None
        version = table.version
        if seat is not None and seat.played_by_robot:
            # a stand-in just given plays at once; a move asked for that never came (a broker
            # that was down, a worker killed) is asked again: the task plays only at this
            # version, so never twice
            transaction.on_commit(lambda: send_robot_move(table_id=table_id, version=version), robust=True)
            return absent
        if not silent or seat is None or seat.user_id is None:
            return absent
        PlaySeat.objects.filter(pk=seat.pk).update(standin=True)
        publish_table(table.pk, table.version)
        transaction.on_commit(lambda: send_robot_move(table_id=table_id, version=version), robust=True)
        return absent + 1


def stand_in_for_absent(*, table: PlayTable, now: datetime) -> int:
    """An evening's table (its row locked): once the table's timeout has passed since the
    round started (the table was dealt), each person not seen at it since then gets a
    robot standing in, their turn or not, until they come. Answers how many it gave one."""
    started = table.created_at  # dealt when the round's clock started
    if now - started < timedelta(seconds=table.timeout_seconds):
        return 0
    absent = (table.seats.filter(user__isnull=False, standin=False)
              .filter(Q(last_seen__isnull=True) | Q(last_seen__lt=started)))
    return absent.update(standin=True)


def close_idle_tables(*, now: datetime | None = None) -> int:
    """Beat's sweep: a casual table where no person has been seen for
    PLAY_IDLE_CLOSE_SECONDS is closed (finished). Answers how many it closed."""
    now = now or timezone.now()
    since = now - timedelta(seconds=settings.PLAY_IDLE_CLOSE_SECONDS)
    seen = PlaySeat.objects.filter(table=OuterRef("pk"), user__isnull=False, last_seen__gte=since)
    idle = PlayTable.objects.filter(event__isnull=True, finished_at__isnull=True, changed_at__lt=since)
    return sum(close_if_idle(table_id=table_id, since=since, now=now) for table_id in
               idle.exclude(Exists(seen)).values_list("pk", flat=True))


def close_if_idle(*, table_id: int, since: datetime, now: datetime) -> bool:
    with transaction.atomic():
        table = locked_table(table_id=table_id)
        if table.finished_at is not None or table.changed_at >= since:
            return False
        if table.seats.filter(user__isnull=False, last_seen__gte=since).exists():
            return False  # someone came back meanwhile
        table.finished_at = now
        table.save(update_fields=["finished_at", "changed_at"])
        publish_table(table.pk, table.version)
        return True
