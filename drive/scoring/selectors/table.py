"""Reads for the players at a table (their phones, no login: the card's token is the key)
and for the organiser's printable table cards.

Plain dicts out, so the entry page and the API show the same thing. No writes and no
permission decisions: the entries go through `results.submit_result`, which checks
everything again, and the card page asks `require_organiser`.
"""
from __future__ import annotations

import re
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine import PARTNER, SEATS, SIDE_OF
from drive.core.errors import NotFound
from drive.core.accounts import User
from drive.events.models import Event

from drive.scoring.selectors.claims import claim_round, held_claim
from drive.scoring.selectors.online_tables import online_table_url
from drive.scoring.models import HandResult, Round, Seat, SeatClaim, Table
from drive.scoring.rules import rotation_trump

Phase = Event.Phase
State = Round.State
Status = HandResult.Status
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "NT"}
TURNED_UP_SUITS = ("S", "H", "D", "C")
# A table's token as `new_table_token` makes it; anything else is refused before the database
# sees it (PostgreSQL refuses a NUL in a string with an error, not a miss).
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")
# The evenings whose table cards are live: an old card (results published) opens nothing.
LIVE_PHASES = (Phase.IN_PROGRESS, Phase.FINISHED)

# What a phone is told after an entry (results.submit_result's outcomes).
OUTCOME_MESSAGES = {
    "created": gettext_lazy("Sent. Waiting for the opponents to confirm."),
    "updated": gettext_lazy("Changed. Waiting for the opponents to confirm."),
    "unchanged": gettext_lazy("Already sent: nothing changed."),
    "confirmed": gettext_lazy("Confirmed."),
    "disputed": gettext_lazy("Disputed: the organiser has been told."),
    "recounted": gettext_lazy("Sent. The sides still disagree: the same count from both settles it, "
                              "otherwise the organiser will."),
    "settled": gettext_lazy("Settled: both sides entered the same count."),
}

# What the table is doing, for the line under the table number.
STAGE_MESSAGES = {
    "waiting": gettext_lazy("The seating is not out yet. Wait for the organiser."),
    "seated": gettext_lazy("Take your seats: play starts when the organiser starts the round."),
    "playing": gettext_lazy("Playing: enter each hand when it is over, or all of them at the end."),
    "collecting": gettext_lazy("The round has ended: enter the hands still missing now."),
    "locked": gettext_lazy("All hands are confirmed: this round is locked. Ask the organiser for a correction."),
    "finished": gettext_lazy("The evening is over: thank you for playing."),
    "empty": gettext_lazy("Nobody plays at this table in this round."),
    "online": gettext_lazy("This table plays online this round: its hands count as they are played, with nothing "
                           "to enter here."),
}


def table_for_token(token: str) -> Table:
    """The table a card's token opens. NotFound for a wrong token, or a stale one (a card
    of an evening not running: not started, or its results already published)."""
    if isinstance(token, str) and TOKEN_SHAPE.fullmatch(token):
        table = Table.objects.select_related("event__club").filter(token=token).first()
        if table is not None and table.event.phase in LIVE_PHASES:
            return table
        if table is not None:  # a card of an evening that is over: say so, still a 404
            raise NotFound(_("This evening is over: its standings and results are on the event's page."))
    raise NotFound(_("No table has this code. Scan the card on your table again."))


def shown_round(table: Table) -> Round | None:
    """The round the table's page is about: the one it enters results for (in play, or
    just ended while the next has not started), else the one seated next, else None.
    It is also the round a phone claims its seat for."""
    return claim_round(table)


def phone_claim(table: Table, secret: str | None = None, user: User | None = None) -> SeatClaim | None:
    """The seat claim this phone holds at the table for the round shown (None: none yet,
    an earlier round's, or released)."""
    return held_claim(table=table, round_=shown_round(table), secret=secret, user=user)


def trump_name(code: str) -> str | Promise:
    return HandResult.Trump(code).label if code in HandResult.Trump.values else ""


