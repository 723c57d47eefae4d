"""Actions: the small values every phase of every variant is played with.

Each action has one text form, the one records, the API and the command line use:

    "AS"             play a card (any phase of play)
    "pass"           pass in an auction (B2, Y2, R1)
    "4 downtown"     a bid: books over six and uptown, downtown or NT (B2, Y2)
    "NT", "H"        name a denomination in the Siberian auction (R1)
    "trump H"        the bid's winner names trump (B4, Y3)
    "uptown"         ... or, in no trump, the ranking (B4, Y3)
    "keep", "swap"   keep the hand dealt or take the packet on the right (P1, P2, P3)
    "discard 2C"     a card put away after taking the kitty (B4, Y1); "discard 2C 3D"
                     is the same cards one at a time

``parse_action`` reads any case; ``str(action)`` writes the canonical form.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .cards import card_str, parse_card
from .errors import EngineError

ActionKind = Literal["card", "pass", "bid", "denomination", "trump", "ranking",
                     "keep", "swap", "discard"]
Strain = Literal["uptown", "downtown", "NT"]
Denomination = Literal["S", "H", "D", "C", "NT"]
Ranking = Literal["uptown", "downtown"]

STRAINS: tuple[Strain, ...] = ("uptown", "downtown", "NT")
DENOMINATIONS: tuple[Denomination, ...] = ("S", "H", "D", "C", "NT")
RANKINGS: tuple[Ranking, ...] = ("uptown", "downtown")
_BID = re.compile(r"^([0-9]+)\s+(uptown|downtown|nt)$")


class ActionError(EngineError):
    """Text that is not an action."""


@dataclass(frozen=True, slots=True)
class Action:
    kind: ActionKind
    card: int | None = None             # card
    level: int = 0                      # bid: books over six
    strain: str = ""                    # bid: a Strain; denomination, trump: a suit or NT; ranking
    cards: tuple[int, ...] = ()         # discard

    def __str__(self) -> str:
        if self.kind == "card":
            assert self.card is not None   # every card action holds its card
            return card_str(self.card)
        if self.kind == "bid":
            return f"{self.level} {self.strain}"
        if self.kind in ("denomination", "ranking"):
            return self.strain
        if self.kind == "trump":
            return f"trump {self.strain}"
        if self.kind == "discard":
            return "discard " + " ".join(card_str(c) for c in self.cards)
        return self.kind

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"


PASS = Action("pass")
KEEP = Action("keep")
SWAP = Action("swap")
_WORDS = {"pass": PASS, "keep": KEEP, "swap": SWAP}


def play(card: int) -> Action:
    return Action("card", card=card)


def bid(level: int, strain: str) -> Action:
    return Action("bid", level=level, strain=strain)


def denomination(strain: str) -> Action:
    return Action("denomination", strain=strain)


def trump(suit: str) -> Action:
    return Action("trump", strain=suit)


def ranking(name: str) -> Action:
    return Action("ranking", strain=name)


def discard(cards: Iterable[int]) -> Action:
    """Cards put away; the variants take them one at a time, and a longer
    discard is those single ones in the order written (GameState.apply)."""
    return Action("discard", cards=tuple(cards))


def parse_action(text: object) -> Action:
    """An Action, or its text in any case; raises ActionError."""
    if isinstance(text, Action):
        return text
    if not isinstance(text, str):
        raise ActionError(f"not an action: {text!r}")
    t = " ".join(text.split())
    low = t.lower()
    if low in _WORDS:
        return _WORDS[low]
    if low in RANKINGS:
        return ranking(low)
    if t.upper() in DENOMINATIONS:
        return denomination(t.upper())
    if low.startswith("trump "):
        suit = t[6:].strip().upper()
        if suit not in DENOMINATIONS[:4]:
            raise ActionError(f"not a trump suit: {text!r}")
        return trump(suit)
    if low.startswith("discard"):
        try:
            cards = [parse_card(c) for c in t[7:].split()]
        except EngineError:
            raise ActionError(f"not a discard: {text!r}") from None
        if len(set(cards)) != len(cards):
            raise ActionError(f"a card discarded twice: {text!r}")
        return discard(cards)
    m = _BID.match(low)
    if m:
        return bid(int(m.group(1)), "NT" if m.group(2) == "nt" else m.group(2))
    try:
        return play(parse_card(t))
    except EngineError:
        raise ActionError(f"not an action: {text!r}") from None
