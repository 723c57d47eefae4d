"""The rules robot's card for any variant, read from the JSON view alone.

The same advice as fast_play.py (seed 001, part H) on the general trick rules
of engine/tricks.py: any ranking (downtown), jokers, dummies played by their
holder, two-card tricks. Suits are compared by power (``card_power``), and a
suit's holding is put in power order so the advice tables of advice.py apply.
"""

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ..cards import BIT, FULL_DECK, JOKER_DECK, JOKER_SUIT, NO_TRUMP, card_str, parse_card, parse_suit
from ..tricks import card_power, card_suits
from .advice import (BOTH_OPPONENTS_VOID, HONOUR, KEEP_VALUE, LEAD_RANK, LEAD_STRENGTH, MASTER_BONUS,
                     NO_TRUMP_LEAD, ONE_OPPONENT_VOID, TRUMP_LEAD)


class TableMemory:
    """Cards this player has seen fall this hand, and who showed out of what."""

    def __init__(self) -> None:
        self.key: tuple[object, object] | None = None
        self._forget()

    def _forget(self) -> None:
        self.seen = 0
        self.voids: dict[str, set[int]] = {}    # seat label -> suits it showed out of

    def read(self, view: dict[str, Any], suit: Sequence[int]) -> None:
        key = (view.get("hands_played"), view.get("dealer"))
        if key != self.key:
            self._forget()
            self.key = key
        for trick in (view.get("last_trick") or {}).get("cards", []), view.get("trick", []):
            cards = [(e["seat"], parse_card(e["card"])) for e in trick]
            led = next((suit[c] for _, c in cards if suit[c] != JOKER_SUIT), None)
            for label, card in cards:
                self.seen |= BIT[card]
                if led is not None and suit[card] != led:
                    self.voids.setdefault(label, set()).add(led)


class Table:
    """One decision's reading of the view: whose cards, the trick, the sides."""

    def __init__(self, view: dict[str, Any], memory: TableMemory):
        self.trump = NO_TRUMP if view.get("trump") in (None, "NT") else parse_suit(view["trump"])
        ranking = view.get("ranking") or "uptown"
        self.power, self.suit = card_power(ranking, self.trump), card_suits(self.trump)
        memory.read(view, self.suit)
        self.legal = [parse_card(c) for c in view["legal"]]
        self.me = self._playing_for(view)
        self.hand = self._cards_of(view, self.me)
        self.trick = [(e["seat"], parse_card(e["card"])) for e in view.get("trick", [])]
        self.size = 2 if "exchange" in view else 4          # P1: two-card tricks
        self.seating: dict[str, str] = view.get("seating") or {}
        self.sides = [_members(k) for k in (view.get("tricks") or {})]
        deck = JOKER_DECK if "ranking" in view else FULL_DECK
        self.unseen = deck & ~memory.seen & ~_mask(self.hand)
        for cards in (view.get("open_hands") or {}).values():
            self.unseen &= ~_mask(parse_card(c) for c in cards)
        self.voids = memory.voids

    def _playing_for(self, view: dict[str, Any]) -> str:
        """The seat label this card is for: the player's own, or a dummy's."""
        own = set(view.get("hand", []))
        seat: str = view["seat"]
        if view["legal"][0] in own:
            return seat
        open_hands: dict[str, list[str]] = view.get("open_hands") or {}
        for label, cards in open_hands.items():
            if view["legal"][0] in cards:
                return label
        return seat

    @staticmethod
    def _cards_of(view: dict[str, Any], label: str) -> list[int]:
        cards = view.get("hand", []) if label == view["seat"] else view["open_hands"][label]
        return [parse_card(c) for c in cards]

    def player(self, label: str) -> str:
        return self.seating.get(label, label)

    def same_side(self, a: str, b: str) -> bool:
        pa, pb = self.player(a), self.player(b)
        return pa == pb or any(pa in side and pb in side for side in self.sides)

    def led(self) -> int | None:
        for _, card in self.trick:
            if self.suit[card] != JOKER_SUIT:
                return self.suit[card]
        return None

    def key(self, card: int, led: int | None) -> tuple[int, int]:
        s = self.suit[card]
        return (2 if s == self.trump else 1 if s == led else 0, self.power[card])

    def winning(self) -> tuple[str, tuple[int, int]]:
        led = self.led()
        best = max(self.trick, key=lambda e: self.key(e[1], led))
        return best[0], self.key(best[1], led)

    def holding(self, cards: Iterable[int]) -> int:
        """Plain cards of one suit as a 13-bit holding in power order."""
        h = 0
        for c in cards:
            p = self.power[c]
            if 0 <= p < 13:
                h |= 1 << p
        return h

    def master(self, card: int) -> bool:
        """No unseen card of its suit outranks it."""
        s, p = self.suit[card], self.power[card]
        return not any(self.suit[c] == s and self.power[c] > p for c in _cards(self.unseen))


