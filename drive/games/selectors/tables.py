"""Reads of online tables: the caller's view (the API's and the websocket's JSON), the
finished hands' records, and a user's tables."""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

from django.db.models import Prefetch, Q, QuerySet

from drive.core.accounts import User
from engine import GameState, Phase, replay_game
from drive.games.access import Viewer, any_table, viewer_of
from drive.games.models import PlaySeat, PlayTable

PRIVATE_KEYS = ("seat", "hand", "legal")  # a watcher gets none of these


def seats_with_players() -> Prefetch:
    """A table's seats with their players, fetched with the table (one query for both)."""
    return Prefetch("seats", queryset=PlaySeat.objects.select_related("user"))


def game_of(table: PlayTable) -> GameState:
    """The game as the record has it (the record is only ever written from a legal game),
    a copy of its own that the caller may play on."""
    return snapshot(table).game.copy()


# --- the game per table and version, replayed once per process -------------------------------
# Every change of a table's record is a new version (services/actions.record_action), so the
# game at (table, version) never changes: each socket re-reading its view after a play finds
# it here instead of replaying the whole record. The row's changed_at is in the key too, so
# a record written some other way (the admin, a test) is never answered from here.

class Snapshot(NamedTuple):
    game: GameState  # read only: a caller who plays on it takes game.copy()
    last: dict[str, Any] | None  # the last finished hand's record


SNAPSHOTS_KEPT = 256  # a few versions of each table a server plays: the collector walks them all
_snapshots: OrderedDict[tuple, Snapshot] = OrderedDict()
_snapshots_lock = threading.Lock()


def _key(table: PlayTable) -> tuple:
    return table.pk, table.version, table.changed_at


def has_snapshot(table: PlayTable) -> bool:
    """The game at the table's version is at hand in this process (no database to read)."""
    with _snapshots_lock:
        return _key(table) in _snapshots


def snapshot(table: PlayTable) -> Snapshot:
    """The table's game at its version (and its last finished hand), replayed at most once
    per process; the record is read only then (table_with_seats defers it)."""
    key = _key(table)
    with _snapshots_lock:
        found = _snapshots.get(key)
        if found is not None:
            _snapshots.move_to_end(key)
            return found
    game = replay_game(table.record)
    found = Snapshot(game, last_record(table, game))
    _keep(key, found)
    return found


def _keep(key: tuple, found: Snapshot) -> None:
    with _snapshots_lock:
        _snapshots[key] = found
        while len(_snapshots) > SNAPSHOTS_KEPT:
            _snapshots.popitem(last=False)


def snapshot_keeper(table: PlayTable, game: GameState) -> Callable[[], None]:
    """What keeps `game` as the table's snapshot at its saved version: run it after the
    commit (a version rolled back is never kept). The game is read only from then on."""
    key, found = _key(table), Snapshot(game, last_record(table, game))
    return lambda: _keep(key, found)


def keepers(table: PlayTable, game: GameState, change: str) -> Callable[[], None]:
    """What keeps, once the action commits, both the game as the table's snapshot at its new
    version and the table as the announcement `change` left it (one call after commit)."""
    keep_game, keep_table = snapshot_keeper(table, game), announced_keeper(table, change)

    def keep() -> None:
        keep_game()
        keep_table()
    return keep


# --- the table as an announced change left it, kept by the process that made the change ---
# The action's transaction read the table and its seats (with their players) under the row
# lock and changed them: once committed, that object is the table as the announcement of this
# change (its name, `change`) describes it. This process's sockets that hear the announcement
# take it from here instead of reading the database again; any other announcement (a seat
# taken, a stand-in) has a name of its own and is read.

ANNOUNCED_KEPT = 64  # wanted for the moments its sockets take the change
_announced: OrderedDict[tuple[int, str], PlayTable] = OrderedDict()


