"""Websocket of an online table (`/ws/play/<id>/`): the caller's own view on connect and
after every change of the table, nothing else. A change message carries no cards (only
the table and its version); each socket re-reads its own seat's view, so no frame ever
holds a hand its reader may not see. A page may also send {"action", "version"}: the
same service as the REST API judges it (under the table's row lock), and the answer is
the new view, or {"error": {...}} with the status the API would give.

Every refusal reaches the page as a close code after the handshake (a close before it is a
bare 403 to a browser, which cannot tell "not allowed" from "try again"): 4403 not allowed,
4404 no such table, 4013 the channel layer is down (poll the REST view, reconnect later),
1008 too many sockets of one user, 1009 a frame over PLAY_FRAME_MAX_BYTES. A frame nested
too deeply, or over the socket's or the user's action rate, gets an error frame (400, 429)."""
from __future__ import annotations

import asyncio
import collections
import functools
import json
import logging
import weakref
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import close_old_connections
from django.utils import translation
from django.utils.translation import gettext as _

from drive.core.broadcast import send_table_message, table_changes_held, table_group
from drive.core.channel_layer import LAYER_DOWN
from drive.core.errors import ServiceError
from drive.core.languages import scope_language
from drive.core.limits import TooDeep, bounded_json
from drive.core.sockets import Pace, SocketLease, user_may_act
from drive.games.access import invite_of, may_watch
from drive.games.models import PlayTable
from drive.games.services.actions import apply_action, robot_moves_held, seen_at_table, send_robot_moves
from drive.games.selectors.tables import announced_table, has_snapshot, snapshot, table_view, table_with_seats

log = logging.getLogger(__name__)
# Reads and actions run in parallel threads (each its own database connection), not one
# after another on the process's one thread for the database: an action holds only its own
# table's row lock, so the tables of a server do not wait for each other.
# Each closes its connection where it opened it: the connection lives in the context the
# work ran in (asgiref's), which channels' own closing, outside that context, may not see,
# and a connection never closed is never given back to the pool.


def _closing(work: Any) -> Any:
    @functools.wraps(work)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return work(*args, **kwargs)
        finally:
            close_old_connections()
    return run


def reading(work: Any) -> Any:
    return database_sync_to_async(_closing(work), thread_sensitive=False)


acting = reading
REFUSED = 4403  # not signed in, or no seat, creation nor invitation of a casual table
NO_TABLE = 4404  # no such table
TRY_LATER = 4013  # the channel layer is down: the page polls, then reconnects (1013's meaning; daphne may not send 1013)
TOO_MANY_SOCKETS = 1008  # policy: the user holds PLAY_SOCKETS_PER_USER sockets already
TOO_BIG = 1009  # a frame over PLAY_FRAME_MAX_BYTES
FRAME_MAX_DEPTH = 4  # an action frame is flat: {"action": "AS", "version": 3}


def view_for(user: Any, table_id: int, invite: Any = None) -> dict[str, Any] | None:
    """The caller's view of the table now, or None if there is no such table (or the
    caller may not watch it: a casual table needs a seat, its creation or its invitation)."""
    table = table_with_seats(table_id)
    if table is None or not may_watch(user, table, invite):
        return None
    return table_view(user, table)


def view_of(user: Any, table: PlayTable, invite: Any = None) -> dict[str, Any] | None:
    """The caller's view of a table already read (None if they may not watch it)."""
    return table_view(user, table) if may_watch(user, table, invite) else None


# One read of a table per announced change and server process: the table's sockets on this
# server share it (each then computes its own seat's view), instead of a query each.
SHARED_READ_SECONDS = 5.0
_reads: dict[tuple[int, str], asyncio.Future] = {}


async def table_after(table_id: int, change: str) -> PlayTable | None:
    known = announced_table(table_id, change)  # this process made the change: no read at all
    if known is not None:
        return known
    key = (table_id, change)
    read = _reads.get(key)
    if read is None:
        read = _reads[key] = asyncio.ensure_future(reading(table_ready)(table_id))
        asyncio.get_running_loop().call_later(SHARED_READ_SECONDS, _reads.pop, key, None)
    return await asyncio.shield(read)


def table_ready(table_id: int) -> PlayTable | None:
    """The table with its seats and, for a casual table, its game at this version at hand
    (replayed here, once for all the sockets, when another process made the change)."""
    table = table_with_seats(table_id)
    if table is not None and table.event_id is None:
        snapshot(table)
    return table


# This server's sockets of each table (per event loop: tests run several). A change made by
# an action sent on one of them reaches the others at once, without the round through the
# channel layer, whose announcement then serves the table's sockets on other servers; a
# socket takes each change once, whichever way it came first (`heard`).
_here: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, set[TableConsumer]]] = \
    weakref.WeakKeyDictionary()
_handing: set[asyncio.Future] = set()  # the hand-overs under way (a task needs a reference)
HEARD_KEPT = 32


def sockets_here(table_id: int) -> set[TableConsumer]:
    tables = _here.setdefault(asyncio.get_running_loop(), {})
    return tables.setdefault(table_id, set())


