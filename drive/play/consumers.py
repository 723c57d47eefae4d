"""Websocket of an online table (`/ws/play/<id>/`): the caller's own view on connect and
after every change of the table, nothing else. A change message carries no cards (only
the table and its version); each socket re-reads its own seat's view, so no frame ever
holds a hand its reader may not see. A page may also send {"action", "version"}: the
same service as the REST API judges it (under the table's row lock), and the answer is
the new view, or {"error": {...}} with the status the API would give."""
from __future__ import annotations

import asyncio
import functools
import json
import logging
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from drive.core.broadcast import table_group
from drive.core.errors import ServiceError
from drive.play.access import invite_of, may_watch
from drive.play.models import PlayTable
from drive.play.services.actions import apply_action
from drive.play.selectors.tables import has_snapshot, table_view, table_with_seats

log = logging.getLogger(__name__)
# A view is a read: sockets read theirs in parallel threads (each its own database
# connection), not one after another on the process's one thread for the database.
reading = functools.partial(database_sync_to_async, thread_sensitive=False)
REFUSED = 4403  # not signed in, or no seat, creation nor invitation of a casual table
NO_TABLE = 4404  # no such table
TRY_LATER = 4013  # the channel layer is down: the page polls, then reconnects


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
    key = (table_id, change)
    read = _reads.get(key)
    if read is None:
        read = _reads[key] = asyncio.ensure_future(reading(table_with_seats)(table_id))
        asyncio.get_running_loop().call_later(SHARED_READ_SECONDS, _reads.pop, key, None)
    return await asyncio.shield(read)


def table_exists(table_id: int) -> bool:
    return table_with_seats(table_id) is not None


def invite_in(scope: dict[str, Any], table_id: int) -> Any:
    """The invitation in the socket's query (?invite=...), else the one its session keeps."""
    given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("invite", [None])[0]
    return invite_of(scope.get("session"), table_id, given)


def act(user: Any, table_id: int, action: Any, version: Any) -> dict[str, Any]:
    if not isinstance(version, int) or isinstance(version, bool):
        return {"error": {"status": 400, "detail": "version must be a whole number", "code": "invalid"}}
    try:
        return apply_action(user, table_id, action, version)
    except ServiceError as refused:
        return {"error": {"status": refused.status, **refused.as_dict()}}


class TableConsumer(AsyncWebsocketConsumer):
    table_id: int | None = None
    invite: Any = None
    answered: int | None = None  # the version this socket's own action produced (its view already sent)
    group: str | None = None
    sent = -1  # the version of the last view sent: an older change is not sent (a seat taken keeps the version)

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if user is None or not user.is_authenticated:
            await self.close(code=REFUSED)
            return
        self.invite = await database_sync_to_async(invite_in)(self.scope, self.table_id)
        view = await reading(view_for)(user, self.table_id, self.invite)
        if view is None:
            there = await database_sync_to_async(table_exists)(self.table_id)
            await self.close(code=REFUSED if there else NO_TABLE)
            return
        try:
            await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        except Exception as exc:  # noqa: BLE001 - the layer is down: the page polls meanwhile
            log.warning("table %s: the channel layer refused a socket (%r)", self.table_id, exc)
            await self.close(code=TRY_LATER)
            return
        self.group = table_group(self.table_id)
        await self.accept()
        # Read again once in the group: a change between the first read and the join is not missed.
        await self._send_view(await reading(view_for)(user, self.table_id, self.invite) or view)

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            try:
                await self.channel_layer.group_discard(self.group, self.channel_name)
            except Exception:  # noqa: BLE001 - a layer that is down forgets us anyway
                log.debug("leaving %s failed", self.group, exc_info=True)

    async def play_changed(self, message: dict[str, Any]) -> None:
        if message.get("table") != self.table_id or message.get("version", 0) < self.sent:
            return
        if message.get("version") == self.answered:  # this socket's own action: its answer was the view
            self.answered = None
            return
        change = message.get("change")
        if isinstance(change, str):
            table = await table_after(self.table_id, change)
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
        try:
            message = json.loads(text_data or "")
        except ValueError:
            message = None
        if not isinstance(message, dict) or "action" not in message:
            await self.send(text_data=json.dumps({"error": {"status": 400, "code": "invalid",
                                                            "detail": "send {\"action\": ..., \"version\": ...}"}}))
            return
        answer = await database_sync_to_async(act)(self.scope["user"], self.table_id, message.get("action"),
                                                   message.get("version"))
        if "error" in answer:
            await self.send(text_data=json.dumps(answer))
        else:
            if answer["version"] > self.sent:  # a new version of its own (not a retry answered again)
                self.answered = answer["version"]
            await self._send_view(answer)

    async def _send_view(self, view: dict[str, Any]) -> None:
        if view["version"] < self.sent:
            return
        self.sent = view["version"]
        await self.send(text_data=json.dumps(view))