def announced_keeper(table: PlayTable, change: str) -> Callable[[], None]:
    """What keeps `table` (its seats prefetched with their players) as the one announced by
    `change`: run it after the commit. The table is read only from then on."""
    seats = getattr(table, "_prefetched_objects_cache", {}).get("seats")
    if seats is None or any(s.user_id is not None and not PlaySeat.user.is_cached(s) for s in seats):
        return lambda: None  # its seats would be read on first use: not a table to share

    def keep() -> None:
        with _snapshots_lock:
            _announced[(table.pk, change)] = table
            while len(_announced) > ANNOUNCED_KEPT:
                _announced.popitem(last=False)
    return keep


def announced_table(table_id: int, change: str) -> PlayTable | None:
    """The table as this process's change `change` left it, if this process made it."""
    with _snapshots_lock:
        return _announced.get((table_id, change))


def table_view(user: User | None, table: PlayTable, game: GameState | None = None,
               viewer: Viewer | None = None) -> dict[str, Any]:
    """What the caller may see: their seat's view (`GameState.view`), or the public view
    for a watcher, plus the table's id, seat, version, players, last finished hand and,
    for its players and creator, the invitation link. `viewer`: the caller's rights, if
    the caller has them already (access.require_seated)."""
    if game is None:
        game, last_hand = snapshot(table)
    else:
        last_hand = last_record(table, game)
    viewer = viewer or viewer_of(user, table)
    seat = viewer.seat
    view = game.view(seat.seat) if seat is not None else public_view(game)
    # Whoever reads a view may watch the table (the caller checked): a finished game's
    # hands are theirs too, an unfinished one's only for its players and managers.
    last = last_hand if table.finished_at is not None or viewer.reads_hands else None
    return {**view, "id": table.pk, "seat": seat.seat if seat else None, "version": table.version,
            "last_record": last, "players": players(table), "finished": table.finished_at is not None,
            "invite_url": invite_url(table) if viewer.invites else None}


def invite_url(table: PlayTable) -> str:
    """A casual table's invitation link (shown to its players and creator only)."""
    return f"/play/{table.pk}/?invite={table.invite}"


def public_view(game: GameState) -> dict[str, Any]:
    """What every seat sees alike: a field is public when all the seats' views agree on
    it, so no card one player holds or alone has seen can show."""
    views = [game.view(seat) for seat in game.variant.seats]
    first = views[0]
    shared = {key: value for key, value in first.items()
              if key not in PRIVATE_KEYS and all(v.get(key) == value for v in views[1:])}
    return {**shared, "seat": None, "hand": [], "legal": []}


def players(table: PlayTable) -> list[dict[str, Any]]:
    """Who plays each seat: a person's name, a robot, or open (for an invited player)."""
    return [{"seat": s.seat, "name": _name(s), "robot": s.robot, "standin": s.standin, "open": s.is_open}
            for s in _seats(table)]


def _seats(table: PlayTable) -> list[PlaySeat]:
    return sorted(table.seats.all(), key=lambda s: "NESW".index(s.seat))


def _name(seat: PlaySeat) -> str:
    if seat.user is None:  # selected with the seat: no query
        return ""
    return seat.user.get_full_name() or seat.user.get_username()


def finished_deals(table: PlayTable, game: GameState | None = None) -> int:
    """How many deals of the record are finished (scored)."""
    deals = table.record.get("deals", [])
    phase = (game.phase if game is not None else table.phase)
    if not deals:
        return 0
    return len(deals) if phase in (Phase.SCORED, Phase.OVER) else len(deals) - 1


def last_record(table: PlayTable, game: GameState | None = None) -> dict[str, Any] | None:
    """The last finished hand as a deal record standing alone: {"rules", "dealer",
    "hands", ..., "actions"} (engine/RECORD.md)."""
    done = finished_deals(table, game)
    if not done:
        return None
    return {"rules": table.record["rules"], **table.record["deals"][done - 1]}


def hand_records(table: PlayTable) -> list[dict[str, Any]]:
    """Each finished hand: its number, dealer and a game record ending with it (the
    earlier deals included: some variants' deals follow from the ones before, so a hand
    is checked in its game; `python -m engine check` accepts each)."""
    rules, deals = table.record["rules"], table.record.get("deals", [])
    return [{"number": n, "dealer": deals[n - 1]["dealer"], "record": {"rules": rules, "deals": deals[:n]}}
            for n in range(1, finished_deals(table) + 1)]


