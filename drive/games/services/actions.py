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
import uuid
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext as _

from drive.core.accounts import User
from drive.core.broadcast import Held, publish_table
from drive.core.errors import Conflict, Forbidden, Invalid, NotFound
from drive.core.jobs import task
from engine import EngineError, GameState, IllegalAction, Phase, new_rng, parse_action
from drive.games.access import require_seated
from drive.games.models import PlayAction, PlaySeat, PlayTable
from drive.games.refusals import refusal_text
from drive.games.selectors.tables import game_of, keepers, seats_with_players, snapshot, table_view
from drive.games.services.hands import SCORED, post_hand
from drive.games.services.reviews import hand_ended, review_after_commit

ROBOT_TASK = "drive.games.tasks.robot_move"
ROBOT_PENDING_SECONDS = 30  # a robot's move not run by then expires unrun (the sweep asks again)
MAX_ACTION_LENGTH = 64
SEEN_AGAIN = timedelta(seconds=10)


def locked_table(*, table_id: int) -> PlayTable:
    """The table's row, locked until the transaction ends (404 if there is none). Its record
    is read only if needed: the game at this version is usually in the snapshot already."""
    table = PlayTable.objects.select_for_update().defer("record").filter(pk=table_id).first()
    if table is None:
        raise NotFound(_("No such table."))
    return table


def apply_action(*, user: User | None, table_id: int, action: str, version: int,
                 seat: str | None = None) -> dict[str, Any]:
    """Apply the caller's action and answer their new view. 403: not their seat; 409:
    not their turn, or `version` is not the table's; 400: the rules refuse it."""
    with transaction.atomic():
        table = locked_table(table_id=table_id)
        prefetch_related_objects([table], seats_with_players())
        viewer = require_seated(user, table)
        mine = viewer.seat
        if mine is None:  # require_seated has refused a watcher already
            raise Forbidden(_("You have no seat at this table."))
        if table.finished_at is not None and table.event_id is None:
            raise Conflict(_("The game is over."), extra={"version": table.version})  # or closed for want of people
        if seat is not None and seat != mine.seat:
            raise Forbidden(_("You play seat %(seat)s only.") % {"seat": mine.seat})
        if version != table.version:
            if already_applied(table=table, seat=mine.seat, action=action, version=version):
                return table_view(user, table, viewer=viewer)
            raise Conflict(_("The table has moved on: reload it."), extra={"version": table.version})
        game = game_of(table)
        if game.to_act != mine.seat:
            message = _("The game is over.") if game.phase == Phase.OVER else _("It is not your turn.")
            raise Conflict(message, extra={"version": table.version})
        # Back in their seat before the action (not written at every card: seen a moment ago
        # is seen), so that the robot woken after it knows the seat is theirs again: a person
        # whose card took the trick leads next, and no robot's move is queued for them.
        if mine.standin or mine.last_seen is None or timezone.now() - mine.last_seen > SEEN_AGAIN:
            back_in_seat(seat=mine, table=table, game=game)
        text = judged(game=game, action=action)
        record_action(table=table, game=game, seat=mine.seat, text=text, by_robot=False)
        return table_view(user, table, game, viewer=viewer)


def judged(*, game: GameState, action: str) -> str:
    """Apply the action to the game or raise Invalid with the engine's rule, its reason
    and the refusal's sentence in the reader's language (drive.games.refusals)."""
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


def already_applied(*, table: PlayTable, seat: str, action: str, version: int) -> bool:
    """The seat's same action, sent from `version`, was applied: it produced version + 1."""
    try:
        text = str(parse_action(action))
    except (EngineError, TypeError):
        return False
    return PlayAction.objects.filter(table=table, version=version + 1, seat=seat, action=text,
                                     by_robot=False).exists()


def record_action(*, table: PlayTable, game: GameState, seat: str, text: str, by_robot: bool) -> None:
    """Save the game after an applied action: a scored hand's next deal at once (S3, S4:
    dealt by a cryptographically strong generator, the deal kept in the record), the
    next version, the log; after commit the change is published and a robot woken."""
    ended = None
    if game.phase in SCORED:  # a hand ended: told to whoever listens (the evening counts it)
        post_hand(table=table, game=game)
        ended = hand_ended(game=game)  # before the next deal
    if game.phase == Phase.SCORED:
        game.deal(new_rng())
    table.record = game.record()
    table.version += 1
    table.phase = str(game.phase)
    # An event's table is finished when its round is closed (drive.games.services.rounds):
    # its hands are shown to everyone from then, not while the round is still played.
    if game.phase == Phase.OVER and table.finished_at is None and table.event_id is None:
        table.finished_at = timezone.now()
    table.save(update_fields=["record", "version", "phase", "finished_at", "changed_at"])
    PlayAction.objects.create(table=table, version=table.version, seat=seat, action=text, by_robot=by_robot)
    # After commit this process keeps the game at this version (the sockets' views need no
    # replay) and the table as the change left it (nor a read of the table), before the
    # change is announced: the announcement's name is made here (any unique name will do).
    change = uuid.uuid4().hex
    transaction.on_commit(keepers(table, game, change))
    publish_table(table.pk, table.version, change)
    wake_robot(table=table, game=game)
    if ended is not None:  # asked last: with eager Celery its seconds of solving follow the table's news
        review_after_commit(table_id=table.pk, hand=ended)


