"""A player's action at an online table, and the one way every action is written.

The game lives in the table's record. Under a row lock the service replays it, checks
who acts (their seat, their turn, the version they saw), lets the engine judge the
action, saves the record with the next version and logs the action; after commit the
change is published and a robot to act next is woken. An action sent twice is applied
once: the same seat re-sending the action that produced version v + 1 from version v
gets the current view back (200); anything else stale is a conflict (409).
"""
from __future__ import annotations

import random
import threading
from contextlib import AbstractContextManager
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext as _

from drive.core.accounts import User
from drive.core.broadcast import new_change, publish_table
from drive.core.errors import Conflict, Forbidden, Invalid, NotFound
from drive.core.holding import Held
from drive.core.jobs import task
from engine import EngineError, GameState, IllegalAction, Phase, new_rng, parse_action
from drive.play.access import require_player
from drive.play.models import PlayAction, PlaySeat, PlayTable
from drive.play.refusals import refusal_text
from drive.play.selectors.tables import announced_keeper, game_of, snapshot_keeper, table_view
from drive.play.services.event_hands import post_hand
from drive.play.services.reviews import review_after_commit

ROBOT_TASK = "drive.play.tasks.robot_move"
MAX_ACTION_LENGTH = 64
SEEN_AGAIN = timedelta(seconds=10)


def locked_table(table_id: int) -> PlayTable:
    """The table's row, locked until the transaction ends (404 if there is none). Its record
    is read only if needed: the game at this version is usually in the snapshot already."""
    table = PlayTable.objects.select_for_update().defer("record").filter(pk=table_id).first()
    if table is None:
        raise NotFound(_("No such table."))
    return table


def apply_action(user: User | None, table_id: int, action: str, version: int,
                 seat: str | None = None) -> dict[str, Any]:
    """Apply the caller's action and answer their new view. 403: not their seat; 409:
    not their turn, or `version` is not the table's; 400: the rules refuse it."""
    with transaction.atomic():
        table = locked_table(table_id)
        prefetch_related_objects([table], Prefetch("seats", queryset=PlaySeat.objects.select_related("user")))
        mine = require_player(user, table)
        if seat is not None and seat != mine.seat:
            raise Forbidden(_("You play seat %(seat)s only.") % {"seat": mine.seat})
        if version != table.version:
            if already_applied(table, mine.seat, action, version):
                return table_view(user, table)
            raise Conflict(_("The table has moved on: reload it."), extra={"version": table.version})
        game = game_of(table)
        if game.to_act != mine.seat:
            message = _("The game is over.") if game.phase == Phase.OVER else _("It is not your turn.")
            raise Conflict(message, extra={"version": table.version})
        text = judged(game, action)
        record_action(table, game, mine.seat, text, by_robot=False)
        if mine.standin or mine.last_seen is None or timezone.now() - mine.last_seen > SEEN_AGAIN:
            back_in_seat(mine)  # not written at every card: seen a moment ago is seen
        return table_view(user, table, game)


def judged(game: GameState, action: str) -> str:
    """Apply the action to the game or raise Invalid with the engine's rule, its reason
    and the refusal's sentence in the reader's language (drive.play.refusals)."""
    if not isinstance(action, str) or not action.strip() or len(action) > MAX_ACTION_LENGTH:
        raise Invalid(_("An action is a card (\"AS\") or a call (\"pass\")."), field="action")
    try:
        act = parse_action(action)
        game.apply(act)
    except IllegalAction as exc:
        raise Invalid(refusal_text(exc), extra={"rule": exc.rule, "reason": exc.reason}) from None
    except EngineError as exc:
        raise Invalid(_("“%(action)s” is neither a card nor a call.") % {"action": action.strip()},
                      extra={"rule": getattr(exc, "rule", None), "reason": "not_an_action"}) from None
    return str(act)