def tables_of(user: User) -> QuerySet[PlayTable]:
    """The tables the user sits at or created, newest first."""
    if not user.is_authenticated:
        return PlayTable.objects.none()
    return (PlayTable.objects.filter(Q(seats__user=user) | Q(created_by=user)).distinct()
            .order_by("-created_at", "-id"))


def offers_to(user: User) -> QuerySet[PlaySeat]:
    """The seats of unfinished tables offered to the user (they accept by taking them)."""
    if not user.is_authenticated:
        return PlaySeat.objects.none()
    return (PlaySeat.objects.filter(offered_to=user, table__finished_at__isnull=True).select_related("table")
            .order_by("-table__created_at", "seat"))


PUBLIC_SHOWN = 20  # the lobby's list of public tables: the newest this many


class OpenTable(NamedTuple):
    table: PlayTable  # its seats (with their players) and its creator at hand
    seats: list[str]  # the open seats the viewer may take, in the table's order


def open_public_tables(user: User | None, limit: int = PUBLIC_SHOWN) -> list[OpenTable]:
    """Public casual tables still playing with an open seat the viewer may take, newest
    first: never an evening's table, nor one the viewer sits at or created (theirs are
    "my tables"); a person who left a seat of a table may take only that one again."""
    if user is None or not user.is_authenticated:
        return []
    candidates = (PlayTable.objects.filter(public=True, event__isnull=True, finished_at__isnull=True)
                  .exclude(phase=PlayTable.Phase.OVER)
                  .filter(seats__user__isnull=True, seats__robot="")  # one seat nobody, no robot, holds
                  .exclude(seats__user=user).exclude(created_by=user)
                  .distinct().order_by("-created_at", "-id").defer("record")
                  .select_related("created_by")
                  .prefetch_related(seats_with_players()))
    found = []
    for table in candidates[:limit * 3]:  # a few may offer nothing to this viewer (a seat they left)
        former = (table.former_seats or {}).get(str(user.pk))
        seats = [s.seat for s in _seats(table) if s.is_open and former in (None, s.seat)]
        if seats:
            found.append(OpenTable(table, seats))
        if len(found) == limit:
            break
    return found


def creator_name(table: PlayTable) -> str:
    person = table.created_by
    return (person.get_full_name() or person.get_username()) if person is not None else ""


# The columns a view needs (the record only on a snapshot miss; the event and club only to
# know whose they are): fewer columns read and fewer fields made on the hot path.
SEAT_READ = ("seat", "robot", "standin", "last_seen", "offered_to", "table", "user__username", "user__first_name",
             "user__last_name", "user__is_active", *(f"table__{f.name}" for f in PlayTable._meta.concrete_fields
                                                      if f.name not in ("record", "rules")),
             "table__rules", "table__event__club__id", "table__event__published", "table__event__club__name")


def table_with_seats(table_id: int) -> PlayTable | None:
    """The table, its event's club, and its seats with their players, in one query (the
    hot path: every socket reads it after every change); the record is read only if this
    process has not replayed this version yet (snapshot)."""
    seats = list(PlaySeat.objects.select_related("user", "table__event__club").only(*SEAT_READ)
                 .filter(table_id=table_id).order_by("seat"))
    if not seats:
        return (PlayTable.objects.select_related("event__club").defer("record")
                .prefetch_related(seats_with_players())
                .filter(pk=table_id).first())
    table = seats[0].table
    for seat in seats:
        seat.table = table
    setattr(table, "_prefetched_objects_cache", {"seats": seats})  # Django's prefetch cache, filled by hand
    return table


def table_with_seats_or_404(table_id: int) -> PlayTable:
    """`table_with_seats` for a page or an API view: 404 if there is no such table."""
    return table_with_seats(table_id) or any_table(table_id)
