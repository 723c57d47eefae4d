"""Casual online tables: made for any engine preset with robots in the seats chosen,
an open seat taken by whoever holds the table's invitation link, and the creator (or the event's
organisers) seating a robot or a substitute."""
from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from drive.core.accounts import User
from drive.core.broadcast import publish_table
from drive.core.errors import Conflict, Forbidden, Invalid
from engine import EngineError, GameState, Phase, Variant, find_variant, new_rng, replay_game
from drive.play.access import may_take_seat, require_manager, seat_of, signed_in
from drive.play.models import PlaySeat, PlayTable
from drive.play.selectors.tables import game_of
from drive.play.services.actions import back_in_seat, locked_table, wake_robot

ROBOT_KINDS = tuple(kind for kind, _label in PlaySeat.Robot.choices if kind)
MAX_TIMEOUT_SECONDS = 3600
ACTING = (Phase.AUCTION, Phase.EXCHANGE, Phase.PLAY)
MAX_OPTIONS = 20


def variant_of(rules: Any) -> Variant:
    try:
        return find_variant(rules)
    except EngineError as exc:
        raise Invalid(str(exc), field="rules") from None


def playable_game(variant: Variant) -> GameState:
    """The game dealt (S3, S4: a cryptographically strong shuffle). Options are checked by
    playing one hand of a copy through with random legal actions: options the variant
    cannot play (a wrong type, a value out of range) are refused here, not mid-game."""
    rng = new_rng()
    try:
        game = variant.new_game(rng)
        game.deal(rng)
        trial, moves = game.copy(), random.Random(0)
        while trial.phase in ACTING:
            trial.apply(moves.choice(trial.legal_actions()))
        replay_game(game.record())
    except Exception as exc:  # noqa: BLE001 - options are arbitrary JSON: whatever breaks is the request's fault
        raise Invalid(_("These rules cannot be played: %(error)s") % {"error": exc}, field="rules") from None
    return game


def create_table(user: User | None, rules: Any, robots: dict[str, str] | None = None,
                 seat: str | None = None, timeout_seconds: int | None = None) -> PlayTable:
    """A casual table: the game dealt at once, robots in the seats given, the creator in
    `seat` (by default the first seat without a robot), the other seats open."""
    user = signed_in(user)
    if isinstance(rules, dict) and len(rules) > MAX_OPTIONS:
        raise Invalid(_("Too many options."), field="rules")
    variant = variant_of(rules)
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
    game = playable_game(variant)
    with transaction.atomic():
        table = PlayTable.objects.create(
            rules=variant.options_json(), record=game.record(), phase=str(game.phase), created_by=user,
            timeout_seconds=timeout_seconds or PlayTable._meta.get_field("timeout_seconds").default)
        PlaySeat.objects.bulk_create([
            PlaySeat(table=table, seat=s, robot=robots.get(s, ""), user=user if s == seat else None,
                     last_seen=timezone.now() if s == seat else None)
            for s in variant.seats])
        wake_robot(table, game)
    return table


def take_seat(user: User | None, table_id: int, seat: str, invite: str | None = None) -> PlayTable:
    """Sit at an open seat of a casual table by its invitation (403 without it). The
    seat's own player taking it again is back: no robot stands in for them any more."""
    user = signed_in(user)
    with transaction.atomic():
        table = locked_table(table_id)
        place = seat_row(table, seat)
        if place.user_id == user.pk:
            back_in_seat(place)
            publish_table(table.pk, table.version)
            return table
        if not may_take_seat(user, table, invite):
            if table.event_id is not None:
                raise Forbidden(_("The organisers give the seats of an event's table."))
            raise Forbidden(_("An open seat is taken by the table's invitation link."))
        mine = seat_of(user, table)
        if mine is not None:
            raise Conflict(_("You already sit at %(seat)s.") % {"seat": mine.seat})
        if not place.is_open:
            raise Conflict(_("Seat %(seat)s is taken.") % {"seat": seat})
        if table.finished_at is not None:
            raise Conflict(_("The game is over."))
        place.user, place.last_seen = user, timezone.now()
        place.save(update_fields=["user", "last_seen"])
        publish_table(table.pk, table.version)
        return table


def seat_robot(user: User | None, table_id: int, seat: str, robot: str) -> PlayTable:
    """The creator (or an organiser) puts a robot in a seat, whoever sat there."""
    with transaction.atomic():
        table = locked_table(table_id)
        require_manager(user, table)
        if robot not in ROBOT_KINDS:
            raise Invalid(_("A robot is one of %(kinds)s.") % {"kinds": ", ".join(ROBOT_KINDS)}, field="robot")
        place = seat_row(table, seat)
        place.user, place.robot, place.standin = None, robot, False
        place.save(update_fields=["user", "robot", "standin"])
        publish_table(table.pk, table.version)
        wake_robot(table, game_of(table))
        return table


def seat_substitute(user: User | None, table_id: int, seat: str, username: str) -> PlayTable:
    """The creator (or an organiser) puts another person in a seat, whoever sat there."""
    with transaction.atomic():
        table = locked_table(table_id)
        require_manager(user, table)
        substitute = get_user_model().objects.filter(username=username, is_active=True).first()
        if substitute is None:
            raise Invalid(_("No such player."), field="username")
        place = seat_row(table, seat)
        elsewhere = seat_of(substitute, table)
        if elsewhere is not None and elsewhere.seat != seat:
            raise Conflict(_("%(name)s already sits at %(seat)s.") % {"name": username, "seat": elsewhere.seat})
        place.user, place.robot, place.standin, place.last_seen = substitute, "", False, timezone.now()
        place.save(update_fields=["user", "robot", "standin", "last_seen"])
        publish_table(table.pk, table.version)
        return table


def seat_row(table: PlayTable, seat: str) -> PlaySeat:
    place = table.seats.filter(seat=seat).first() if isinstance(seat, str) else None
    if place is None:
        seats = ", ".join(table.seats.values_list("seat", flat=True))
        raise Invalid(_("This table's seats are %(seats)s.") % {"seats": seats}, field="seat")
    return place
