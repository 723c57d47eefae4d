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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import CARD_TEXT, card_str, holding_table, parse_card
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
            return CARD_TEXT[self.card] if 0 <= self.card < 54 else card_str(self.card)
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

    def __copy__(self) -> "Action":
        return self                 # a frozen value: a game's copy shares its actions

    def __deepcopy__(self, memo: dict[int, object]) -> "Action":
        return self


def is_among(action: Action, actions: Sequence[Action]) -> bool:
    """``action in actions``, the legal actions being the shared ones: found
    by identity first, without comparing each action before it field by field."""
    for a in actions:
        if a is action:
            return True
    return action in actions


PASS = Action("pass")
KEEP = Action("keep")
SWAP = Action("swap")
_WORDS = {"pass": PASS, "keep": KEEP, "swap": SWAP}


# Actions are frozen values, so each card's is made once and shared: the
# legal actions of a hand are looked up, not built (the hot path of playouts).
CARD_ACTIONS = tuple(Action("card", card=c) for c in range(54))
CARDS = frozenset(range(54))     # the card numbers: ``card in CARDS`` is a card of the 54
# the card of each shared card action by its identity: they live as long as the process,
# so no other object ever has one's id (GameState.apply knows a card in one lookup)
CARD_OF: dict[int, int] = {id(a): c for c, a in enumerate(CARD_ACTIONS)}
# the card actions of each 13-bit holding of each suit: legal actions are looked up
SUIT_ACTIONS = tuple(holding_table(s, CARD_ACTIONS.__getitem__) for s in range(4))
_S, _H, _D, _C = SUIT_ACTIONS
_JOKER_ACTIONS = ((), (CARD_ACTIONS[52],), (CARD_ACTIONS[53],), CARD_ACTIONS[52:])
_BIDS: dict[tuple[int, str], Action] = {}


def play(card: int) -> Action:
    if card.__class__ is int and 0 <= card < 54:
        return CARD_ACTIONS[card]
    return Action("card", card=card)


def suit_actions(suit: int, holding: int) -> tuple[Action, ...]:
    """The card actions of a 13-bit holding of one suit, ascending."""
    return SUIT_ACTIONS[suit][holding]


def card_actions(mask: int) -> list[Action]:
    """The card actions of a mask's cards, ascending: ``[play(c) for c in cards_of(mask)]``."""
    if mask >> 52:
        return [*_S[mask & 0x1FFF], *_H[mask >> 13 & 0x1FFF], *_D[mask >> 26 & 0x1FFF],
                *_C[mask >> 39 & 0x1FFF], *_JOKER_ACTIONS[mask >> 52 & 3]]
    return [*_S[mask & 0x1FFF], *_H[mask >> 13 & 0x1FFF], *_D[mask >> 26 & 0x1FFF], *_C[mask >> 39]]


def card_tuple(mask: int) -> tuple[Action, ...]:
    """``tuple(card_actions(mask))``: the legal cards a trick core hands out."""
    if mask >> 52:
        return (_S[mask & 0x1FFF] + _H[mask >> 13 & 0x1FFF] + _D[mask >> 26 & 0x1FFF]
                + _C[mask >> 39 & 0x1FFF] + _JOKER_ACTIONS[mask >> 52 & 3])
    return _S[mask & 0x1FFF] + _H[mask >> 13 & 0x1FFF] + _D[mask >> 26 & 0x1FFF] + _C[mask >> 39]


def action_text(action: Action) -> str:
    """``str(action)``, the shared actions' looked up: the text a record keeps."""
    return _TEXTS.get(id(action)) or str(action)


def bid(level: int, strain: str) -> Action:
    if level.__class__ is not int or strain.__class__ is not str:
        return Action("bid", level=level, strain=strain)
    made = _BIDS.get((level, strain))
    if made is None:
        made = Action("bid", level=level, strain=strain)
        if len(_BIDS) < 256:
            _BIDS[(level, strain)] = made
            _TEXTS[id(made)] = str(made)
    return made


def denomination(strain: str) -> Action:
    return _named("denomination", strain)


def trump(suit: str) -> Action:
    return _named("trump", suit)


def ranking(name: str) -> Action:
    return _named("ranking", name)


_NAMED: dict[tuple[str, str], Action] = {}


def _named(kind: ActionKind, strain: str) -> Action:
    """The action of a kind naming a strain, made once for the few the rules know."""
    if strain.__class__ is not str:
        return Action(kind, strain=strain)
    made = _NAMED.get((kind, strain))
    if made is None:
        made = Action(kind, strain=strain)
        if len(_NAMED) < 64:
            _NAMED[(kind, strain)] = made
            _TEXTS[id(made)] = str(made)
    return made


DISCARD_ACTIONS = tuple(Action("discard", cards=(c,)) for c in range(54))
_DS, _DH, _DD, _DC = (holding_table(s, DISCARD_ACTIONS.__getitem__) for s in range(4))
_JOKER_DISCARDS = ((), (DISCARD_ACTIONS[52],), (DISCARD_ACTIONS[53],), DISCARD_ACTIONS[52:])


def discard_actions(mask: int) -> list[Action]:
    """The single discards of a mask's cards, ascending: ``[discard((c,)) for c in cards_of(mask)]``."""
    return [*_DS[mask & 0x1FFF], *_DH[mask >> 13 & 0x1FFF], *_DD[mask >> 26 & 0x1FFF],
            *_DC[mask >> 39 & 0x1FFF], *_JOKER_DISCARDS[mask >> 52 & 3]]


def discard(cards: Iterable[int]) -> Action:
    """Cards put away; the variants take them one at a time, and a longer
    discard is those single ones in the order written (GameState.apply)."""
    put = tuple(cards)
    if len(put) == 1 and put[0].__class__ is int and 0 <= put[0] < 54:
        return DISCARD_ACTIONS[put[0]]
    return Action("discard", cards=put)


# the texts of the shared actions by identity (action_text): each of them lives as long
# as the process, so no other action ever has its id; bids and named ones join as made
_TEXTS: dict[int, str] = {id(a): str(a) for a in (*CARD_ACTIONS, *DISCARD_ACTIONS, PASS, KEEP, SWAP)}
TRUMP_CALLS = tuple(trump(s) for s in DENOMINATIONS[:4])      # naming trump (B4, Y3) ...
RANKING_CALLS = tuple(ranking(r) for r in RANKINGS)           # ... or in no trump the ranking


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