def _seats(round_: Round, table: Table) -> list[dict[str, Any]]:
    seats = {s.position: s for s in Seat.objects.filter(round=round_, table=table).select_related("entrant__player")}
    rows = []
    for position in SEATS:
        seat = seats.get(position)
        if seat is None:
            continue
        partner = seats.get(PARTNER[position])
        rows.append({
            "position": position,
            "position_display": Seat.Position(position).label,
            "side": SIDE_OF[position],
            "entrant": seat.entrant_id,
            "number": seat.entrant.number,
            "name": seat.entrant.player.display_name,
            "partner": partner.entrant.player.display_name if partner else "",
        })
    return rows


def _mode(hand: dict[str, Any], you: dict[str, Any] | None, open_: bool) -> str:
    """What the viewer's phone offers for a hand: "enter" it, "wait" for the opponents
    (their own side's entry), "confirm" the opponents' entry, "recount" a disputed hand
    (agree with the other side's count or send the own side's again), or only show it
    ("view")."""
    status = hand["status"]
    if not open_ or you is None or status == Status.CONFIRMED:
        return "view"
    if status == "missing":
        return "enter"
    if status == Status.DISPUTED:
        return "recount"
    return "wait" if SIDE_OF.get(hand["entered_by"]) == you["side"] else "confirm"


def _counts(hand: dict[str, Any], you: dict[str, Any]) -> dict[str, int]:
    """A disputed hand's two counts as the viewer's side sees them: ours and theirs (N-S)."""
    first = hand["entered_by_side"] == you["side"]
    ours, theirs = ((hand["ns_tricks"], hand["disputed_ns_tricks"]) if first
                    else (hand["disputed_ns_tricks"], hand["ns_tricks"]))
    return {"our_ns": ours, "their_ns": theirs, "their_ew": 13 - theirs}


def _hand(event: Event, round_: Round, number: int, result: HandResult | None) -> dict[str, Any]:
    fixed = rotation_trump(event, round_.number, number)
    hand: dict[str, Any] = {"hand_number": number, "trump_fixed": fixed is not None, "status": "missing", "ns_tricks": None,
            "ew_tricks": None, "trump": fixed or "", "entered_by": "", "confirmed_by": "",
            "disputed_ns_tricks": None, "disputed_ew_tricks": None, "version": 0}
    if result is not None:
        disputed = result.disputed_ns_tricks
        hand.update(status=result.status, ns_tricks=result.ns_tricks, ew_tricks=result.ew_tricks,
                    trump=result.trump or hand["trump"], entered_by=result.entered_by,
                    confirmed_by=result.confirmed_by, disputed_ns_tricks=disputed,
                    disputed_ew_tricks=None if disputed is None else 13 - disputed, version=result.version)
    hand["entered_by_side"] = SIDE_OF.get(hand["entered_by"], "")
    hand["status_display"] = Status(hand["status"]).label if hand["status"] != "missing" else _("not entered")
    hand["trump_symbol"] = SUIT_SYMBOLS.get(hand["trump"], "")
    hand["trump_name"] = trump_name(hand["trump"])
    return hand


def hand_state(table: Table, result: HandResult) -> dict[str, Any]:
    """One stored hand as the table's page and API show it."""
    return _hand(table.event, result.round, result.hand_number, result)


def _stage(event: Event, round_: Round | None, seats: list[dict[str, Any]], locked: bool,
           online: str | None = None) -> str:
    if round_ is None:
        return "waiting"
    if event.phase == Phase.FINISHED:
        return "finished"
    if online is not None:
        return "online"
    if not seats:
        return "empty"
    if round_.state == State.SEATED:
        return "seated"
    if locked:
        return "locked"
    return "collecting" if round_.state == State.CLOSED else "playing"


