"""Reads of the seat claims for the organiser: who claimed which seat of a table, and when.

Plain dicts for the console page and its API. No secrets go out: only whether a seat is
held by a signed-in player or by a phone.
"""
from __future__ import annotations

from drive.scoring.services.claims import POSITIONS, claim_round
from drive.scoring.models import Round, Seat, SeatClaim, Table


def _signed_in_name(user) -> str:
    name = user.player.display_name if hasattr(user, "player") else ""  # an account may have no player
    return name or user.get_username()


def table_claims(table: Table, round_: Round | None = None) -> dict:
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
    for position in POSITIONS:
        if position not in players:
            continue
        claim = claims.get(position)
        rows.append({
            "seat": position,
            "player": players[position],
            "claimed": claim is not None,
            "by": ("user" if claim.user_id else "phone") if claim else "",
            "user": _signed_in_name(claim.user) if claim and claim.user_id else "",
            "claimed_at": claim.claimed_at if claim else None,
        })
    return {"table": table.number, "round": round_.number, "seats": rows}
