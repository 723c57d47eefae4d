"""Reads for the organiser's evening console: the state and its moves, the grid of the
round's tables, the seating, one table's hands and the history of every changed hand.

Plain dicts out, so the pages and the API show the same thing. No writes, no permission
decisions: the views ask `require_organiser` and the services check again.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, TypedDict

from django.db.models import Count
from django.utils import timezone

from engine import SEATS
from drive.events.models import Event, Registration
from drive.movements.models import Entrant, Movement

from drive.core.clock import seconds_left
from drive.scoring.models import HandResult, Round, Seat, Table
from drive.scoring.selectors.online_tables import online_table_url, online_table_urls
from drive.scoring.selectors.rounds import tables_out
from drive.scoring.rules import rotation_trump
from drive.scoring.selectors.rounds import current_round

Phase = Event.Phase
State = Round.State
Status = HandResult.Status
ChangeKind = HandResult.ChangeKind

# Every organiser move of the evening, as the URLs and the API name them.
MOVES = ("start", "start-round", "pause", "resume", "end-round", "publish-results", "retry-movement")
# Moves that act on the round in play: the pages send the round they showed with them.
ROUND_MOVES = ("start-round", "pause", "resume", "end-round")


def available_moves(event: Event, round_: Round | None, movement_failed: bool = False) -> list[str]:
    """The moves that fit the evening's state (the services still refuse a stale one)."""
    if event.phase == Phase.REGISTRATION:
        return ["start"]
    if event.phase == Phase.FINISHED:
        return ["publish-results"]
    if event.phase == Phase.IN_PROGRESS and round_ is None and movement_failed:
        return ["retry-movement"]
    if event.phase != Phase.IN_PROGRESS or round_ is None:
        return []
    if round_.state == State.SEATED:
        return ["start-round"]
    if round_.state == State.PLAYING:
        return ["resume" if round_.paused_at else "pause", "end-round"]
    return []


def round_info(round_: Round | None, now: datetime | None = None) -> dict[str, Any] | None:
    if round_ is None:
        return None
    playing = round_.state == State.PLAYING
    return {
        "number": round_.number,
        "state": round_.state,
        "state_display": round_.get_state_display(),
        "started_at": round_.started_at,
        "deadline": round_.deadline,
        "paused": bool(playing and round_.paused_at),
        "paused_at": round_.paused_at if playing else None,
        "seconds_left": seconds_left(round_, now) if playing else None,
        "closed_at": round_.closed_at,
        "late_tables": list(round_.late_tables or []),
    }


def _hand(result: HandResult | None, number: int) -> dict[str, Any]:
    if result is None:
        return {"hand_number": number, "status": "missing", "ns_tricks": None, "ew_tricks": None,
                "disputed_ns_tricks": None, "disputed_ew_tricks": None, "trump": "", "trump_display": "",
                "version": None, "change_kind": "", "entered_by": "", "confirmed_by": ""}
    disputed = result.disputed_ns_tricks
    return {"hand_number": number, "status": result.status, "ns_tricks": result.ns_tricks,
            "ew_tricks": result.ew_tricks, "disputed_ns_tricks": disputed,
            "disputed_ew_tricks": None if disputed is None else 13 - disputed, "trump": result.trump,
            "trump_display": result.get_trump_display() if result.trump else "",
            "version": result.version, "change_kind": result.change_kind, "entered_by": result.entered_by,
            "confirmed_by": result.confirmed_by}


def table_status(hands: list[dict[str, Any]]) -> str:
    """"disputed" when a hand is, "in" when every hand is confirmed, else "out"."""
    if any(h["status"] == Status.DISPUTED for h in hands):
        return "disputed"
    if all(h["status"] == Status.CONFIRMED for h in hands):
        return "in"
    return "out"


def _seats(round_: Round) -> list[Seat]:
    return list(Seat.objects.filter(round=round_).select_related("table", "entrant__player")
                .order_by("table__number", "position", "entrant__number"))


def round_grid(round_: Round, seats: list[Seat] | None = None) -> list[dict[str, Any]]:
    """The round's tables (those with players), each with its hands and in/out/disputed, and
    the page of its online game when it plays the round online (None: on paper)."""
    seats = _seats(round_) if seats is None else seats
    event = round_.event
    numbers = sorted({s.table.number for s in seats if s.table is not None})
    results = {}
    for result in HandResult.objects.filter(round=round_).select_related("table"):
        results[(result.table.number, result.hand_number)] = result
    late = set(round_.late_tables or [])
    # Online tables are dealt when the clock starts: none yet in a round only seated.
    online = online_table_urls(round_) if numbers and round_.state != State.SEATED else {}
    grid = []
    for number in numbers:
        hands = [_hand(results.get((number, h)), h) for h in range(1, event.hands_per_round + 1)]
        grid.append({"table": number, "status": table_status(hands), "late": number in late,
                     "confirmed": sum(h["status"] == Status.CONFIRMED for h in hands), "hands": hands,
                     "online_url": online.get(number)})
    return grid


