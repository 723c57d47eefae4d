"""Results from the tables: entry from the players' phones, cross-checks, corrections.

A table's rows are serialised on its Table row (select_for_update), so two phones of
one table never overwrite each other unseen.
"""
from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine import SIDE_OF, SIDES, EngineError, revoke_adjustment, validate_tricks
from drive.core import broadcast
from drive.core.errors import Conflict, Invalid
from drive.events.services.audit import log_action
from drive.events.models import Event
from drive.core.accounts import User
from drive.events.access import require_organiser

from drive.scoring import signals
from drive.scoring.services.claims import claim_for_entry
from drive.scoring.models import HandResult, Round, Seat, Table
from drive.scoring.rules import event_ruleset, rotation_trump
from drive.scoring.selectors.online_tables import online_table_url
from drive.scoring.selectors.rounds import entry_round, table_complete
from drive.scoring.services.recompute import standings_changed

Status = HandResult.Status
REASON_MAX = 100
# Why the table changed a hand: kept in the hand's history in English, whatever the
# writing phone's language, and shown in the reader's (the `change_reason` filter).
ENTERED = gettext_noop("entered at the table")
CHANGED = gettext_noop("changed at the table before confirmation")
CONFIRMED = gettext_noop("confirmed by the opponents")
DISPUTED = gettext_noop("disputed by the opponents")
RECOUNTED = gettext_noop("counted again at the table, still disputed")
SETTLED = gettext_noop("dispute settled at the table: both sides entered the same count")
TABLE_REASONS = (ENTERED, CHANGED, CONFIRMED, DISPUTED, RECOUNTED, SETTLED)
# ...and at an online table (record_played_hand), where nobody enters the tricks.
PLAYED_ONLINE = gettext_noop("played online")
FINISHED_BY_ROBOTS = gettext_noop("finished by robots at the round's deadline")
STOOD_IN = gettext_noop("played online, a robot standing in for a player who did not come")
ORGANISER_KINDS = (HandResult.ChangeKind.CORRECTION, HandResult.ChangeKind.REVOKE, HandResult.ChangeKind.ADJUSTED)


def _tricks(ns_tricks: object) -> int:
    """E-W took the rest of the 13 (rule S6.5); the engine checks the numbers."""
    ew_tricks = 13 - ns_tricks if isinstance(ns_tricks, int) and not isinstance(ns_tricks, bool) else 0
    try:
        return validate_tricks(ns_tricks, ew_tricks)[0]
    except EngineError as exc:
        raise Invalid(_("Tricks for N-S must be a whole number from 0 to 13."), field="ns_tricks") from exc


def _trump(event: Event, round_: Round, hand_number: int, trump: str | None) -> str:
    fixed = rotation_trump(event, round_.number, hand_number)
    if fixed is not None:
        if trump and trump != fixed:
            raise Invalid(_("This hand's trump is fixed by the rotation."), field="trump")
        return fixed
    if trump not in HandResult.Trump.values or trump == "NT":
        raise Invalid(_("Say which suit was turned up for trumps."), field="trump")
    return trump


def _check_hand(event: Event, hand_number: object) -> int:
    """The hand's number, when it is one of the round's hands (a whole number, never text)."""
    if not isinstance(hand_number, int) or not 1 <= hand_number <= event.hands_per_round:
        raise Invalid(_("Hand must be from 1 to %(n)s.") % {"n": event.hands_per_round}, field="hand_number")
    return hand_number


def _seat_at(round_: Round, table: Table, position: str) -> Seat:
    if position not in SIDE_OF:
        raise Invalid(_("Seat must be N, E, S or W."), field="seat")
    seat = Seat.objects.filter(round=round_, table=table, position=position).select_related("entrant__player").first()
    if seat is None:
        raise Invalid(_("Nobody sits there at this table in this round."), field="seat")
    return seat