def _next_round(event: Event, round_: Round | None, table: Table,
                seats: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Between rounds (this one ended, the next seated): where each of the four goes, and
    who comes to this table."""
    if round_ is None or round_.state != State.CLOSED:
        return None
    following = event.evening_rounds.filter(number=round_.number + 1).exclude(state=State.PENDING).first()
    if following is None:
        return None
    rows = Seat.objects.filter(round=following).select_related("table", "entrant__player")
    where = {s.entrant_id: s for s in rows.filter(entrant_id__in=[s["entrant"] for s in seats])}
    moves = []
    for seat in seats:
        going = where.get(seat["entrant"])
        moves.append({
            "name": seat["name"],
            "entrant": seat["entrant"],
            "number": seat["number"],
            "from_position": seat["position"],
            "table": going.table.number if going and going.table is not None else None,
            "position": going.position if going and going.table_id else "",
            "position_display": Seat.Position(going.position).label if going and going.table_id else "",
            "sits_out": bool(going and not going.table_id),
            "left": going is None,  # left the evening
        })
    here = {s.position: s.entrant for s in rows.filter(table=table)}
    return {
        "number": following.number,
        "started": following.state != State.SEATED,
        "moves": moves,
        "here": [{"position": p, "position_display": Seat.Position(p).label, "name": here[p].player.display_name,
                  "number": here[p].number}
                 for p in SEATS if p in here],
    }


def table_state(table: Table, viewer: str | None = None) -> dict[str, Any]:
    """Everything a table's phone shows: the event, the round, the four seats with their
    partners, each hand with its trump and result, and between rounds where everyone goes.

    `viewer` is the seat the phone holds a claim on for the round shown (`phone_claim`;
    None: no claim yet); that seat's player is "you".
    """
    event = table.event
    round_ = shown_round(table)
    seats = _seats(round_, table) if round_ else []
    results = {r.hand_number: r for r in HandResult.objects.filter(round=round_, table=table)} if round_ else {}
    hands = [_hand(event, round_, n, results.get(n)) for n in range(1, event.hands_per_round + 1)] if round_ else []
    locked = bool(hands) and all(h["status"] == Status.CONFIRMED for h in hands)
    online = online_table_url(round_, table) if round_ and round_.state != State.SEATED else None
    stage = _stage(event, round_, seats, locked, online)
    # The same conditions as results.submit_result: an open round, the four seated, not locked,
    # not played online.
    open_ = stage in ("playing", "collecting")
    you = next((s for s in seats if viewer is not None and s["position"] == viewer), None)
    claimed = list(SeatClaim.objects.filter(round=round_, table=table).values_list("position", flat=True)) \
        if round_ else []
    for hand in hands:
        hand["mode"] = _mode(hand, you, open_)
        if hand["mode"] == "recount" and you is not None:  # a recount is offered to a seated viewer only
            hand.update(_counts(hand, you))
    return {
        "event": {"id": event.pk, "title": event.title, "phase": event.phase, "rounds": event.rounds,
                  "hands_per_round": event.hands_per_round, "trump_rule": event.trump_rule,
                  "confirmation": event.result_confirmation},
        "table": table.number,
        "round": {"number": round_.number, "state": round_.state, "state_display": round_.get_state_display()}
        if round_ else None,
        "stage": stage,
        "stage_message": STAGE_MESSAGES[stage],
        "open": open_,
        "online_url": online,
        "locked": locked,
        "seats": seats,
        "sides": [{"side": side, "label": label, "names": [s["name"] for s in seats if s["side"] == side]}
                  for side, label in (("NS", _("North–South")), ("EW", _("East–West")))],
        "you": you,
        "claimed": [p for p in SEATS if p in claimed],
        "asks_who": bool(seats) and stage in ("seated", "playing", "collecting"),  # "Who are you?"
        "hands": hands,
        "show_hands": bool(hands and seats and stage != "seated"),
        "disputed": any(h["status"] == Status.DISPUTED for h in hands),
        "next_round": _next_round(event, round_, table, seats),
    }


def table_links(event: Event, round_: Round | None = None) -> list[dict[str, Any]]:
    """The tables of an evening, or those seated in `round_`, with their tokens (organisers only)."""
    tables = Table.objects.filter(event=event)
    if round_ is not None:
        tables = tables.filter(seats__round=round_).distinct()
    rows = tables.order_by("number").values_list("number", "token")
    return [{"table": number, "token": token} for number, token in rows]


def table_cards(event: Event) -> list[dict[str, Any]]:
    """The tables of an evening in order, for their printed cards (tokens: organisers only)."""
    return [{"number": number, "token": token}
            for number, token in Table.objects.filter(event=event).order_by("number").values_list("number", "token")]


TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")


def table_by_token(token: str | None) -> Table:
    if not TOKEN_SHAPE.fullmatch(token or ""):  # e.g. a NUL byte would upset PostgreSQL
        raise NotFound(_("No such table."))
    table = Table.objects.select_related("event__club").filter(token=token).first()
    if table is None:
        raise NotFound(_("No such table."))
    return table
