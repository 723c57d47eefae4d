"""Reads for everyone: the player's evening, the standings with prizes (awarded by the pure
drive.scoring.prizes), the results and their exports (worded by drive.scoring.sheet), the
printable score cards. No writes, no permission decisions.

The standings come from the stored Standing rows (the Celery task's work, rules D3-D5);
the hand-by-hand scores are read from the hand results as they are now. The callers first
make sure of the standings' freshness (services.freshness: final ones are recomputed
before they are shown, live ones behind the results ask for a recomputation).
"""
from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, TypedDict

from django.db.models import Max
from django.utils.translation import pgettext_lazy

from drive.events.models import Event
from drive.events.prizes import PrizeKind, prize_list
from django.utils.text import slugify

from engine import PARTNER, SEATS, SIDE_OF, drive_hand_score, hand_won
from drive.core.accounts import User
from drive.events.models import Event
from drive.movements.models import Entrant


from drive.scoring.models import HandResult, Round, Seat, Standing, StandingsState
from drive.scoring.selectors.standings import Freshness, compute_for, fixed_partners, state_of
from drive.scoring.rules import event_ruleset, rotation_trump
from drive.scoring.prizes import Award, StandingLine, award_prizes, may_win
from drive.scoring.standings import Run, pair_unit, running_totals

State = Round.State
COUNTED = (HandResult.Status.ENTERED, HandResult.Status.CONFIRMED)  # a disputed hand waits for the organiser
SEAT_SHORT = {  # the seat's letter on a score card (Russian С В Ю З, Ukrainian Пн Сх Пд Зх)
    "N": pgettext_lazy("seat", "N"), "E": pgettext_lazy("seat", "E"),
    "S": pgettext_lazy("seat", "S"), "W": pgettext_lazy("seat", "W"),
}


def entrant_of(user: User, event: Event) -> Entrant | None:
    """The user's entry in the evening (their Player's Entrant), or None."""
    if not user.is_authenticated:
        return None
    return Entrant.objects.filter(event=event, player__user=user).select_related("player").first()


# --- where a player sits -----------------------------------------------------------------


@dataclass
class SeatView:
    """One round for one player: where they sit, with whom, against whom."""

    round: Round
    sat_out: bool = False
    table: int | None = None
    position: str = ""
    position_label: str = ""
    partner: Entrant | None = None
    opponents: list[Entrant] = field(default_factory=list)
    trumps: list[tuple[int, str]] = field(default_factory=list)  # (hand, trump code) when a rotation fixes them (rule D2)


def seat_view(event: Event, round_: Round | None, entrant: Entrant) -> SeatView | None:
    """Where `entrant` sits in `round_`; None if they do not play that round."""
    if round_ is None:
        return None
    seat = Seat.objects.filter(round=round_, entrant=entrant).select_related("table").first()
    if seat is None:
        return None
    view = SeatView(round=round_, trumps=_rotation_trumps(event, round_.number))
    if seat.table is None:
        view.sat_out = True
        return view
    view.table, view.position, view.position_label = seat.table.number, seat.position, seat.get_position_display()
    others = Seat.objects.filter(round=round_, table=seat.table).exclude(pk=seat.pk).select_related("entrant__player")
    for other in sorted(others, key=lambda s: SEATS.index(s.position)):
        if other.position == PARTNER[seat.position]:
            view.partner = other.entrant
        else:
            view.opponents.append(other.entrant)
    return view


def _rotation_trumps(event: Event, round_number: int) -> list[tuple[int, str]]:
    trumps = [(hand, rotation_trump(event, round_number, hand)) for hand in range(1, event.hands_per_round + 1)]
    return [(hand, code) for hand, code in trumps if code is not None]


# --- the player's evening ------------------------------------------------------------------