@transaction.atomic
def submit_result(*, table: Table, hand_number: int | str, ns_tricks: int | str, claim: str | None = None,
                  user: User | None = None, seat: str | None = None, trump: str | None = None,
                  expected_version: int | None = None) -> tuple[HandResult, str]:
    """A player's entry for one hand, from the seat the phone claimed (`claim`: its secret;
    `user`: the signed-in account, for a claim bound to it; `seat`, when given, must be the
    claim's). No valid claim of this table and round: Forbidden. Returns (result, outcome).

    outcome: "created", "unchanged" (the same again), "confirmed" (by the other side, or
    at once with single entry), "updated" (the same side changes its unconfirmed entry: it
    must name the version it saw, so two partners typing at once never overwrite each
    other unseen: the second gets a Conflict with the stored values), "disputed" (the
    other side disagrees: the organiser is asked). A disputed hand may be counted again
    (`_recount`): "settled" when both sides' counts now agree, else "recounted".
    """
    table = Table.objects.select_for_update(of=("self",)).select_related("event__club").get(pk=table.pk)
    event = table.event
    round_ = entry_round(table)
    if event.phase != Event.Phase.IN_PROGRESS or round_ is None:
        raise Conflict(_("No round is open for results at this table."))
    online = online_table_url(round_, table)
    if online is not None:
        raise Conflict(_("Table %(table)s is played online this round: its hands count as they are played, with "
                         "nothing to enter.") % {"table": table.number}, extra={"url": online})
    # The seat is the claim's, never the client's word: one phone cannot be two seats.
    seat = claim_for_entry(table=table, round_=round_, secret=claim, user=user, seat=seat).position
    hand_number = _check_hand(event, hand_number)
    ns_tricks = _tricks(ns_tricks)
    trump = _trump(event, round_, hand_number, trump)
    side = SIDE_OF[_seat_at(round_, table, seat).position]
    result = HandResult.objects.filter(round=round_, table=table, hand_number=hand_number).first()
    if table_complete(round_, table):
        if result is not None and result.ns_tricks == ns_tricks and result.trump == trump:
            return result, "unchanged"  # a repeat (a retry of the last confirmation) is idempotent
        raise Conflict(_("This round is confirmed and locked: ask the organiser for a correction."),
                       extra={"stored": _stored(result) if result is not None else None})
    outcome, result = _apply_entry(event, round_, table, hand_number, result, side, seat, ns_tricks, trump,
                                   expected_version)
    if outcome != "unchanged":
        _after_change(event, round_, table)
    return result, outcome


def _apply_entry(event: Event, round_: Round, table: Table, hand_number: int, result: HandResult | None, side: str,
                 seat: str, ns_tricks: int, trump: str, expected_version: int | None) -> tuple[str, HandResult]:
    single = event.result_confirmation == Event.Confirmation.SINGLE
    if result is None:
        status = Status.CONFIRMED if single else Status.ENTERED
        result = HandResult(round=round_, table=table, hand_number=hand_number, ns_tricks=ns_tricks, trump=trump,
                            status=status, entered_by=seat, confirmed_by=seat if single else "")
        _save(result, ENTERED)
        return ("confirmed" if single else "created"), result
    same = result.ns_tricks == ns_tricks and result.trump == trump
    if same and (result.status == Status.CONFIRMED or SIDE_OF.get(result.entered_by) == side):
        return "unchanged", result
    if not result.entered_by:  # the organiser set it before the table entered it: their word stands
        raise Conflict(_("The organiser has already entered this hand: ask them for a correction."),
                       extra={"stored": _stored(result)})
    if result.status == Status.DISPUTED:
        return _recount(result, side, seat, ns_tricks, trump, expected_version)
    if SIDE_OF[result.entered_by] == side or single:
        if result.status == Status.CONFIRMED:
            raise Conflict(_("This hand is already confirmed."), extra={"stored": _stored(result)})
        if expected_version != result.version:
            raise Conflict(_("Your side has already entered this hand: look at it, then change it if it is wrong."),
                           extra={"stored": _stored(result)})
        result.ns_tricks, result.trump, result.entered_by = ns_tricks, trump, seat
        _save(result, CHANGED)
        return "updated", result
    if same:
        result.status, result.confirmed_by = Status.CONFIRMED, seat
        _save(result, CONFIRMED)
        return "confirmed", result
    result.status, result.disputed_ns_tricks, result.confirmed_by = Status.DISPUTED, ns_tricks, seat
    _save(result, DISPUTED)
    return "disputed", result


