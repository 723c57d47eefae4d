"""Seat claims: a seat at a table belongs to the phone that claimed it.

A phone claims one seat of its table for the round the table is on. Signed in as the
player seated there, the claim is also bound to that account; otherwise the server
hands the phone a secret (kept here only as its SHA-256) that it shows with every
entry. One claim a seat, one seat a phone; claims end with their round. The organiser
sees the claims, releases one (the seat may then be claimed again) and reissues a
table's link (the old one stops at once and every claim of the table goes).
"""
from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from engine import SEATS
from drive.core import broadcast
from drive.core.errors import Conflict, Forbidden, Invalid, NotFound
from drive.events.services.audit import log_action
from drive.events.models import Event
from drive.core.accounts import User
from drive.events.access import require_organiser

from drive.scoring.models import HandResult, Round, Seat, SeatClaim, Table, new_table_token
from drive.scoring.selectors.claims import claim_round, held_claim, secret_digest


def _new_secret() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def claim_for_entry(*, table: Table, round_: Round, secret: str | None, user: User | None = None,
                    seat: str | None = None) -> SeatClaim:
    """The claim an entry comes from, or Forbidden: no claim (none sent, forged, another
    table's, an earlier round's, released) or a seat named that is not the claim's."""
    if seat and seat not in SEATS:
        raise Invalid(_("Seat must be N, E, S or W."), field="seat")
    claim = held_claim(table=table, round_=round_, secret=secret, user=user)
    if claim is None:
        raise Forbidden(_("First say who you are. Tap your name on the table's page: that claims your seat."))
    if seat and seat != claim.position:
        raise Forbidden(_("This phone holds seat %(held)s at this table, not %(seat)s.")
                        % {"held": claim.position, "seat": seat})
    return claim


def _locked_table(table: Table) -> Table:
    return Table.objects.select_for_update(of=("self",)).select_related("event__club").get(pk=table.pk)


@transaction.atomic
def claim_seat(*, table: Table, position: str, user: User | None = None,
               secret: str | None = None) -> tuple[SeatClaim, str, bool]:
    """A phone claims `position` at the table for the round. Returns (claim, secret, created).

    The same phone asking again is answered with its claim (its secret back; a signed-in
    player's other phone gets a new secret, which this phone now holds). A phone holding
    another seat, or a seat someone else holds, is a Conflict.
    """
    table = _locked_table(table)
    round_ = claim_round(table)
    if table.event.phase != Event.Phase.IN_PROGRESS or round_ is None:
        raise Conflict(_("No round is open at this table: there is no seat to claim yet."))
    if position not in SEATS:
        raise Invalid(_("Seat must be N, E, S or W."), field="seat")
    seat = Seat.objects.filter(round=round_, table=table, position=position).select_related("entrant__player").first()
    if seat is None:
        raise Invalid(_("Nobody sits there at this table in this round."), field="seat")
    mine = held_claim(table=table, round_=round_, secret=secret, user=user)
    if mine is not None:
        return (*_asked_again(mine, position, secret), False)
    if SeatClaim.objects.filter(round=round_, table=table, position=position).exists():
        raise Conflict(_("Another phone has already claimed this seat. If that was not you, ask the organiser "
                         "to free it."))
    bound = user if user is not None and user.is_authenticated and seat.entrant.player.user_id == user.pk else None
    secret = _new_secret()
    claim = SeatClaim.objects.create(round=round_, table=table, position=position, user=bound,
                                     secret_hash=secret_digest(secret))
    # No broadcast: hundreds of phones claim at each round's start and none needs to know.
    return claim, secret, True


def _asked_again(mine: SeatClaim, position: str, secret: str | None) -> tuple[SeatClaim, str]:
    """The phone (or player) that holds `mine` claims again: the same seat is idempotent,
    another is a Conflict (one phone, one seat)."""
    if mine.position != position:
        raise Conflict(_("This phone already holds seat %(seat)s at this table: ask the organiser to free it first.")
                       % {"seat": mine.position})
    if secret is not None and mine.secret_hash == secret_digest(secret):
        return mine, secret
    secret = _new_secret()  # the same player on another phone: the seat follows them
    mine.secret_hash = secret_digest(secret)
    mine.save(update_fields=["secret_hash"])
    return mine, secret


@transaction.atomic
def give_up_claim(*, table: Table, secret: str | None = None, user: User | None = None) -> None:
    """"Not you?": a phone frees its own seat, only while that seat has entered and confirmed
    nothing this round (else it could enter on one side and confirm on the other)."""
    table = _locked_table(table)
    round_ = claim_round(table)
    claim = held_claim(table=table, round_=round_, secret=secret, user=user)
    if claim is None:
        raise Forbidden(_("This phone holds no seat at this table."))
    seat = claim.position
    if HandResult.objects.filter(Q(entered_by=seat) | Q(confirmed_by=seat), round=round_, table=table).exists():
        raise Conflict(_("Your seat has entered hands this round: ask the organiser to free it."))
    claim.delete()


# --- the organiser ----------------------------------------------------------------------


def _claim_record(claim: SeatClaim) -> dict[str, Any]:
    return {"round": claim.round.number, "table": claim.table.number, "seat": claim.position,
            "signed_in": claim.user.get_username() if claim.user is not None else "", "claimed_at": claim.claimed_at}


@transaction.atomic
def release_claim(*, actor: User, table: Table, position: str, round_number: int | None = None) -> None:
    """The organiser frees a seat (a phone lost, a wrong tap): its claim no longer counts and
    the seat may be claimed again. `round_number`: the round the table is on when None."""
    require_organiser(actor, table.event.club)
    table = _locked_table(table)
    round_ = (table.event.evening_rounds.filter(number=round_number).first() if round_number is not None
              else claim_round(table))
    claim = SeatClaim.objects.filter(round=round_, table=table, position=position).select_related(
        "round", "table", "user").first() if round_ is not None else None
    if claim is None:
        raise NotFound(_("Nobody has claimed that seat."))
    before = _claim_record(claim)
    claim.delete()
    log_action(actor=actor, event=table.event, action="seat_claim.released", before=before, obj=table)
    broadcast.publish(table.event_id, broadcast.Change.CLAIMS, round=claim.round.number, table=table.number)


@transaction.atomic
def reissue_table_link(*, actor: User, table: Table) -> Table:
    """A new link for a table (a card photographed, a link shared): the old one stops at
    once (404) and every claim of the table goes, so its phones claim their seats again."""
    require_organiser(actor, table.event.club)
    table = _locked_table(table)
    table.token = new_table_token()
    table.save(update_fields=["token"])
    released, _by_model = SeatClaim.objects.filter(table=table).delete()
    log_action(actor=actor, event=table.event, action="table.link_reissued",
               after={"table": table.number, "claims_released": released}, obj=table)
    broadcast.publish(table.event_id, broadcast.Change.CLAIMS, table=table.number)
    return table
