"""Casual online tables: made for any engine preset with robots in the seats chosen,
an open seat taken by whoever holds the table's invitation link (or, at a public table, by
anyone signed in), and the creator (or the event's organisers) seating a robot or offering
a seat to a person, who sits only once they accept.

Seats follow the people: a manager fills only a seat nobody present holds (open, a robot's,
or a person's who left or went silent), so no one is ever put in front of another present
person's cards. What one user may start is limited (settings PLAY_*): past a limit, 429."""
from __future__ import annotations

import json
import logging
import random
from dataclasses import fields
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from drive.core.accounts import Account, User
from drive.core.broadcast import publish_table
from drive.core.errors import Conflict, Forbidden, Invalid, TooMany
from engine import VARIANTS, EngineError, GameState, Phase, Variant, new_rng, replay_game
from drive.games.access import invited, is_away, may_manage, may_take_seat, require_manager, seat_of, signed_in
from drive.games.models import PlaySeat, PlayTable
from drive.games.selectors.tables import game_of
from drive.games.services.actions import back_in_seat, locked_table, wake_robot

log = logging.getLogger(__name__)

ROBOT_KINDS = tuple(kind for kind, _label in PlaySeat.Robot.choices if kind)
STRONG = PlaySeat.Robot.STRONG.value
MAX_TIMEOUT_SECONDS = 3600
ACTING = (Phase.AUCTION, Phase.EXCHANGE, Phase.PLAY)
MAX_OPTIONS = 20
SHOWN_CHARS = 40  # a name or value quoted back in a refusal: no longer than this


# --- the rules: every refusal in words, never the engine's or Python's text -------------------


def variant_of(*, rules: Any) -> Variant:
    """The game the rules name, its options checked one by one, so that a refusal names
    the option and says what is wrong with it (unknown, of a wrong type, not allowed)."""
    if isinstance(rules, str):
        name, changes = rules, {}
    elif isinstance(rules, dict) and isinstance(rules.get("name", "short"), str):
        name, changes = rules.get("name", "short"), {k: v for k, v in rules.items() if k != "name"}
    else:
        raise Invalid(_("Rules are a game's name, or {\"name\": game, ...options}."), field="rules")
    base = VARIANTS.get(name)
    if base is None:
        raise Invalid(_("Unknown game “%(name)s”: choose one of %(names)s.") % {
            "name": shown(value=name), "names": ", ".join(VARIANTS)}, field="rules")
    for option, value in changes.items():
        check_option(base=base, option=option, value=value)
    try:
        return base.with_options(**changes) if changes else base
    except EngineError:  # each option alone is fine: together they are not
        raise Invalid(_("These options cannot be played together."), field="rules") from None


def check_option(*, base: Variant, option: Any, value: Any) -> None:
    known = {f.name for f in fields(base.options) if f.init}
    if option not in known:
        raise Invalid(_("Unknown option “%(option)s” for %(rules)s.") % {
            "option": shown(value=option), "rules": base.name}, field="rules")
    usual = getattr(base.options, option)
    if not same_kind(value=value, usual=usual):
        raise Invalid(_("Option “%(option)s” takes a value like %(example)s.") % {
            "option": option, "example": shown(value=usual)}, field="rules")
    try:
        base.with_options(**{option: value})
    except EngineError:
        raise Invalid(_("Option “%(option)s” does not allow the value %(value)s.") % {
            "option": option, "value": shown(value=value)}, field="rules") from None


def same_kind(*, value: Any, usual: Any) -> bool:
    """The value is of the option's type (JSON's: true/false, a whole number, a word, a list).
    An option whose usual value is none takes a word or none; the engine judges which."""
    if usual is None or isinstance(usual, str):
        return value is None or isinstance(value, str)
    if isinstance(usual, bool):
        return isinstance(value, bool)
    if isinstance(usual, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(usual, (tuple, list)):
        return isinstance(value, list) and all(isinstance(item, str) for item in value)
    return True


def shown(*, value: Any) -> str:
    """A name or value as a refusal quotes it back: as JSON writes it, cut short."""
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 1] + "…"