def my_evening(event: Event, entrant: Entrant, fresh: Freshness) -> dict[str, Any]:
    """Everything the player's page shows: this round, the next one when it is seated,
    the scores hand by hand, the total and the place (`fresh`: services.freshness has
    made sure of the standings)."""
    rounds = list(event.evening_rounds.order_by("number"))
    in_play = [r for r in rounds if r.state in (State.PLAYING, State.CLOSED)]
    seated = [r for r in rounds if r.state == State.SEATED]
    rules = event_ruleset(event)
    seats = {s.round_id: s for s in Seat.objects.filter(round__event=event, entrant=entrant).select_related("table")}
    results = HandResult.objects.filter(round__in=in_play, table_id__in={s.table_id for s in seats.values() if s.table_id})
    by_table: defaultdict[tuple[int, int], dict[int, HandResult]] = defaultdict(dict)
    for entered in results:
        by_table[(entered.round_id, entered.table_id)][entered.hand_number] = entered

    rows: list[dict[str, Any]] = []
    played, won, hands = 0, 0, 0
    for round_ in in_play:
        seat = seats.get(round_.pk)
        if seat is None:
            continue
        row: dict[str, Any] = {"round": round_, "sat_out": seat.table_id is None, "table": seat.table.number if seat.table else None,
               "position": seat.position, "seat": SEAT_SHORT.get(seat.position, ""), "hands": [], "points": 0,
               "credit": None}
        if seat.table_id is not None:
            stored = by_table[(round_.pk, seat.table_id)]
            for hand in range(1, event.hands_per_round + 1):
                result = stored.get(hand)
                cell: dict[str, Any] = {"hand": hand, "result": result, "tricks": None, "score": None, "counted": False,
                        "trump": result.trump if result else rotation_trump(event, round_.number, hand) or ""}
                if result is not None:
                    cell["tricks"] = result.ns_tricks if SIDE_OF[seat.position] == "NS" else result.ew_tricks
                    cell["score"] = drive_hand_score(cell["tricks"], rules)
                    cell["counted"] = result.status in COUNTED
                    if cell["counted"]:
                        row["points"] += cell["score"]
                        played += cell["score"]
                        won += hand_won(cell["tricks"])
                        hands += 1
                row["hands"].append(cell)
        rows.append(row)

    credit = _sit_out_credit(event, entrant, rows)
    final = event.phase == Event.Phase.RESULTS_PUBLISHED
    standing = Standing.objects.filter(event=event, entrant=entrant).first()
    line = _final_line(event, entrant, fresh) if final else None
    return {
        "entrant": entrant,
        "now": seat_view(event, in_play[-1] if in_play else None, entrant),
        "next": seat_view(event, seated[-1] if seated else None, entrant),
        "rounds": rows,
        "hands_played": hands,
        "hands_won": won,
        "points": played,
        "credit": credit,
        "total": line.total if line else Decimal(played) + credit,
        "standing": standing,
        "entrants": Entrant.objects.filter(event=event).count(),
        "final": final,  # the results are published: the place and total are final
        "prizes_won": line.awards if line else [],
        "line": line,
    }


def _final_line(event: Event, entrant: Entrant, fresh: Freshness) -> StandingLine | None:
    """The entrant's line of the published standings, with the prizes it won (`awards`)."""
    table = standings(event, fresh)
    line = next((line for line in table["lines"] if line.entrant_id == entrant.pk), None)
    if line is not None:
        line.awards = [award for award in table["prizes"] if any(w is line for w in award.winners)]
    return line


def _sit_out_credit(event: Event, entrant: Entrant, rows: list[dict[str, Any]]) -> Decimal:
    """Rule D5: the documented average for the rounds sat out, exactly as the standings
    count it (computed only for a player who sat out: a handful a round)."""
    sat_out = [row for row in rows if row["sat_out"]]
    if not sat_out:
        return Decimal(0)
    line = next((line for _, _, line in compute_for(event) if line.entrant == entrant.pk), None)
    if line is None or not line.compensation:
        return Decimal(0)
    for row in sat_out:
        if row["round"].number in line.credits:
            row["credit"] = line.credits[row["round"].number]
    return line.compensation


# --- standings --------------------------------------------------------------------------

@dataclass(frozen=True)
class StandingsStamp:
    """What the standings shown now are (see `standings_stamp`)."""
    key: str  # event, results version, computation time, behind or not, phase, prize list
    fresh: Freshness
    computed_at: datetime | None  # None before the first computation
    awaiting: int = 0  # entered hands these standings leave out until they are confirmed


def standings_stamp(event: Event, fresh: Freshness) -> StandingsStamp:
    """What the standings shown now are (`fresh`: services.freshness has made sure final
    standings are not stale). Pages key their cached rendering on `key`, and pass `fresh`
    on to `standings` when they render."""
    state = fresh.state
    if state is not None and state.computed_at and not fresh.updating and fresh.version == state.computed_version:
        computed_at = state.computed_at  # a recomputation stamps its lines and the state alike: one query less
    else:
        computed_at = Standing.objects.filter(event=event).aggregate(at=Max("computed_at"))["at"]
    prizes = hashlib.sha1(json.dumps([event.prizes or [], event.missed_rounds]).encode()).hexdigest()[:12]
    at = computed_at.isoformat() if computed_at else "-"
    key = f"{event.pk}:{fresh.version}:{at}:{int(fresh.updating)}:{event.phase}:{prizes}"
    return StandingsStamp(key=key, fresh=fresh, computed_at=computed_at, awaiting=awaiting_confirmation(event, state))


