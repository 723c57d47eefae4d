"""Checks the service layer calls on result entry and stored records.

- ``validate_tricks(ns, ew)``: a result typed in from a paper card.
- ``check_record(data)``: the answer of ``python -m engine check``.
- ``validate_result(ns, ew, record=None)``: a result, against its record if any.
"""

from typing import Any

from .cards import card_str
from .errors import EngineError
from .play import IllegalPlay
from .play import HandState
from .record import BadDeal, HandRecord, parse_record, replay
from .scoring import Pair, hand_points
from .seats import SEATS, SIDES



class ResultError(EngineError):
    """A result that cannot stand. ``code`` is one of ``not_a_number``,
    ``out_of_range``, ``not_thirteen``, ``result_mismatch``; ``field`` names
    the side at fault when there is one ("NS" or "EW")."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        self.code, self.field = code, field
        super().__init__(message)


def validate_tricks(ns: object, ew: object) -> Pair:
    """Tricks per side, each 0-13, summing to 13 (S6.5: all 13 tricks are
    played). Returns ``(ns, ew)`` as ints or raises ResultError."""
    counts = []
    for side, value in zip(SIDES, (ns, ew)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ResultError("not_a_number", f"{side} tricks must be a whole number", side)
        if not 0 <= value <= 13:
            raise ResultError("out_of_range", f"{side} tricks must be 0-13, not {value}", side)
        counts.append(value)
    ns_tricks, ew_tricks = counts
    if ns_tricks + ew_tricks != 13:
        raise ResultError("not_thirteen", f"tricks must add up to 13, not {ns}+{ew}={ns_tricks + ew_tricks}")
    return ns_tricks, ew_tricks


def validate_result(ns: object, ew: object, record: object = None) -> Pair:
    """A result for a hand. With a record (dict or HandRecord) whose play is
    complete, the result must equal the tricks the plays give; with a partial
    record, each side must have at least the tricks already won and no more
    than it could still reach. Raises ResultError, or the record's own errors
    (RecordError, CardError, BadDeal, IllegalPlay)."""
    ns_tricks, ew_tricks = validate_tricks(ns, ew)
    if record is None:
        return ns_tricks, ew_tricks
    state = replay(record)
    left = 13 - len(state.winners)
    for side, got, claimed in zip(SIDES, state.tricks, (ns_tricks, ew_tricks)):
        if not got <= claimed <= got + left:
            what = "the plays give" if state.complete else "already won"
            raise ResultError("result_mismatch",
                              f"{side} {claimed} tricks, but {what} {got}", side)
    return ns_tricks, ew_tricks


def check_record(data: object) -> dict[str, Any]:
    """The answer for one record (the ``check`` command's contract).

    Playable: ``{"valid": true, "complete", "tricks", "winners", "to_play",
    "legal", "trump_card_visible"[, "score"]}``; illegal play:
    ``{"valid": false, "error": {"index", "seat", "card", "reason"}}``; bad
    deal: ``{"valid": false, "error": {"reason": "bad_deal", "detail"}}``.
    A result that does not fit the plays answers ``result_mismatch`` (or
    ``bad_result``). Unreadable records raise RecordError or CardError."""
    try:
        rec = parse_record(data)
    except BadDeal as exc:
        return _invalid({"reason": "bad_deal", "detail": str(exc)})
    try:
        state = replay(rec)
    except IllegalPlay as exc:
        return _invalid({"index": exc.index, "seat": exc.seat,
                         "card": card_str(exc.card), "reason": exc.reason})
    if rec.result is not None:
        try:
            ns, ew = rec.result
            validate_result(ns, ew, record=rec)
        except ResultError as exc:
            reason = "result_mismatch" if exc.code == "result_mismatch" else "bad_result"
            return _invalid({"reason": reason, "detail": str(exc)})
    return _answer(rec, state)


def _invalid(error: dict[str, Any]) -> dict[str, Any]:
    return {"valid": False, "error": error}


def _answer(rec: HandRecord, state: HandState) -> dict[str, Any]:
    legal = state.legal_mask() if not state.complete else 0
    turn = state.to_play
    order = rec.hand_order[turn] if turn is not None else ()
    out: dict[str, Any] = {
        "valid": True,
        "complete": state.complete,
        "tricks": {"NS": state.tricks[0], "EW": state.tricks[1]},
        "winners": [SEATS[w] for w in state.winners],
        "to_play": SEATS[turn] if turn is not None else None,
        "legal": [card_str(c) for c in order if legal >> c & 1],
        "trump_card_visible": state.trump_card_visible,
    }
    if state.complete:
        ns, ew = hand_points(tuple(state.tricks), rec.rules)   # rule S7.1
        out["score"] = {"NS": ns, "EW": ew}
    return out