def _recount(result: HandResult, side: str, seat: str, ns_tricks: int, trump: str,
             expected_version: int | None) -> tuple[str, HandResult]:
    """A disputed hand counted again at the table. Each side keeps its latest count: the
    side that entered first in `ns_tricks` (with the trump), the other in
    `disputed_ns_tricks`. Once they agree, the hand is confirmed at that count, settled
    without the organiser; the history says so. Changing a side's own count names the
    version it saw, as a change before confirmation does (partners never overwrite each
    other unseen); agreeing with the other side needs no version."""
    first = SIDE_OF[result.entered_by] == side
    theirs = result.disputed_ns_tricks if first else result.ns_tricks
    if ns_tricks == theirs and (first or trump == result.trump):
        if first:
            result.ns_tricks, result.trump, result.entered_by = ns_tricks, trump, seat
        else:
            result.confirmed_by = seat
        result.status, result.disputed_ns_tricks = Status.CONFIRMED, None
        _save(result, SETTLED)
        return "settled", result
    if not first and ns_tricks == result.disputed_ns_tricks:
        return "unchanged", result  # the first side's repeat is caught before (the same entry)
    if expected_version != result.version:
        raise Conflict(_("This hand is disputed: look at both sides' counts, then send yours again with the version "
                         "you saw. The same count from both sides settles it."), extra={"stored": _stored(result)})
    if first:
        result.ns_tricks, result.trump, result.entered_by = ns_tricks, trump, seat
    else:
        result.disputed_ns_tricks, result.confirmed_by = ns_tricks, seat
    _save(result, RECOUNTED)
    return "recounted", result


def _stored(result: HandResult) -> dict[str, Any]:
    return {"hand_number": result.hand_number, "ns_tricks": result.ns_tricks, "ew_tricks": result.ew_tricks,
            "trump": result.trump, "status": result.status, "version": result.version}


def _save(result: HandResult, reason: str, user: User | None = None) -> None:
    if result.pk:
        result.version += 1
    setattr(result, "_change_reason", reason)  # simple_history reads both by name when it saves
    if user is not None:
        setattr(result, "_history_user", user)
    result.save()


def _after_change(event: Event, round_: Round, table: Table) -> None:
    standings_changed(event_id=event.pk)  # the version goes up with this change; recomputed once committed
    broadcast.publish(event.pk, broadcast.Change.RESULTS, round=round_.number, table=table.number)


@transaction.atomic
def correct_result(*, actor: User, table: Table, round_number: int, hand_number: int, ns_tricks: int, reason: str,
                   trump: str | None = None, kind: str = HandResult.ChangeKind.CORRECTION,
                   expected_version: int | None = None) -> HandResult:
    """The organiser's correction of any hand, any time, with a reason kept in the history."""
    require_organiser(actor, table.event.club)
    table = Table.objects.select_for_update(of=("self",)).select_related("event").get(pk=table.pk)
    event = table.event
    if not (reason or "").strip():
        raise Invalid(_("Give a reason for the correction."), field="reason")
    if len(reason.strip()) > REASON_MAX:  # the history keeps this many characters
        raise Invalid(_("Keep the reason under %(n)s characters.") % {"n": REASON_MAX}, field="reason")
    if kind not in HandResult.ChangeKind.values or kind in (HandResult.ChangeKind.ENTRY, HandResult.ChangeKind.ROBOTS):
        raise Invalid(_("Unknown kind of correction."), field="kind")
    round_ = event.evening_rounds.filter(number=round_number).first()
    if round_ is None or round_.state == Round.State.PENDING:
        raise Invalid(_("That round has not been played."), field="round")
    hand_number = _check_hand(event, hand_number)
    ns_tricks = _tricks(ns_tricks)
    result = HandResult.objects.filter(round=round_, table=table, hand_number=hand_number).first()
    if result and expected_version is not None and result.version != expected_version:
        raise Conflict(_("Someone changed this hand meanwhile."), extra={"stored": _stored(result)})
    trump = _trump(event, round_, hand_number, trump or (result.trump if result else None))
    before = _stored(result) if result else None
    result = result or HandResult(round=round_, table=table, hand_number=hand_number)
    result.ns_tricks, result.trump, result.status = ns_tricks, trump, Status.CONFIRMED
    result.disputed_ns_tricks, result.change_kind = None, kind
    _save(result, reason.strip(), user=actor)
    # The hand's own history keeps the row; the log says who did what to the evening, and why.
    log_action(actor=actor, event=event, action=f"result.{kind}", before=before,
               after={**_stored(result), "round": round_.number, "table": table.number, "reason": reason.strip()},
               obj=result)
    _after_change(event, round_, table)
    if event.phase == Event.Phase.RESULTS_PUBLISHED:
        signals.results_changed_on_commit(event.pk, signals.CORRECTED)  # the floors above listen (seasons)
    return result