def playable_game(*, variant: Variant) -> GameState:
    """The game dealt (S3, S4: a cryptographically strong shuffle). Options are checked by
    playing one hand of a copy through with random legal actions: options the variant
    cannot play together are refused here, not mid-game."""
    rng = new_rng()
    try:
        game = variant.new_game(rng)
        game.deal(rng)
        trial, moves = game.copy(), random.Random(0)
        while trial.phase in ACTING:
            trial.apply(moves.choice(trial.legal_actions()))
        replay_game(game.record())
    except Exception:  # noqa: BLE001 - options are arbitrary JSON: whatever breaks is the request's fault
        log.info("rules %r refused: a trial hand failed", variant.options_json(), exc_info=True)
        raise Invalid(_("These options cannot be played together."), field="rules") from None
    return game


# --- what one user may start ------------------------------------------------------------------


def hold_user(*, user: Account) -> None:
    """Lock the user's row until the transaction ends: two requests of one user count their
    tables one after the other, so they cannot both take the last free place."""
    get_user_model().objects.select_for_update().only("pk").get(pk=user.pk)


def require_room_for_table(*, user: Account) -> None:
    """Casual tables: at most PLAY_TABLES_ALIVE_PER_USER unfinished, and
    PLAY_TABLES_PER_HOUR opened in the last hour (429 past either)."""
    mine = PlayTable.objects.filter(created_by=user, event__isnull=True)
    alive = settings.PLAY_TABLES_ALIVE_PER_USER
    if mine.filter(finished_at__isnull=True).count() >= alive:
        raise TooMany(_("You already have the most unfinished tables allowed (%(count)s): finish or close one "
                        "before opening another.") % {
            "count": alive})
    per_hour = settings.PLAY_TABLES_PER_HOUR
    if mine.filter(created_at__gte=timezone.now() - timedelta(hours=1)).count() >= per_hour:
        raise TooMany(_("You opened the most tables allowed in an hour (%(count)s): open the next one later.") % {
            "count": per_hour})


def require_room_to_join(*, user: Account) -> None:
    """A public table's seat, taken without its link: at most PLAY_TABLES_ALIVE_PER_USER
    unfinished casual tables sat at (429 past it), so one person cannot hold the open seats
    of every public table."""
    alive = settings.PLAY_TABLES_ALIVE_PER_USER
    sitting = PlayTable.objects.filter(seats__user=user, event__isnull=True, finished_at__isnull=True).distinct()
    if sitting.count() >= alive:
        raise TooMany(_("You already play at the most unfinished tables allowed (%(count)s): finish or close one "
                        "before joining another.") % {"count": alive})


def require_room_for_strong(*, user: Account, adding: int, instead_of: PlaySeat | None = None) -> None:
    """Strong robots (the costly ones) at the user's unfinished casual tables: at most
    PLAY_STRONG_SEATS_PER_USER (429 past it)."""
    if adding <= 0:
        return
    seated = PlaySeat.objects.filter(table__created_by=user, table__event__isnull=True,
                                     table__finished_at__isnull=True, robot=STRONG)
    if instead_of is not None:
        seated = seated.exclude(pk=instead_of.pk)
    limit = settings.PLAY_STRONG_SEATS_PER_USER
    if seated.count() + adding > limit:
        raise TooMany(_("Strong robots at your unfinished tables are limited to %(count)s.") % {"count": limit})


# --- tables and seats ------------------------------------------------------------------------