def _entrant(seat: Seat) -> dict[str, Any]:
    return {"entrant": seat.entrant_id, "number": seat.entrant.number, "name": seat.entrant.player.display_name}


def round_seating(round_: Round, seats: list[Seat] | None = None) -> dict[str, Any]:
    """{"tables": [{"table", "N", "E", "S", "W"} with names, "seats": [{"seat", "entrant",
    "number", "name"}]], "sit_out": [names], "sit_out_entrants": [{"entrant", "number", "name"}]}:
    names for the page, the entrants' ids and numbers for the API."""
    seats = _seats(round_) if seats is None else seats
    tables: dict[int, dict[str, Any]] = {}
    sit_out = []
    for seat in seats:
        if seat.table is None:
            sit_out.append(_entrant(seat))
        else:
            row = tables.setdefault(seat.table.number, {"table": seat.table.number, "seats": []})
            row[seat.position] = seat.entrant.player.display_name
            row["seats"].append({"seat": seat.position, **_entrant(seat)})
    for row in tables.values():
        row["seats"].sort(key=lambda s: SEATS.index(s["seat"]))
    return {"tables": [tables[n] for n in sorted(tables)], "sit_out": sorted(e["name"] for e in sit_out),
            "sit_out_entrants": sorted(sit_out, key=lambda e: e["number"])}


def played_round(event: Event, number: int) -> Round | None:
    """Round `number` of the evening if it has been seated at least, else None."""
    return event.evening_rounds.exclude(state=State.PENDING).filter(number=number).first()


def evening_state(event: Event, round_number: int | None = None, now: datetime | None = None) -> dict[str, Any]:
    """What the console shows: phase, the round in hand and its moves, and the grid of the
    round asked for (the current one by default) with its seating."""
    now = now or timezone.now()
    current = current_round(event)
    shown = current
    if round_number is not None and (current is None or round_number != current.number):
        shown = played_round(event, round_number) or current
    seats = _seats(shown) if shown else []
    grid = round_grid(shown, seats) if shown else []
    rounds = list(event.evening_rounds.order_by("number"))
    movement = Movement.objects.filter(event=event).values("status", "error", "requested_at").first()
    return {
        "event": event.pk,
        "title": event.title,
        "phase": event.phase,
        "phase_display": event.get_phase_display(),
        "rounds": event.rounds,
        "hands_per_round": event.hands_per_round,
        "round_minutes": event.round_minutes,
        "round": round_info(current, now),
        "moves": available_moves(event, current, movement_failed=movement is not None
                                  and movement["status"] == Movement.Status.FAILED),
        "movement": movement,
        "shown_round": shown.number if shown else None,
        "shown_round_state": shown.state if shown else "",
        "shown_round_state_display": shown.get_state_display() if shown else "",
        **_arrivals(event),
        "tables": grid,
        "tables_in": [t["table"] for t in grid if t["status"] == "in"],
        "tables_out": [t["table"] for t in grid if t["status"] == "out"],
        "tables_disputed": [t["table"] for t in grid if t["status"] == "disputed"],
        "tables_online": [t["table"] for t in grid if t["online_url"]],
        "seating": round_seating(shown, seats) if shown else {"tables": [], "sit_out": [], "sit_out_entrants": []},
        "played_rounds": [r.number for r in rounds if r.state != State.PENDING],
        "late_rounds": late_rounds(r for r in rounds if r.late_tables),
    }


def _arrivals(event: Event) -> dict[str, int | None]:
    """Before the start: who is checked in, and who registered but has not come (yet)."""
    if event.phase != Phase.REGISTRATION:
        return {"checked_in": None, "not_arrived": None}
    wanted = [Registration.Status.CHECKED_IN, Registration.Status.REGISTERED]
    counts = dict(event.registrations.filter(status__in=wanted).values_list("status").annotate(n=Count("id")))
    return {"checked_in": counts.get(Registration.Status.CHECKED_IN, 0),
            "not_arrived": counts.get(Registration.Status.REGISTERED, 0)}


def late_rounds(rounds: Iterable[Round]) -> list[dict[str, Any]]:
    """Closed rounds that had tables out at their end: never silently dropped, so the
    console keeps showing them, with those still not in."""
    late = []
    for round_ in rounds:
        still = set(tables_out(round_))
        late.append({"round": round_.number, "tables": list(round_.late_tables),
                     "still_out": [t for t in round_.late_tables if t in still]})
    return late