def _handed(task: asyncio.Future) -> None:
    _handing.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.debug("a table socket did not take a change", exc_info=task.exception())


def table_exists(table_id: int) -> bool:
    return table_with_seats(table_id) is not None


def invite_in(scope: dict[str, Any], table_id: int) -> Any:
    """The invitation in the socket's query (?invite=...), else the one its session keeps."""
    given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("invite", [None])[0]
    return invite_of(scope.get("session"), table_id, given)


def error_frame(status: int, code: str, detail: str) -> dict[str, Any]:
    return {"error": {"status": status, "detail": detail, "code": code}}


def throttled() -> dict[str, Any]:
    return error_frame(429, "throttled", _("Too many actions: wait a moment and try again."))


def act(user: Any, table_id: int, action: Any, version: Any, language: str) -> tuple[
        dict[str, Any], list[dict[str, Any]], list[tuple[int, int]]]:
    """The answer to an action (its refusal in the socket's language), and what its commit
    would have sent at once: the table's announcements and the robots' moves it woke, for
    the socket to send after its answer."""
    with translation.override(language):
        if not user_may_act(user.pk, settings.PLAY_USER_ACTIONS):  # over all the user's sockets and servers
            return throttled(), [], []
        if not isinstance(version, int) or isinstance(version, bool):
            return {"error": {"status": 400, "detail": _("The version must be a whole number."),
                              "code": "invalid"}}, [], []
        return _acted(user, table_id, action, version)


def _acted(user: Any, table_id: int, action: Any, version: int) -> tuple[
        dict[str, Any], list[dict[str, Any]], list[tuple[int, int]]]:
    with table_changes_held() as announcements, robot_moves_held() as robots:
        try:
            answer = apply_action(user=user, table_id=table_id, action=action, version=version)
        except ServiceError as refused:
            answer = {"error": {"status": refused.status, **refused.as_dict()}}
    return answer, announcements, robots


def frame_size(data: str | bytes) -> int:
    """A frame's size in bytes (as sent: UTF-8)."""
    return len(data) if isinstance(data, bytes) or data.isascii() else len(data.encode())


