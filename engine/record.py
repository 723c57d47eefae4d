"""The JSON hand record the service stores for every hand, and ``replay``.

    {"rules": "short", "dealer": "N",
     "hands": {"N": [13 cards], "E": [...], "S": [...], "W": [...]},
     "trump_card": "7D",            # when trump is turned (S5); else "trump": "H" | "NT"
     "plays": ["2C", ...],          # in order, any prefix of the 52
     "result": {"NS": 7, "EW": 6}}  # optional; must match complete plays

Cards may be written ``AS``, ``TD`` or ``10D`` in any case; the engine writes
``AS`` and ``TD``.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import BIT, FULL_DECK, SUIT_OF, card_str, cards_of, parse_card, parse_suit, suit_str
from .deal import Deal, trump_for_hand
from .errors import EngineError
from .play import NOT_IN_HAND, HandState, IllegalPlay
from .rules import Ruleset, RulesError
from .scoring import Pair
from .seats import SEATS


class RecordError(EngineError):
    """A record that cannot be read: wrong types, unknown rules, bad card text."""


class BadDeal(EngineError):
    """A malformed deal: not 52 distinct cards, not 13 each, trump card not the
    dealer's, no such dealer."""

    reason = "bad_deal"


@dataclass(frozen=True)
class HandRecord:
    rules: Ruleset
    dealer: int
    hands: tuple[int, ...]  # four masks, by seat
    hand_order: tuple[tuple[int, ...], ...]  # the cards of each seat in the order written (for answers)
    trump: int
    trump_card: int | None
    plays: tuple[int, ...]
    result: Pair | None     # (N-S, E-W) tricks as entered, if any
    hand_number: int = 0    # position in the evening's trump rotation (D2)

    @property
    def deal(self) -> Deal:
        return Deal(self.dealer, self.hands, self.trump, self.trump_card)

    def start(self) -> HandState:
        return HandState(self.hands, self.dealer, self.trump, self.trump_card)


def parse_record(data: object) -> HandRecord:
    """Read a record dict. Raises RecordError (unreadable: the command line
    exits 2), ``cards.CardError`` (unknown card text, also exit 2) or BadDeal."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    try:
        rules = Ruleset.from_json(data.get("rules", "short"))
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    written = data.get("plays", [])
    if not isinstance(written, list):
        raise RecordError("plays must be a list of cards")
    plays = tuple(parse_card(c) for c in written)
    hand_order = _parse_hands(data.get("hands"))
    dealer = _parse_dealer(data.get("dealer"))
    hands = tuple(sum(BIT[c] for c in cards) for cards in hand_order)
    _check_deal(hand_order, hands)
    number = data.get("hand_number", 0)
    if not isinstance(number, int) or number < 0:
        raise RecordError("hand_number must be a whole number >= 0")
    trump, trump_card = _parse_trump(data, rules, dealer, hands, number)
    result = _parse_result(data.get("result"))
    return HandRecord(rules, dealer, hands, hand_order, trump, trump_card, plays, result, number)


def _parse_hands(raw: object) -> tuple[tuple[int, ...], ...]:
    if not isinstance(raw, dict):
        raise BadDeal("hands must be an object with N, E, S and W")
    order = []
    for seat in SEATS:
        cards = raw.get(seat)
        if not isinstance(cards, list):
            raise BadDeal(f"no hand for {seat}")
        order.append(tuple(parse_card(c) for c in cards))
    extra = set(raw) - set(SEATS)
    if extra:
        raise BadDeal(f"unknown seats {sorted(extra)}")
    return tuple(order)


def _parse_dealer(raw: object) -> int:
    if not isinstance(raw, str) or raw.strip().upper() not in tuple(SEATS):
        raise BadDeal(f"dealer must be N, E, S or W, not {raw!r}")
    return SEATS.index(raw.strip().upper())


def _check_deal(hand_order: Sequence[Sequence[int]], hands: Sequence[int]) -> None:
    for seat, cards in zip(SEATS, hand_order):
        if len(cards) != 13:
            raise BadDeal(f"{seat} holds {len(cards)} cards, not 13")
    if hands[0] | hands[1] | hands[2] | hands[3] != FULL_DECK:
        seen: set[int] = set()
        twice: list[int] = []
        for c in (c for cards in hand_order for c in cards):
            (twice.append if c in seen else seen.add)(c)
        raise BadDeal("not 52 distinct cards: " + ", ".join(card_str(c) for c in twice) + " twice")


def _parse_trump(data: dict[str, Any], rules: Ruleset, dealer: int, hands: Sequence[int],
                 number: int) -> tuple[int, int | None]:
    raw_card, raw_suit = data.get("trump_card"), data.get("trump")
    if rules.turns_trump:
        if raw_card is None:
            raise BadDeal("no trump_card: these rules turn the dealer's last card (S5)")
        card = parse_card(raw_card)
        if not hands[dealer] & BIT[card]:
            raise BadDeal(f"trump card {card_str(card)} is not the dealer's ({SEATS[dealer]})")
        if raw_suit is not None and _suit(raw_suit) != SUIT_OF[card]:
            raise BadDeal(f"trump {raw_suit} is not the suit of {card_str(card)}")
        return SUIT_OF[card], card
    trump = trump_for_hand(rules, number, None)
    if raw_suit is not None and _suit(raw_suit) != trump:
        raise BadDeal(f"trump {raw_suit} is not {suit_str(trump)}, set by the rules for hand {number}")
    return trump, None


def _suit(raw: str) -> int:
    try:
        return parse_suit(raw)
    except ValueError as exc:
        raise RecordError(str(exc)) from None


def _parse_result(raw: object) -> Pair | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"NS", "EW"}:
        raise RecordError('result must be {"NS": tricks, "EW": tricks}')
    ns, ew = raw["NS"], raw["EW"]
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (ns, ew)):
        raise RecordError("result tricks must be whole numbers")
    return (ns, ew)


def replay(record: object) -> HandState:
    """The state after every play of a record (a dict or a HandRecord).
    Raises IllegalPlay at the first illegal card, with its index."""
    rec = record if isinstance(record, HandRecord) else parse_record(record)
    state = rec.start()
    for card in rec.plays:
        if state.complete:
            raise IllegalPlay(NOT_IN_HAND, state.turn, card, len(state.plays))
        state.play(card)
    return state


def to_record(state: HandState, rules: Ruleset, *, hand_number: int = 0,
              with_result: bool = True) -> dict[str, Any]:
    """The JSON record of a hand state (the shape ``parse_record`` reads)."""
    rec: dict[str, Any] = {"rules": rules.to_json(), "dealer": SEATS[state.dealer],
           "hands": {SEATS[s]: [card_str(c) for c in cards_of(state.deal_hands[s])] for s in range(4)}}
    if state.trump_card is not None:
        rec["trump_card"] = card_str(state.trump_card)
    else:
        rec["trump"] = suit_str(state.trump)
    if hand_number:
        rec["hand_number"] = hand_number
    rec["plays"] = [card_str(c) for c in state.plays]
    if with_result and state.complete:
        rec["result"] = {"NS": state.tricks[0], "EW": state.tricks[1]}
    return rec

