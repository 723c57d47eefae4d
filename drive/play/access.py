"""Who may do what at an online table: one place for every service's check.

A seat's player acts for that seat only; the table's creator, or the organisers of its
event's club, manage the seats and may watch; any signed-in user may watch the public
view (no hidden card) and take an open seat by the table's link.
"""
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from drive.core.accounts import User
from drive.core.errors import Forbidden
from drive.events.access import is_organiser, require_login
from drive.play.models import PlaySeat, PlayTable


def signed_in(user: User | None) -> User:
    require_login(user)
    return user


def any_table(table_id: int) -> PlayTable:
    """The table by id (404 if none), its event's club at hand."""
    return get_object_or_404(PlayTable.objects.select_related("event__club"), pk=table_id)


def seat_of(user: User | None, table: PlayTable) -> PlaySeat | None:
    """The seat the user plays at this table, or None."""
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in table.seats.all() if s.user_id == user.pk), None)


def may_manage(user: User | None, table: PlayTable) -> bool:
    """The table's creator, or an organiser of its event's club."""
    if user is None or not user.is_authenticated:
        return False
    if table.created_by_id == user.pk:
        return True
    return table.event is not None and is_organiser(user, table.event.club)


def require_manager(user: User | None, table: PlayTable) -> None:
    require_login(user)
    if not may_manage(user, table):
        raise Forbidden(_("Only the table's creator or the event's organisers may do this."))


def require_player(user: User | None, table: PlayTable) -> PlaySeat:
    require_login(user)
    seat = seat_of(user, table)
    if seat is None:
        raise Forbidden(_("You have no seat at this table."))
    return seat


def may_read_hands(user: User | None, table: PlayTable) -> bool:
    """Finished hands show every card: the table's players and managers, and everyone
    once the table's game is over."""
    return table.finished_at is not None or seat_of(user, table) is not None or may_manage(user, table)


def watched_table(user: User | None, table_id: int) -> PlayTable:
    """A table any signed-in user may watch (its public view: no hidden card)."""
    require_login(user)
    return any_table(table_id)


def hands_table(user: User | None, table_id: int) -> PlayTable:
    """A table whose finished hands the user may read (403 otherwise)."""
    table = watched_table(user, table_id)
    if not may_read_hands(user, table):
        raise Forbidden(_("The hands are shown to the table's players until the game is over."))
    return table