class TableConsumer(AsyncWebsocketConsumer):
    table_id: int | None = None
    invite: Any = None
    answered: int | None = None  # the version this socket's own action produced (its view already sent)
    group: str | None = None
    language = "en"  # of its refusals: the page's (scope_language)
    sent = -1  # the version of the last view sent: an older change is not sent (a seat taken keeps the version)

    def joined(self) -> int:
        """The table's id, read from the URL in connect: a message or announcement comes after it."""
        if self.table_id is None:
            raise RuntimeError("a table socket used before its connect")
        return self.table_id
    lease: SocketLease | None = None  # its place among its user's open sockets
    layer_failed = False  # its channel layer's receive failed: the socket ends with "try again"
    _layer_receive: Any = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.heard: collections.deque[str] = collections.deque(maxlen=HEARD_KEPT)  # changes taken
        self.pace = Pace(settings.PLAY_SOCKET_ACTIONS)

    # Channels sets `channel_receive` to the layer's receive and ends the socket with 1011
    # when it raises; a layer that is down ends it with "try again" instead: its failure
    # becomes a message, dispatched in turn with the socket's own (a receive may fail before
    # the socket's connect is handled), then the layer is left alone.
    @property
    def channel_receive(self) -> Any:
        return self._receive_from_layer

    @channel_receive.setter
    def channel_receive(self, receive: Any) -> None:
        self._layer_receive = receive

    async def _receive_from_layer(self) -> dict[str, Any]:
        if self.layer_failed:
            await asyncio.Future()  # the socket is closing: nothing more from the layer
        try:
            return await self._layer_receive()
        except LAYER_DOWN as exc:
            log.warning("table %s: the channel layer failed a socket's receive (%r)", self.table_id, exc)
            self.layer_failed = True
            return {"type": "layer.down"}

    async def layer_down(self, message: dict[str, Any]) -> None:
        if self.table_id is not None and self in sockets_here(self.table_id):  # accepted (else its connect sees layer_failed and refuses)
            await self.close(code=TRY_LATER)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """As Channels' dispatch, without its hop to the process's one database thread before
        every message (to close that thread's old connections): this consumer never reads
        the database there (its reads and actions run in threads of their own, which close
        theirs), and under load that hop queued every socket's every change behind the others."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.language = scope_language(self.scope)
        user = self.scope.get("user")
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if user is None or not user.is_authenticated:
            await self._refuse(REFUSED)
            return
        self.invite = await database_sync_to_async(invite_in)(self.scope, self.table_id)
        view = await reading(view_for)(user, self.table_id, self.invite)
        if view is None:
            there = await database_sync_to_async(table_exists)(self.table_id)
            await self._refuse(REFUSED if there else NO_TABLE)
            return
        lease = SocketLease(user.pk, settings.PLAY_SOCKETS_PER_USER)
        if not await lease.take():
            with translation.override(self.language):
                crowded = error_frame(429, "too_many_sockets",
                                      _("Too many connections to tables are open: close another tab and reload."))
            await self._refuse(TOO_MANY_SOCKETS, crowded)
            return
        self.lease = lease
        try:
            await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
            self.group = table_group(self.table_id)
        except Exception as exc:  # noqa: BLE001 - the layer is down: the page polls meanwhile
            log.warning("table %s: the channel layer refused a socket (%r)", self.table_id, exc)
            self.layer_failed = True
        if self.layer_failed:
            await self._refuse(TRY_LATER)
            return
        sockets_here(self.table_id).add(self)
        await self.accept()
        await acting(seen_at_table)(user=user, table_id=self.table_id)  # its person is back: resume a paused table
        # Read again once in the group: a change between the first read and the join is not missed.
        await self._send_view(await reading(view_for)(user, self.table_id, self.invite) or view)

    async def _refuse(self, code: int, frame: dict[str, Any] | None = None) -> None:
        """Accepted, then closed with `code`: a close before the handshake reaches a browser
        as a bare 403 (1006), whatever the reason."""
        await self.accept()
        if frame is not None:
            await self.send(text_data=json.dumps(frame))
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        if self.lease is not None:
            await self.lease.release()
            self.lease = None
        if self.table_id is not None:
            here = _here.get(asyncio.get_running_loop(), {})
            here.get(self.table_id, set()).discard(self)
            if not here.get(self.table_id, True):
                del here[self.table_id]
        if self.group is not None:
            try:
                await self.channel_layer.group_discard(self.group, self.channel_name)
            except Exception:  # noqa: BLE001 - a layer that is down forgets us anyway
                log.debug("leaving %s failed", self.group, exc_info=True)

    async def play_changed(self, message: dict[str, Any]) -> None:
        if message.get("table") != self.table_id:
            return
        change = message.get("change")
        if isinstance(change, str):
            if change in self.heard:  # handed over by this server already, or the other way round
                return
            self.heard.append(change)
        if message.get("version", 0) < self.sent:
            return
        if message.get("version") == self.answered:  # this socket's own action: its answer was the view
            self.answered = None
            return
        if isinstance(change, str):
            table = await table_after(self.joined(), change)
            if table is not None and table.event_id is None and has_snapshot(table):
                # A casual table read with its seats and its game at hand: the view needs no
                # database, so it is made here rather than after a hop to a thread.
                view = view_of(self.scope["user"], table, self.invite)
            else:
                view = None if table is None else await reading(view_of)(self.scope["user"], table, self.invite)
        else:
            view = await reading(view_for)(self.scope["user"], self.table_id, self.invite)
        if view is not None:
            await self._send_view(view)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        data = text_data if text_data is not None else bytes_data or b""
        if frame_size(data) > settings.PLAY_FRAME_MAX_BYTES:
            await self.close(code=TOO_BIG)
            return
        message, refusal = self._read(data)
        if refusal is not None:
            await self.send(text_data=json.dumps(refusal))
            return
        answer, announcements, robots = await acting(act)(self.scope["user"], self.table_id, message.get("action"),
                                                          message.get("version"), self.language)
        for announcement in announcements:
            self._hand_over(announcement)
        if "error" in answer:
            await self.send(text_data=json.dumps(answer))
        else:
            if answer["version"] > self.sent and not announcements:
                # a new version of its own (not a retry answered again) announced by a commit
                # outside this socket's hands: its announcement is not sent again
                self.answered = answer["version"]
            await self._send_view(answer)
        for announcement in announcements:  # the table's sockets on the other servers
            await send_table_message(announcement, elsewhere=announcement.get("table") == self.table_id)
        if robots:  # a robot to move next: its task is sent once every view is out
            try:
                await acting(send_robot_moves)(moves=robots)
            except Exception as exc:  # noqa: BLE001 - the broker is down: the beat's sweep wakes the robot later
                log.warning("table %s: a robot's move was not sent (%r)", self.table_id, exc)

    def _read(self, data: str | bytes) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The frame's action message, or the error frame that refuses it."""
        with translation.override(self.language):
            if not self.pace.allows():  # every frame counts, a malformed one too
                return {}, throttled()
            try:
                message = bounded_json(data, FRAME_MAX_DEPTH)
            except TooDeep as deep:
                return {}, error_frame(400, deep.code, deep.message)
            except ValueError:
                message = None
            if not isinstance(message, dict) or "action" not in message:
                return {}, error_frame(400, "invalid", _("Send {\"action\": ..., \"version\": ...}."))
        return message, None

    def _hand_over(self, announcement: dict[str, Any]) -> None:
        """The change this socket's action made, to this server's other sockets of the table
        now (this socket's own view is its answer)."""
        if announcement.get("table") != self.table_id:
            return
        self.heard.append(announcement["change"])
        for socket in sockets_here(self.joined()):
            if socket is not self:
                task = asyncio.ensure_future(socket.play_changed(announcement))
                _handing.add(task)
                task.add_done_callback(_handed)

    async def _send_view(self, view: dict[str, Any]) -> None:
        if view["version"] < self.sent:
            return
        self.sent = view["version"]
        await self.send(text_data=json.dumps(view))
