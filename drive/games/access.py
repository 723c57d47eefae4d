"""Who may do what at an online table: one place for every service's check.

A seat's player acts for that seat only; the table's creator, or the organisers of its
event's club, manage the seats and may watch any table; they fill only a seat nobody present
holds, and a person offered a seat may watch the table and accept it. A casual table is open to whoever
holds its invitation (the link /play/<id>/?invite=<secret> its players are shown): they
may watch its public view (no hidden card) and take an open seat; knowing its id is not
enough. A public casual table (the lobby lists it) lets anyone signed in take an open
seat without the link. An event's table is watched as the event is seen (published, or
the club's), and its seats are given by the organisers.
"""
import secrets
from collections.abc import MutableMapping
from datetime import timedelta
from typing import Any, NamedTuple

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from drive.core.accounts import Account, User
from drive.core.errors import Forbidden
from drive.events.access import is_organiser
from drive.events.selectors.events import visible_events
from drive.games.models import PlaySeat, PlayTable


def require_login(user: User | None) -> Account:
    # The events app's check, here again so that a card played does not walk through it.
    if user is None or not user.is_authenticated:
        raise Forbidden(_("Please log in first."))
    return user


def signed_in(user: User | None) -> Account:
    """The signed-in account acting (an assert vanishes under python -O; this narrowing does not)."""
    return require_login(user)


def any_table(table_id: int) -> PlayTable:
    """The table by id (404 if none), its event's club at hand."""
    return get_object_or_404(PlayTable.objects.select_related("event__club"), pk=table_id)


def seat_of(user: User | None, table: PlayTable) -> PlaySeat | None:
    """The seat the user plays at this table, or None."""
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in table.seats.all() if s.user_id == user.pk), None)


def offered_seat_to(user: User | None, table: PlayTable) -> PlaySeat | None:
    """The seat of this table offered to the user (they may watch and accept it), or None."""
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in table.seats.all() if s.offered_to_id == user.pk), None)


def is_away(table: PlayTable, seat: PlaySeat) -> bool:
    """Nobody present holds the seat: it is open, a robot's, or its person left or has been
    silent past the table's timeout (a robot stands in, or they were last seen before it).
    Only such a seat may be given to someone else: no one sees a present person's cards."""
    if seat.user_id is None or seat.standin or seat.last_seen is None:
        return True
    return timezone.now() - seat.last_seen > timedelta(seconds=table.timeout_seconds)


def may_manage(user: User | None, table: PlayTable) -> bool:
    """The table's creator, or an organiser of its event's club."""
    if user is None or not user.is_authenticated:
        return False
    if table.created_by_id == user.pk:
        return True
    return table.event is not None and is_organiser(user, table.event.club)


def require_manager(user: User | None, table: PlayTable) -> Account:
    account = require_login(user)
    if not may_manage(account, table):
        raise Forbidden(_("Only the table's creator or the event's organisers may do this."))
    return account


def require_player(user: User | None, table: PlayTable) -> PlaySeat:
    require_login(user)
    seat = seat_of(user, table)
    if seat is None:
        raise Forbidden(_("You have no seat at this table."))
    return seat


class Viewer(NamedTuple):
    """What one reader of a table's view may see, asked once: their seat (None: a watcher),
    the last finished hand of a game still played, and the invitation link."""
    seat: PlaySeat | None
    reads_hands: bool
    invites: bool


def viewer_of(user: User | None, table: PlayTable) -> Viewer:
    """The reader's rights in the view (the caller checked that they may watch): a player
    or a manager reads the last hand (may_read_hands), the players and the creator of a
    casual table are shown its invitation (may_invite)."""
    seat = seat_of(user, table)
    if seat is not None:
        return Viewer(seat, True, table.event_id is None)
    manages = may_manage(user, table)
    return Viewer(None, manages, manages and table.event_id is None)


def require_seated(user: User | None, table: PlayTable) -> Viewer:
    """A player of the table acting (403 otherwise), with what their answer's view shows."""
    require_login(user)
    viewer = viewer_of(user, table)
    if viewer.seat is None:
        raise Forbidden(_("You have no seat at this table."))
    return viewer


def invited(table: PlayTable, invite: Any) -> bool:
    """The invitation is this casual table's own (compared in constant time)."""
    return (table.event_id is None and isinstance(invite, str) and bool(invite)
            and secrets.compare_digest(invite.encode(), table.invite.encode()))


def may_watch(user: User | None, table: PlayTable, invite: Any = None) -> bool:
    """Its players and managers; for a casual table whoever holds its invitation, for an
    event's table whoever may see the event."""
    if user is None or not user.is_authenticated:
        return False
    if seat_of(user, table) is not None or may_manage(user, table) or offered_seat_to(user, table) is not None:
        return True
    if table.event_id is None:
        return invited(table, invite)
    return visible_events(user).filter(pk=table.event_id).exists()


def may_invite(user: User | None, table: PlayTable) -> bool:
    """Who is shown a casual table's invitation link: its players and its creator."""
    return table.event_id is None and (seat_of(user, table) is not None or may_manage(user, table))


def may_take_seat(user: User | None, table: PlayTable, invite: Any = None) -> bool:
    """An open seat of a casual table is taken by its invitation, or by anyone signed in
    when the table is public; an event's seats are the organisers' to give."""
    return may_manage(user, table) or invited(table, invite) or joins_public(user, table)


def joins_public(user: User | None, table: PlayTable) -> bool:
    """A signed-in person may take an open seat of a public casual table without its link."""
    return (table.public and table.event_id is None and user is not None and user.is_authenticated)


def may_read_hands(user: User | None, table: PlayTable, invite: Any = None) -> bool:
    """Finished hands show every card: the table's players and managers, and whoever may
    watch the table once its game is over."""
    if seat_of(user, table) is not None or may_manage(user, table):
        return True
    return table.finished_at is not None and may_watch(user, table, invite)


def require_watcher(user: User | None, table: PlayTable, invite: Any = None) -> PlayTable:
    """`table` if the user may watch it (403 otherwise: a casual table needs its invitation);
    read by the caller, with its seats, as its view needs it."""
    require_login(user)
    if not may_watch(user, table, invite):
        raise Forbidden(_("This table is open to its invited players: open it by its invitation link."))
    return table


def hands_table(user: User | None, table_id: int, invite: Any = None) -> PlayTable:
    """A table whose finished hands the user may read (403 otherwise)."""
    require_login(user)
    table = any_table(table_id)
    if not may_read_hands(user, table, invite):
        raise Forbidden(_("The hands are shown to the table's players until the game is over."))
    return table


# --- the invitation a browser came by, kept in its session -----------------------------------

SESSION_INVITES = "play_invites"
KEPT_INVITES = 50


def remember_invite(session: MutableMapping[str, Any], table: PlayTable, invite: Any) -> bool:
    """Keep a valid invitation in the session, so that the page's later calls (the API's
    exact {"seat": "E"}, the websocket, a reload without the query) carry it."""
    if not invited(table, invite):
        return False
    kept = dict(session.get(SESSION_INVITES) or {})
    kept.pop(str(table.pk), None)
    kept[str(table.pk)] = invite
    session[SESSION_INVITES] = dict(list(kept.items())[-KEPT_INVITES:])
    return True


def invite_of(session: MutableMapping[str, Any] | None, table_id: int, given: Any = None) -> Any:
    """The invitation given with the request, else the one the session keeps for the table."""
    if given:
        return given
    kept = session.get(SESSION_INVITES) if session is not None else None
    return kept.get(str(table_id)) if isinstance(kept, dict) else None