def create_table(*, user: User | None, rules: Any, robots: dict[str, str] | None = None,
                 seat: str | None = None, timeout_seconds: int | None = None, public: bool = False) -> PlayTable:
    """A casual table: the game dealt at once, robots in the seats given, the creator in
    `seat` (by default the first seat without a robot), the other seats open. A public
    table's open seats are anyone's who is signed in (the lobby lists it); a private one's
    are taken by its invitation link."""
    user = signed_in(user)
    if isinstance(rules, dict) and len(rules) > MAX_OPTIONS:
        raise Invalid(_("Too many options."), field="rules")
    variant = variant_of(rules=rules)
    robots = robots or {}
    if not isinstance(robots, dict):
        raise Invalid(_("Robots are given as {\"E\": \"rules\", ...}."), field="robots")
    for place, kind in robots.items():
        if place not in variant.seats:
            raise Invalid(_("%(rules)s is played at seats %(seats)s.") % {
                "rules": variant.name, "seats": ", ".join(variant.seats)}, field="robots")
        if kind not in ROBOT_KINDS:
            raise Invalid(_("A robot is one of %(kinds)s.") % {"kinds": ", ".join(ROBOT_KINDS)}, field="robots")
    free = [s for s in variant.seats if s not in robots]
    if seat is None:
        if not free:
            raise Invalid(_("Leave a seat for yourself."), field="robots")
        seat = free[0]
    elif seat not in free:
        raise Invalid(_("Sit at one of %(seats)s.") % {"seats": ", ".join(free) or "-"}, field="seat")
    game = playable_game(variant=variant)
    with transaction.atomic():
        hold_user(user=user)
        require_room_for_table(user=user)
        require_room_for_strong(user=user, adding=sum(kind == STRONG for kind in robots.values()))
        table = PlayTable.objects.create(
            rules=variant.options_json(), record=game.record(), phase=str(game.phase), created_by=user,
            timeout_seconds=timeout_seconds or PlayTable._meta.get_field("timeout_seconds").default,
            public=bool(public))
        PlaySeat.objects.bulk_create([
            PlaySeat(table=table, seat=s, robot=robots.get(s, ""), user=user if s == seat else None,
                     last_seen=timezone.now() if s == seat else None)
            for s in variant.seats])
        wake_robot(table=table, game=game)
    return table


def take_seat(*, user: User | None, table_id: int, seat: str, invite: str | None = None) -> PlayTable:
    """Sit at an open seat of a casual table by its invitation (403 without it) or, at a
    public table, without it; or accept the seat offered to you. The seat's own player
    taking it again is back: no robot stands in for them any more."""
    user = signed_in(user)
    with transaction.atomic():
        table = locked_table(table_id=table_id)
        place = seat_row(table=table, seat=seat)
        if place.user_id == user.pk:
            back_in_seat(seat=place)
            clear_offer(place=place)  # they are back: nobody takes their seat on an old offer
            publish_table(table.pk, table.version)
            return table
        offered = place.offered_to_id == user.pk
        if not offered and not may_take_seat(user, table, invite):
            if table.event_id is not None:
                raise Forbidden(_("The organisers give the seats of an event's table."))
            raise Forbidden(_("An open seat is taken by the table's invitation link."))
        mine = seat_of(user, table)
        if mine is not None:
            raise Conflict(_("You already sit at %(seat)s.") % {"seat": mine.seat})
        if table.finished_at is not None:
            raise Conflict(_("The game is over."))
        require_no_second_hand(user=user, table=table, place=place)
        if not (place.is_open or (offered and may_fill(user=user, table=table, place=place))):
            raise Conflict(_("Seat %(seat)s is taken.") % {"seat": seat})
        if not offered and not may_manage(user, table) and not invited(table, invite):
            hold_user(user=user)  # a stranger's seat at a public table: counted one request after the other
            require_room_to_join(user=user)
        remember_leaving(table=table, place=place)  # an away person's seat, taken on an offer
        place.user, place.robot, place.standin, place.last_seen = user, "", False, timezone.now()
        place.offered_to = None  # taken: an offer to anyone else is void
        place.save(update_fields=["user", "robot", "standin", "last_seen", "offered_to"])
        publish_table(table.pk, table.version)
        return table


def remember_leaving(*, table: PlayTable, place: PlaySeat) -> None:
    """The person in this seat (if any) leaves it: they have seen its cards, so at this
    table they may sit again only there (require_no_second_hand)."""
    if place.user_id is None:
        return
    table.former_seats = {**(table.former_seats or {}), str(place.user_id): place.seat}
    table.save(update_fields=["former_seats"])


def require_no_second_hand(*, user: User, table: PlayTable, place: PlaySeat) -> None:
    """Nobody sees two hands of one game: a person who left a seat sits again only there."""
    former = (table.former_seats or {}).get(str(user.pk))
    if former is not None and former != place.seat:
        raise Conflict(_("You played seat %(seat)s at this table: you may sit again only there.") % {
            "seat": former})