def choose_card(view: dict[str, Any], memory: TableMemory) -> str:
    """The card to play, as text (one of ``view["legal"]``)."""
    legal: list[str] = view["legal"]
    if len(legal) == 1:
        return legal[0]
    t = Table(view, memory)
    return _text(_lead(t) if not t.trick else _follow(t))


def _follow(t: Table) -> int:
    led = t.led()
    best_seat, best_key = t.winning()
    partner_wins = t.same_side(best_seat, t.me)
    n = len(t.trick)
    last = n == t.size - 1
    low = min(t.legal, key=t.power.__getitem__)
    beat = sorted((c for c in t.legal if t.key(c, led) > best_key), key=t.power.__getitem__)
    follows = led is not None and t.suit[t.legal[0]] == led
    if not follows:
        return _void(t, led, partner_wins, last, beat)
    if partner_wins and (last or t.master(max(t.trick, key=lambda e: t.key(e[1], led))[1])):
        return low                                   # seed 001, additional rule 4
    if not beat or best_key[0] == 2 and led != t.trump:
        return low                                   # cannot win, or trumped already
    if n == 1 and t.size == 4:                       # second hand low, cover an honour (N15)
        return beat[0] if best_key[1] >= HONOUR else low
    if last:
        return beat[0]                               # win as cheaply as can be
    return beat[-1]                                  # third hand high (additional rule 2)


def _void(t: Table, led: int | None, partner_wins: bool, last: bool, beat: list[int]) -> int:
    trumps = [c for c in t.legal if t.suit[c] == t.trump]
    if partner_wins and (last or t.size == 2):
        return _discard(t)                           # seed 001, additional rule 4; necessary rule 11
    if beat and trumps:
        return beat[0]                               # seed 001, necessary rule 3: ruff, as low as wins
    return _discard(t)


def _discard(t: Table) -> int:
    """The lowest card of the weakest plain suit (seed 001, necessary rule 8)."""
    plain = [c for c in t.legal if t.suit[c] != t.trump and t.power[c] >= 0] or t.legal
    by_suit: dict[int, list[int]] = {}
    for c in plain:
        by_suit.setdefault(t.suit[c], []).append(c)
    weakest = min(by_suit, key=lambda s: (KEEP_VALUE[t.holding(by_suit[s])], s))
    return min(by_suit[weakest], key=t.power.__getitem__)


def _lead(t: Table) -> int:
    by_suit: dict[int, list[int]] = {}
    for c in t.legal:
        by_suit.setdefault(t.suit[c], []).append(c)
    trumps_held = len(by_suit.get(t.trump, ()))
    opponents = [label for label in t.voids if not t.same_side(label, t.me)]

    def score(s: int) -> int:
        cards = by_suit[s]
        top = max(cards, key=t.power.__getitem__)
        value = LEAD_STRENGTH[t.holding(cards)]
        if s == t.trump:
            value += TRUMP_LEAD if trumps_held >= 4 else -NO_TRUMP_LEAD   # seed 001, necessary rule 4
        void = sum(s in t.voids.get(p, ()) for p in opponents)
        if s != t.trump and void:                    # seed 001, necessary rules 13 and 5
            value -= BOTH_OPPONENTS_VOID if void >= 2 else ONE_OPPONENT_VOID
        if t.master(top) and (s != t.trump or trumps_held >= 4):
            value += MASTER_BONUS                    # seed 001, additional rule 2
        return value

    suit = max(sorted(by_suit), key=score)
    cards = by_suit[suit]
    top = max(cards, key=t.power.__getitem__)
    h = t.holding(cards)
    if (t.master(top) or t.power[top] >= 13) and h >> 11 & 3 != 3:
        return top                                   # additional rule 2: cash the winner
    rank = LEAD_RANK[h]                              # necessary rules 20, 15, 19, 18, 2
    for c in cards:
        if t.power[c] == rank:
            return c
    return top


def _members(side: str) -> tuple[str, ...]:
    """The players of a side named in ``tricks``: "NS", "E+S", "N"."""
    if "+" in side:
        return tuple(side.split("+"))
    return tuple(side) if side in ("NS", "EW") else (side,)


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= BIT[c]
    return m


def _cards(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _text(card: int) -> str:
    return card_str(card)