def awaiting_confirmation(event: Event, state: StandingsState | None = None) -> int:
    """Hands one side entered that the other has not confirmed yet, which the live
    standings leave out (selectors.standings.counted_results): as counted with the stored standings."""
    state = state if state is not None else state_of(event.pk)
    if state is None or event.phase != Event.Phase.IN_PROGRESS:
        return 0
    return state.awaiting_confirmation


class Standings(TypedDict):
    lines: list[StandingLine]  # best first
    prizes: list[Award]
    computed_at: datetime | None
    version: int  # the results version they were computed from
    updating: bool  # behind the results: a recomputation is on its way
    missed_any: bool  # a line missed rounds (late or left early)
    awaiting: int  # hands entered by one side, not yet confirmed by the other


class Results(Standings):
    corrections: list[dict[str, Any]]
    event: Event


def standings(event: Event, fresh: Freshness) -> Standings:
    """The stored standings, best first, each line with the prizes it takes; the prize list;
    when they were computed, from which results version, and whether they are "updating"
    (behind the results; final standings never are: they are recomputed first)."""
    rows = Standing.objects.filter(event=event).select_related("entrant__player").order_by("place", "entrant__number")
    lines = [
        StandingLine(place=s.place, shared=s.shared, number=s.entrant.number, entrant_id=s.entrant_id,
                     name=s.entrant.player.display_name, category=s.entrant.player.category, total=s.total,
                     hands_played=s.hands_played, hands_won=s.hands_won, sit_out_hands=s.sit_out_hands,
                     first_half=s.first_half, second_half=s.second_half, average=s.average,
                     missed_rounds=s.missed_rounds or [])
        for s in rows
    ]
    partners = fixed_partners(event)
    half = event.rounds // 2  # as the standings split the halves (ranking.compute_for)
    for line in lines:
        line.unit = pair_unit(line.entrant_id, partners)
        line.eligible = may_win(line, PrizeKind.OVERALL, event.missed_rounds, half)
    awards = award_prizes(prize_list(event), lines, missed_rounds=event.missed_rounds, half_after_round=half)
    for award in awards:
        for line in award.winners:
            line.prizes.append(award.name)
    computed_at = Standing.objects.filter(event=event).aggregate(at=Max("computed_at"))["at"]
    return {"lines": lines, "prizes": awards, "computed_at": computed_at, "version": fresh.version,
            "updating": fresh.updating, "missed_any": any(line.missed_rounds for line in lines),
            "awaiting": awaiting_confirmation(event)}


LEADERS = 5  # lines on the room's chart


def leaders(event: Event, top: int = LEADERS) -> list[Run]:
    """The leaders' running totals hand by hand, for the room's chart: the first
    `top` of the standings (pairs in a fixed-partner drive, named "A & B"), each a `Run`
    ending on its standings total; [] before any hand counts. Computed from the hands as
    the standings are (a handful of queries whatever the size of the room)."""
    partners = fixed_partners(event)
    runs = running_totals(compute_for(event), hands_per_round=event.hands_per_round, partners=partners, top=top)
    wanted = [entrant for run in runs for entrant in run.entrants]
    names = {pk: (number, name) for pk, number, name in
             Entrant.objects.filter(pk__in=wanted).values_list("pk", "number", "player__display_name")}
    for run in runs:
        run.entrants.sort(key=lambda pk: names[pk][0])
        run.name = " & ".join(names[pk][1] for pk in run.entrants)
    return runs


# --- the full results: every hand of every entrant, and the corrections -------------------------


def hand_sheet(event: Event) -> defaultdict[int, dict[str, list[Any]]]:
    """{entrant id: {"hands": [...], "sat_out_rounds": [...]}} from every seat and result."""
    rules = event_ruleset(event)
    results: defaultdict[tuple[int, int], dict[int, HandResult]] = defaultdict(dict)
    for result in HandResult.objects.filter(round__event=event).select_related("round", "table"):
        results[(result.round.number, result.table.number)][result.hand_number] = result
    sheet: defaultdict[int, dict[str, list[Any]]] = defaultdict(lambda: {"hands": [], "sat_out_rounds": []})
    seats = (Seat.objects.filter(round__event=event, round__state__in=(State.PLAYING, State.CLOSED))
             .values_list("entrant_id", "round__number", "table__number", "position"))
    for entrant_id, round_number, table, position in sorted(seats, key=lambda s: (s[0], s[1])):
        if table is None:
            sheet[entrant_id]["sat_out_rounds"].append(round_number)
            continue
        for hand, result in sorted(results.get((round_number, table), {}).items()):
            tricks = result.ns_tricks if SIDE_OF[position] == "NS" else result.ew_tricks
            sheet[entrant_id]["hands"].append({
                "round": round_number, "hand": hand, "table": table, "seat": position, "tricks": tricks,
                "score": drive_hand_score(tricks, rules), "trump": result.trump, "status": result.status,
                "counted": result.status in COUNTED,
            })
    return sheet