def may_fill(*, user: User, table: PlayTable, place: PlaySeat) -> bool:
    """Whether `user` may take this seat on an offer: nobody present holds it, and it is
    not a manager's (who could give themselves another person's cards mid-hand)."""
    return is_away(table, place) and not may_manage(user, table)


def seat_robot(*, user: User | None, table_id: int, seat: str, robot: str) -> PlayTable:
    """The creator (or an organiser) puts a robot in a seat nobody present holds, or in
    their own (they leave it). A strong robot counts against the creator's limit."""
    with transaction.atomic():
        table = locked_table(table_id=table_id)
        user = require_manager(user, table)
        if robot not in ROBOT_KINDS:
            raise Invalid(_("A robot is one of %(kinds)s.") % {"kinds": ", ".join(ROBOT_KINDS)}, field="robot")
        place = seat_row(table=table, seat=seat)
        require_playing(table=table)
        if place.user_id != user.pk:
            require_away(table=table, place=place)
        creator = table.created_by  # a casual table's, counted against its limit
        if table.event_id is None and robot == STRONG and place.robot != STRONG and creator is not None:
            hold_user(user=creator)
            require_room_for_strong(user=creator, adding=1, instead_of=place)
        remember_leaving(table=table, place=place)
        place.user, place.robot, place.standin, place.offered_to = None, robot, False, None
        place.save(update_fields=["user", "robot", "standin", "offered_to"])
        publish_table(table.pk, table.version)
        wake_robot(table=table, game=game_of(table))
        return table


def close_table(*, user: User | None, table_id: int) -> PlayTable:
    """The creator ends their casual table before its game is over: its robots stop, its
    played hands stay readable, and it no longer counts among the tables they have open
    (PLAY_TABLES_ALIVE_PER_USER). An event's table ends with its round, not here."""
    user = signed_in(user)
    with transaction.atomic():
        table = locked_table(table_id=table_id)
        if table.event_id is not None or table.created_by_id != user.pk:
            raise Forbidden(_("Only the table's creator may close it."))
        if table.finished_at is not None:
            raise Conflict(_("The game is over."))
        table.finished_at = timezone.now()
        table.save(update_fields=["finished_at", "changed_at"])
        publish_table(table.pk, table.version)
        return table


def offer_seat(*, user: User | None, table_id: int, seat: str, username: str) -> PlayTable:
    """The creator (or an organiser) offers a seat nobody present holds to a person, who
    sits only once they accept (take_seat). Whether the username exists changes nothing in
    the answer: the same checks, the same write, the same result."""
    with transaction.atomic():
        table = locked_table(table_id=table_id)
        user = require_manager(user, table)
        place = seat_row(table=table, seat=seat)
        require_playing(table=table)
        require_away(table=table, place=place)
        if isinstance(username, str) and username == user.get_username():
            raise Forbidden(_("You cannot offer a seat to yourself: take an open seat by the table's link."))
        person = get_user_model().objects.filter(username=username, is_active=True).first()
        place.offered_to = person  # none: the latest offer replaces an earlier one all the same
        place.save(update_fields=["offered_to"])
        return table


def require_playing(*, table: PlayTable) -> None:
    if table.finished_at is not None:
        raise Conflict(_("The game is over."))


def require_away(*, table: PlayTable, place: PlaySeat) -> None:
    """A manager fills only a seat nobody present holds: open, a robot's, or a person's who
    left or went silent past the timeout. Never in front of a present person's cards."""
    if not is_away(table, place):
        raise Conflict(_("Seat %(seat)s has a player who is here: it is filled only once they leave "
                         "or go silent.") % {"seat": place.seat})


def clear_offer(*, place: PlaySeat) -> None:
    if place.offered_to_id is not None:
        place.offered_to = None
        place.save(update_fields=["offered_to"])


def seat_row(*, table: PlayTable, seat: str) -> PlaySeat:
    place = table.seats.filter(seat=seat).first() if isinstance(seat, str) else None
    if place is None:
        seats = ", ".join(table.seats.values_list("seat", flat=True))
        raise Invalid(_("This table's seats are %(seats)s.") % {"seats": seats}, field="seat")
    return place