def table_hands(event: Event, round_number: int, table_number: int) -> dict[str, Any] | None:
    """One table in one played round: its players and every hand (missing ones too),
    with the trump a rotation fixes. None when there is no such round or table."""
    round_ = played_round(event, round_number)
    table = Table.objects.filter(event=event, number=table_number).first()
    if round_ is None or table is None:
        return None
    seated = {s.position: s for s in Seat.objects.filter(round=round_, table=table).select_related("entrant__player")}
    results = {r.hand_number: r for r in HandResult.objects.filter(round=round_, table=table)}
    hands = []
    for number in range(1, event.hands_per_round + 1):
        hand = _hand(results.get(number), number)
        hand["fixed_trump"] = rotation_trump(event, round_.number, number)
        hands.append(hand)
    names = [(p, seated[p].entrant.player.display_name if p in seated else "") for p in SEATS]
    online = online_table_url(round_, table) if round_.state != State.SEATED else None
    return {"round": round_, "table": table, "seats": names,
            "seated": [{"seat": p, **_entrant(seated[p])} for p in SEATS if p in seated],
            "hands": hands, "status": table_status(hands), "late": table_number in (round_.late_tables or []),
            "online_url": online,
            # Its hands still come in as they are played: nothing to enter on paper meanwhile.
            "playing_online": online is not None and round_.state == State.PLAYING}


# --- the corrections page -------------------------------------------------------------


HISTORY_FIELDS = ("id", "history_id", "history_date", "history_change_reason", "history_user__username",
                  "history_user__first_name", "history_user__last_name", "round__number", "table__number",
                  "hand_number", "ns_tricks", "disputed_ns_tricks", "trump", "status", "change_kind",
                  "entered_by", "confirmed_by", "version")


def _who(row: dict[str, Any], previous: dict[str, Any] | None) -> tuple[str, str]:
    if row["history_user__username"]:
        full = f'{row["history_user__first_name"]} {row["history_user__last_name"]}'.strip()
        return full or row["history_user__username"], ""
    if previous is not None and previous["status"] == Status.DISPUTED:
        # Counted again: the first side's count is `ns_tricks` (and the trump), the other's not.
        first_side = row["ns_tricks"] != previous["ns_tricks"] or row["trump"] != previous["trump"]
        return "", row["entered_by"] if first_side else row["confirmed_by"]
    confirming = row["confirmed_by"] and (previous is None or previous["confirmed_by"] != row["confirmed_by"])
    return "", row["confirmed_by"] if confirming else row["entered_by"]


def _is_change(row: dict[str, Any], previous: dict[str, Any] | None) -> bool:
    """A value changed, the organiser acted (correction, revoke penalty, adjusted score), or
    a dispute was settled (at the table too: the history says how)."""
    if previous is not None and (row["ns_tricks"] != previous["ns_tricks"] or row["trump"] != previous["trump"]):
        return True
    if previous is not None and previous["status"] == Status.DISPUTED and row["status"] != Status.DISPUTED:
        return True
    return row["change_kind"] != ChangeKind.ENTRY


def correction_history(event: Event) -> list[dict[str, Any]]:
    """Every hand of the evening that was changed after its first entry, newest change first,
    each with its whole history (who, when, old and new tricks, why)."""
    rows = (HandResult.history.filter(round__event=event)
            .order_by("id", "history_date", "history_id").values(*HISTORY_FIELDS))
    hands: dict[int, list[dict[str, Any]]] = {}
    kinds = dict(ChangeKind.choices)
    statuses = dict(Status.choices)
    for row in rows:
        entries = hands.setdefault(row["id"], [])
        previous = entries[-1]["_row"] if entries else None
        user, seat = _who(row, previous)
        entries.append({
            "_row": row,
            "changed": _is_change(row, previous),
            "at": row["history_date"],
            "user": user,
            "seat": seat,
            "kind": row["change_kind"],
            "kind_display": kinds.get(row["change_kind"], row["change_kind"]),
            "status": row["status"],
            "status_display": statuses.get(row["status"], row["status"]),
            "old_ns_tricks": previous["ns_tricks"] if previous else None,
            "new_ns_tricks": row["ns_tricks"],
            "disputed_ns_tricks": row["disputed_ns_tricks"],
            "old_trump": previous["trump"] if previous else "",
            "new_trump": row["trump"],
            "reason": row["history_change_reason"] or "",
            "version": row["version"],
        })
    changed = []
    for entries in hands.values():
        if not any(e["changed"] for e in entries):
            continue
        last = entries[-1]["_row"]
        for entry in entries:
            del entry["_row"]
        changed.append({"round": last["round__number"], "table": last["table__number"],
                        "hand_number": last["hand_number"], "ns_tricks": last["ns_tricks"],
                        "status": last["status"], "version": last["version"],
                        "last_change": max(e["at"] for e in entries if e["changed"]), "history": entries})
    changed.sort(key=lambda h: h["last_change"], reverse=True)
    return changed


class EveningPlayers(TypedDict):
    entrants: list[Entrant]  # by number
    late_arrivals: list[Registration]  # checked in, not in the movement yet


def evening_players(event: Event) -> EveningPlayers:
    """The entrants with their numbers, and who is checked in but not yet playing."""
    entrants = list(Entrant.objects.filter(event=event).select_related("player").order_by("number"))
    playing = {e.player_id for e in entrants}
    waiting = [r for r in event.registrations.filter(status=Registration.Status.CHECKED_IN).select_related("player")
               if r.player_id not in playing]
    return {"entrants": entrants, "late_arrivals": waiting}