def corrections(event: Event) -> list[dict[str, Any]]:
    """The organiser's changes to hand results, oldest first: who, when, old and new, why.

    Read from the history: every version whose kind is not a table entry, with the
    version before it (none when the organiser entered a missing hand)."""
    corrected = HandResult.objects.filter(round__event=event).exclude(change_kind=HandResult.ChangeKind.ENTRY)
    history = (HandResult.history.filter(id__in=corrected.values("id")).select_related("history_user", "round", "table")
               .order_by("id", "history_date", "history_id"))
    previous: dict[int, Any] = {}  # a hand result's last version seen (simple_history's record)
    found: list[dict[str, Any]] = []
    for record in history:
        before = previous.get(record.id)
        previous[record.id] = record
        if record.change_kind == HandResult.ChangeKind.ENTRY or record.history_type == "-":
            continue
        user = record.history_user
        found.append({
            "round": record.round.number, "table": record.table.number, "hand": record.hand_number,
            "kind": record.change_kind, "kind_label": HandResult.ChangeKind(record.change_kind).label,
            "by": (user.get_full_name() or user.get_username()) if user else "",
            "at": record.history_date,
            "old_ns_tricks": before.ns_tricks if before else None,
            "old_status": before.status if before else "",
            "old_disputed_ns_tricks": before.disputed_ns_tricks if before else None,
            "new_ns_tricks": record.ns_tricks,
            "reason": record.history_change_reason or "",
        })
    return sorted(found, key=lambda c: (c["at"], c["round"], c["table"], c["hand"]))


def results_of(event: Event, fresh: Freshness) -> Results:
    """The published results: standings with prizes, every entrant's hands, the corrections."""
    table = standings(event, fresh)
    sheet = hand_sheet(event)
    credits = {}
    if any(entry["sat_out_rounds"] for entry in sheet.values()):
        credits = {line.entrant: line.compensation for _, _, line in compute_for(event)}
    for line in table["lines"]:
        entry = sheet[line.entrant_id]
        line.hands = entry["hands"]
        line.sat_out_rounds = entry["sat_out_rounds"]
        line.sit_out_credit = credits.get(line.entrant_id, Decimal(0))
    return {**table, "corrections": corrections(event), "event": event}


def results_columns(event: Event) -> list[tuple[int, int]]:
    """(round, hand) of every hand of the evening, for the hand-by-hand table and the CSV."""
    return [(r, h) for r in range(1, event.rounds + 1) for h in range(1, event.hands_per_round + 1)]


# --- printable score cards ----------------------------------------------------------------


def scorecards(event: Event) -> list[dict[str, Any]]:
    """One card per entrant: every round and hand, with the table, seat, partner and
    opponents where the round is already seated; blank cells to write the tricks in."""
    entrants = list(Entrant.objects.filter(event=event).select_related("player").order_by("number"))
    by_id = {e.pk: e for e in entrants}
    seats = list(Seat.objects.filter(round__event=event).select_related("round", "table"))
    at_table: defaultdict[tuple[int, int], dict[str, Entrant | None]] = defaultdict(dict)
    mine: defaultdict[int, dict[int, Seat]] = defaultdict(dict)
    for placed in seats:
        mine[placed.entrant_id][placed.round.number] = placed
        if placed.table is not None:
            at_table[(placed.round.number, placed.table.number)][placed.position] = by_id.get(placed.entrant_id)
    cards = []
    for entrant in entrants:
        rows = []
        for round_number in range(1, event.rounds + 1):
            seat = mine[entrant.pk].get(round_number)
            table_number = seat.table.number if seat is not None and seat.table is not None else None
            row: dict[str, Any] = {
                   "round": round_number, "seated": seat is not None, "sat_out": bool(seat and seat.table_id is None),
                   "table": table_number,
                   "position": seat.position if seat else "",
                   "seat": SEAT_SHORT.get(seat.position, "") if seat else "", "partner": None, "opponents": [],
                   "hands": [(hand, rotation_trump(event, round_number, hand) or "")
                             for hand in range(1, event.hands_per_round + 1)]}
            if seat is not None and table_number:
                table = at_table[(round_number, table_number)]
                row["partner"] = table.get(PARTNER[seat.position])
                row["opponents"] = [table.get(p) for p in SEATS if SIDE_OF[p] != SIDE_OF[seat.position] and table.get(p)]
            rows.append(row)
        cards.append({"entrant": entrant, "rounds": rows})
    return cards


def export_filename(event: Event, extension: str, what: str = "results") -> str:
    """The file name of a download (the results as CSV or JSON, the corrections)."""
    return f"{slugify(event.title) or 'whist-drive'}-{event.pk}-{what}.{extension}"
