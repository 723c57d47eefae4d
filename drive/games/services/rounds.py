"""An evening's online tables, as the evening (drive.scoring, a floor up) asks for them:
a round's tables dealt when its clock starts, its robots held while the clock is stopped
and woken when it runs again, and its hands played out by robots (flagged) when the round
closes. This floor knows no round: the evening says which tables, who sits where and with
which rules. A hand that ends at a table is told through `drive.games.signals`.

A player without an account cannot sit at an online table: the event's robot plays their
seat (the organiser may seat them, or a substitute, once they have an account:
drive.games.services.tables.offer_seat). A seat the movement leaves empty is played by the
same robot.
"""
from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from drive.core.accounts import Account, User
from drive.core.broadcast import publish_table
from engine import ROBOTS, Phase, find_variant, new_rng
from drive.games.models import PlayAction, PlaySeat, PlayTable
from drive.games.selectors.tables import game_of
from drive.games.services.actions import judged, locked_table, wake_robot
from drive.games.services.hands import post_hand
from drive.games.services.robots import STANDIN_ROBOT

ROBOT_KINDS = tuple(kind for kind, _label in PlaySeat.Robot.choices if kind)
Seating = dict[int, dict[str, User | None]]  # {table number: {seat: its player's account, or None}}


def open_tables(*, event_id: int, round_number: int, rules: dict[str, Any] | str, seating: Seating,
                robot: str) -> list[PlayTable]:
    """A table for each numbered table of the seating, dealt at once with the rules, each
    seat's player in it (an active account), the `robot` where there is none. A table the
    round has already is left as it is: safe twice. In the caller's transaction."""
    existing = set(PlayTable.objects.filter(event_id=event_id, round_number=round_number)
                   .values_list("table_number", flat=True))
    return [_open_table(event_id, round_number, number, seating[number], rules, robot)
            for number in sorted(seating) if number not in existing]


def _open_table(event_id: int, round_number: int, number: int, people: dict[str, User | None],
                rules: dict[str, Any] | str, robot: str) -> PlayTable:
    variant = find_variant(rules)
    rng = new_rng()  # S3, S4: a cryptographically strong shuffle, the deal kept in the record
    game = variant.new_game(rng)
    game.deal(rng)
    table = PlayTable.objects.create(rules=variant.options_json(), record=game.record(), phase=str(game.phase),
                                     event_id=event_id, round_number=round_number, table_number=number)
    seats = []
    for place in variant.seats:
        user = people.get(place)
        person = user if isinstance(user, Account) and user.is_active else None  # an active account plays
        seats.append(PlaySeat(table=table, seat=place, user=person, robot="" if person else robot,
                              last_seen=None))  # not seen until they open the table
    PlaySeat.objects.bulk_create(seats)
    wake_robot(table=table, game=game)
    return table


def stop_clock(*, event_id: int, round_number: int) -> int:
    """The round's clock is paused: its tables' robots wait and nobody is silent until it
    runs again. Answers how many tables."""
    return (PlayTable.objects.filter(event_id=event_id, round_number=round_number, finished_at__isnull=True)
            .update(clock_stopped=True))


def run_clock(*, event_id: int, round_number: int) -> int:
    """The round's clock runs again (in the resume's transaction): its tables' silence
    counts from now (a pause is no one's silence), and each table's robot to act is woken,
    since the robots waited while the clock was stopped. Answers how many tables."""
    running = PlayTable.objects.filter(event_id=event_id, round_number=round_number, finished_at__isnull=True)
    running.update(clock_stopped=False, changed_at=timezone.now())
    tables = list(running.exclude(phase=PlayTable.Phase.OVER))
    for table in tables:
        wake_robot(table=table, game=game_of(table))  # at its version: a task already sent plays it once
    return len(tables)


def finish_table(*, table_id: int) -> int:
    """Robots play out the table's game (every hand it still owes), each hand they had a
    part in flagged so (`hand_finished` with by_robots). Answers how many actions."""
    with transaction.atomic():
        table = locked_table(table_id=table_id)
        if table.event_id is None or table.phase == PlayTable.Phase.OVER:
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
        if seat is None:  # nobody to act is a game over
            break
        # Every seat's robot sees that seat's view only; people's seats get the rules robot.
        kind = kinds.get(seat, STANDIN_ROBOT)
        chooser = ROBOTS[kind if kind in ROBOTS else STANDIN_ROBOT](seed=secrets.randbits(32))
        text = judged(game=game, action=str(chooser.choose(game.view(seat))))
        played += 1
        PlayAction.objects.create(table=table, version=table.version + played, seat=seat, action=text, by_robot=True)
        post_hand(table=table, game=game, by_robots=True)
    if played:
        table.record, table.phase = game.record(), str(game.phase)
        table.version += played
        table.save(update_fields=["record", "version", "phase", "changed_at"])
        publish_table(table.pk, table.version)
    return played


def finish_tables(*, event_id: int, round_number: int) -> int:
    """The round is being closed (at or past its deadline, or forced by the organiser): its
    tables' unfinished hands are played out by robots (flagged), and the tables are
    finished: their hands are shown to everyone from now. Answers how many robot actions."""
    played = 0
    now = timezone.now()
    for table_id in PlayTable.objects.filter(event_id=event_id, round_number=round_number).values_list("pk", flat=True):
        played += finish_table(table_id=table_id)
        PlayTable.objects.filter(pk=table_id, finished_at__isnull=True).update(finished_at=now, clock_stopped=False)
    return played