def back_in_seat(*, seat: PlaySeat, table: PlayTable | None = None, game: GameState | None = None) -> None:
    """The person is here: seen now, and no robot stands in for them any more. Back at a
    table paused for want of a person, they resume it: the robot to act is woken."""
    was_away = not is_present(seat=seat, now=timezone.now())
    seat.last_seen = timezone.now()
    seat.standin = False
    seat.save(update_fields=["last_seen", "standin"])
    if was_away:
        table = table or seat.table
        wake_robot(table=table, game=game or game_of(table))  # one pending move a table: never a second


def seen_at_table(*, user: User | None, table_id: int) -> bool:
    """The person opened their table (its socket): they are present, so a table paused for
    want of them resumes and no robot stands in for them any more. Written only when they
    were away or last seen a while ago. Answers whether it wrote."""
    if user is None or not user.is_authenticated:
        return False
    with transaction.atomic():
        table = locked_table(table_id=table_id)
        mine = table.seats.filter(user=user).first()
        if mine is None or table.finished_at is not None:
            return False
        if not mine.standin and mine.last_seen is not None and timezone.now() - mine.last_seen <= SEEN_AGAIN:
            return False
        back_in_seat(seat=mine, table=table)
        return True


def is_present(*, seat: PlaySeat, now: datetime) -> bool:
    """A person sits here, plays for themselves and was seen within the idle pause."""
    return (seat.user_id is not None and not seat.standin and seat.last_seen is not None
            and now - seat.last_seen < timedelta(seconds=settings.PLAY_IDLE_PAUSE_SECONDS))


def is_paused(*, table: PlayTable, seats: list[PlaySeat], now: datetime | None = None) -> bool:
    """A casual table with no person present is paused: its robots never play on their own.
    An event's table never is: its round's deadline rules it."""
    now = now or timezone.now()
    return table.event_id is None and not any(is_present(seat=seat, now=now) for seat in seats)


def wake_robot(*, table: PlayTable, game: GameState) -> None:
    """After commit, ask a worker for the robot's move when a robot (or a stand-in) is to act."""
    to_act = game.to_act
    if to_act is None or table.finished_at is not None:
        return
    seats = getattr(table, "_prefetched_objects_cache", {}).get("seats")
    seat = (next((s for s in seats if s.seat == to_act), None) if seats is not None
            else PlaySeat.objects.filter(table=table, seat=to_act).first())
    if seat is not None and seat.played_by_robot:
        table_id, version = table.pk, table.version
        transaction.on_commit(lambda: send_robot_move(table_id=table_id, version=version), robust=True)


_eager = threading.local()
_moves_held = Held()


def robot_moves_held() -> AbstractContextManager[list[tuple[int, int]]]:
    """Within it (in this thread), robots' moves woken by a commit are collected, not sent:
    a table's socket answers its player first, then sends them (send_robot_moves)."""
    return _moves_held.collecting()


def send_robot_moves(*, moves: list[tuple[int, int]]) -> None:
    for table_id, version in moves:
        send_robot_move(table_id=table_id, version=version)


def send_robot_move(*, table_id: int, version: int) -> None:
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
            table_id, version = _eager.pending.pop(0)
            dispatch_robot_move(table_id=table_id, version=version)
    finally:
        _eager.pending = None


def dispatch_robot_move(*, table_id: int, version: int) -> None:
    """Queue the move, fairly: at most one pending move a table (a table that moved on
    meanwhile is asked again by that move when it runs: robots.play_robot); none for a
    paused table; a strong robot's move, or one at a table where no person waits, in the
    slow queue, so a quick robot's move where a person waits never queues behind them."""
    table = PlayTable.objects.filter(pk=table_id, finished_at__isnull=True).defer("record").first()
    if table is None:
        return
    seats = list(PlaySeat.objects.filter(table_id=table_id))
    if is_paused(table=table, seats=seats):
        return
    key = pending_key(table=table)
    if not cache.add(key, version, timeout=ROBOT_PENDING_SECONDS):
        return
    delay = robot_delay()
    slow = robot_is_slow(table=table, seats=seats, version=version)
    try:
        if slow:
            task(ROBOT_TASK).apply_async((table_id, version), countdown=delay, queue=settings.PLAY_ROBOT_SLOW_QUEUE)
        else:  # settings.CELERY_TASK_ROUTES: the robots' queue
            task(ROBOT_TASK).apply_async((table_id, version), countdown=delay)
    except Exception:
        cache.delete(key)  # not queued: not pending
        raise


def robot_is_slow(*, table: PlayTable, seats: list[PlaySeat], version: int) -> bool:
    """A strong robot to act, or nobody present (an event's table of absent players)."""
    to_act = snapshot(table).game.to_act if version == table.version else None  # the sender's process has it
    robot = next((seat.robot for seat in seats if seat.seat == to_act), "")
    return robot == "strong" or not any(is_present(seat=seat, now=timezone.now()) for seat in seats)


def pending_key(*, table: PlayTable) -> str:
    # the invitation's secret tells this table from another of the same id in a database made again
    return f"play:robot-move:{table.pk}:{table.invite}"


def robot_move_started(*, table: PlayTable) -> None:
    """The table's pending move runs: the next may be queued."""
    cache.delete(pending_key(table=table))


def robot_delay() -> float:
    low, high = settings.PLAY_ROBOT_DELAY
    return random.uniform(low, high)  # noqa: S311 - a pause, not a secret
