"""Reads of the seat claims for the organiser: who claimed which seat of a table, and when.

Plain dicts for the console page and its API. No secrets go out: only whether a seat is
held by a signed-in player or by a phone.
"""
from __future__ import annotations

import hashlib
import re
from typing import Any


from engine import SEATS
from drive.core.accounts import Account, User

from drive.scoring.models import Round, Seat, SeatClaim, Table
from drive.scoring.selectors.rounds import current_round, entry_round


def _signed_in_name(user: Account) -> str:
    name = user.player.display_name if hasattr(user, "player") else ""  # an account may have no player
    return name or user.get_username()


def table_claims(table: Table, round_: Round | None = None) -> dict[str, Any]:
    """The seats of the table in `round_` (default: the round its phones claim for), each
    with its player and its claim: by a signed-in player or by a phone, and when."""
    round_ = round_ or claim_round(table)
    if round_ is None:
        return {"table": table.number, "round": None, "seats": []}
    players = {s.position: s.entrant.player.display_name
               for s in Seat.objects.filter(round=round_, table=table).select_related("entrant__player")}
    claims = {c.position: c for c in SeatClaim.objects.filter(round=round_, table=table)
              .select_related("user__player")}
    rows = []
    for position in SEATS:
        if position not in players:
            continue
        claim = claims.get(position)
        rows.append({
            "seat": position,
            "player": players[position],
            "claimed": claim is not None,
            "by": ("user" if claim.user_id else "phone") if claim else "",
            "user": _signed_in_name(claim.user) if claim and claim.user is not None else "",
            "claimed_at": claim.claimed_at if claim else None,
        })
    return {"table": table.number, "round": round_.number, "seats": rows}


# A secret as `_new_secret` makes it; anything else is no secret (never reaches the database).
SECRET_SHAPE = re.compile(r"[A-Za-z0-9_-]{32,64}")


def secret_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def claim_round(table: Table) -> Round | None:
    """The round a phone claims a seat for: the one the table enters results for, else the
    one seated next (players sit down before the organiser starts it)."""
    return entry_round(table) or current_round(table.event)


def held_claim(*, table: Table, round_: Round | None, secret: str | None = None,
               user: User | None = None) -> SeatClaim | None:
    """The claim this phone holds at the table in the round: by its secret, or by the
    account it is signed in with (a claim bound to that account). None otherwise."""
    if round_ is None:
        return None
    claims = SeatClaim.objects.filter(round=round_, table=table)
    if isinstance(secret, str) and SECRET_SHAPE.fullmatch(secret):
        found = claims.filter(secret_hash=secret_digest(secret)).first()
        if found is not None:
            return found
    if user is not None and user.is_authenticated:
        return claims.filter(user=user).first()
    return None