@transaction.atomic
def apply_revoke_penalty(*, actor: User, table: Table, round_number: int, hand_number: int, offending_side: str,
                         reason: str, expected_version: int | None = None) -> HandResult:
    """Rule L8 for results from paper: three tricks pass from the offenders to the opponents.

    With `expected_version`, refused when the hand changed since the organiser saw it."""
    if offending_side not in SIDES:
        raise Invalid(_("Say which side revoked: NS or EW."), field="offending_side")
    table = Table.objects.select_for_update(of=("self",)).select_related("event").get(pk=table.pk)
    round_ = table.event.evening_rounds.filter(number=round_number).first()
    result = (HandResult.objects.filter(round=round_, table=table, hand_number=hand_number).first()
              if round_ is not None else None)
    if result is None:
        raise Invalid(_("Enter the hand's result before its penalty."), field="hand_number")
    if expected_version is not None and result.version != expected_version:
        raise Conflict(_("Someone changed this hand meanwhile."), extra={"stored": _stored(result)})
    (ns, _ew), _points = revoke_adjustment((result.ns_tricks, result.ew_tricks), SIDES.index(offending_side),
                                          event_ruleset(table.event))
    return correct_result(actor=actor, table=table, round_number=round_number, hand_number=hand_number, ns_tricks=ns,
                          reason=reason, kind=HandResult.ChangeKind.REVOKE, expected_version=result.version)


# --- a hand played to its end at an online table (drive.games, heard by drive.scoring.receivers)


@transaction.atomic
def record_played_hand(*, event_id: int, round_number: int, table_number: int, hand_number: int, ns_tricks: int,
                       trump: str | None, by_robots: bool = False,
                       stood_in: bool = False) -> tuple[HandResult, str]:
    """A hand played to its end at an online table: stored as a confirmed result (no seat
    entered it, none confirmed it: the engine counted the tricks), so recomputation,
    standings and the live pages follow as for paper. `by_robots`: robots finished it at
    the deadline, and the row says so (its kind, shown in the results and the console);
    `stood_in`: a robot played for an absent person in it, flagged the same way.

    Idempotent. A paper entry at the same hand gives way to the hand as played; an
    organiser's correction stands (the organiser's word is final). Returns (result,
    outcome): "created", "updated", "unchanged" or "kept" (a correction stands)."""
    table = (Table.objects.select_for_update(of=("self",)).select_related("event")
             .filter(event_id=event_id, number=table_number).first())
    round_ = Round.objects.filter(event_id=event_id, number=round_number).first()
    if table is None or round_ is None or round_.state == Round.State.PENDING:
        raise Conflict("no such round or table for an online hand")
    event = table.event
    hand_number = _check_hand(event, hand_number)
    ns_tricks = _tricks(ns_tricks)
    trump = _trump(event, round_, hand_number, None if trump == "NT" else trump)
    kind = HandResult.ChangeKind.ROBOTS if by_robots or stood_in else HandResult.ChangeKind.ENTRY
    result = HandResult.objects.filter(round=round_, table=table, hand_number=hand_number).first()
    if result is not None and result.change_kind in ORGANISER_KINDS:
        return result, "kept"
    if result is not None and (result.ns_tricks, result.trump, result.status, result.change_kind) == (
            ns_tricks, trump, HandResult.Status.CONFIRMED, kind):
        return result, "unchanged"
    outcome = "created" if result is None else "updated"
    result = result or HandResult(round=round_, table=table, hand_number=hand_number)
    result.ns_tricks, result.trump, result.status, result.change_kind = ns_tricks, trump, HandResult.Status.CONFIRMED, kind
    result.entered_by = result.confirmed_by = ""
    result.disputed_ns_tricks = None
    _save(result, FINISHED_BY_ROBOTS if by_robots else STOOD_IN if stood_in else PLAYED_ONLINE)
    _after_change(event, round_, table)
    return result, outcome