def already_applied(table: PlayTable, seat: str, action: str, version: int) -> bool:
    """The seat's same action, sent from `version`, was applied: it produced version + 1."""
    try:
        text = str(parse_action(action))
    except (EngineError, TypeError):
        return False
    return PlayAction.objects.filter(table=table, version=version + 1, seat=seat, action=text,
                                     by_robot=False).exists()


def record_action(table: PlayTable, game: GameState, seat: str, text: str, *, by_robot: bool) -> None:
    """Save the game after an applied action: a scored hand's next deal at once (S3, S4:
    dealt by a cryptographically strong generator, the deal kept in the record), the
    next version, the log; after commit the change is published and a robot woken."""
    post_hand(table, game)  # an event's table: the hand counts in the evening at once
    review_after_commit(table, game)  # a hand just ended: its double-dummy review is made once, by a worker
    if game.phase == Phase.SCORED:
        game.deal(new_rng())
    table.record = game.record()
    table.version += 1
    table.phase = str(game.phase)
    # An event's table is finished when its round is closed (drive.play.services.evening):
    # its hands are shown to everyone from then, not while the round is still played.
    if game.phase == Phase.OVER and table.finished_at is None and table.event_id is None:
        table.finished_at = timezone.now()
    table.save(update_fields=["record", "version", "phase", "finished_at", "changed_at"])
    PlayAction.objects.create(table=table, version=table.version, seat=seat, action=text, by_robot=by_robot)
    transaction.on_commit(snapshot_keeper(table, game))  # the sockets' views of this version need no replay
    change = new_change()
    transaction.on_commit(announced_keeper(table, change))  # nor, in this process, a read of the table
    publish_table(table.pk, table.version, change)
    wake_robot(table, game)


def back_in_seat(seat: PlaySeat) -> None:
    """The person is here: seen now, and no robot stands in for them any more."""
    seat.last_seen = timezone.now()
    seat.standin = False
    seat.save(update_fields=["last_seen", "standin"])


def wake_robot(table: PlayTable, game: GameState) -> None:
    """After commit, ask a worker for the robot's move when a robot (or a stand-in) is to act."""
    to_act = game.to_act
    if to_act is None or table.finished_at is not None:
        return
    seats = getattr(table, "_prefetched_objects_cache", {}).get("seats")
    seat = (next((s for s in seats if s.seat == to_act), None) if seats is not None
            else PlaySeat.objects.filter(table=table, seat=to_act).first())
    if seat is not None and seat.played_by_robot:
        table_id, version = table.pk, table.version
        transaction.on_commit(lambda: send_robot_move(table_id, version), robust=True)


_eager = threading.local()
_moves_held = Held()


def robot_moves_held() -> AbstractContextManager[list[tuple[int, int]]]:
    """Within it (in this thread), robots' moves woken by a commit are collected, not sent:
    a table's socket answers its player first, then sends them (send_robot_moves)."""
    return _moves_held.collecting()


def send_robot_moves(moves: list[tuple[int, int]]) -> None:
    for table_id, version in moves:
        send_robot_move(table_id, version)


def send_robot_move(table_id: int, version: int) -> None:
    """Send the robot's task with a human-like countdown. Run in-process (eager Celery), a
    robot's move would wake the next inside itself, and a table of robots would recurse
    as deep as its game is long: a move woken inside another waits for it to return."""
    held = _moves_held.items
    if held is not None:
        held.append((table_id, version))
        return
    pending = getattr(_eager, "pending", None)
    if pending is not None:
        pending.append((table_id, version))
        return
    _eager.pending = [(table_id, version)]
    try:
        while _eager.pending:
            args = _eager.pending.pop(0)
            task(ROBOT_TASK).apply_async(args, countdown=robot_delay())
    finally:
        _eager.pending = None


def robot_delay() -> float:
    low, high = settings.PLAY_ROBOT_DELAY
    return random.uniform(low, high)  # noqa: S311 - a pause, not a secret
