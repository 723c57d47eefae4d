"""What a seat knows of the hand in play, and layouts of the hidden cards dealt
consistently with it, uniformly (the sampling of the ``strong`` robot).

``Memory.observe(view)`` reads one view after another (each decision's) and
keeps what went by: every trick seen (the view shows the last trick and the
one in progress, so a seat acting every trick sees them all), the turned
trump card while it showed (S5), a kitty shown before the bidder took it (B4).
``Memory.situation(view)`` gives the ``Situation`` now: the hands known (one's
own, open dummies), the cards still held by each hidden hand, and the cards
no one can see. Every inference comes from the view alone:

- cards seen played, one's own, open hands, shown packets (kitty, discards,
  dead packets) are nowhere to deal;
- a hand that did not follow suit holds no card of the suit led (S6.2; in a
  trump game the jokers follow trumps, B3, so a void in trumps holds none);
  a joker played in no trump proves nothing (it may be thrown at any time
  under some options);
- the turned trump card stays with the dealer until played (S5), a kitty seen
  stays with the bidder or among the discards (B4);
- cards that left play unseen (the kitty buried, dead packets, tricks played
  before this robot sat down) go to ``SINK``, a holder without constraints.

``deal_layouts`` deals the hidden cards by constrained dealing, not rejection:
cards fall into classes by the holders they may go to; the number of ways to
complete a deal is counted exactly (memoised), and each class is split among
its holders with probability proportional to the completions, so every
consistent layout is equally likely and no work is wasted on rejections.
"""

import random
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from math import comb
from typing import Any, TypeAlias

from ..cards import (BIT, FULL_DECK, JOKER_DECK, JOKER_SUIT, SUIT_MASK, card_str, cards_of, mask_of, parse_card,
                     parse_suit, suit_str)
from ..errors import EngineError
from ..seats import SEATS
from ..tricks import card_suits
from ..views import Played, SeatView
from ..variants import find_variant
from .base import LiveView

SINK = 4                     # the holder of cards out of play (see above)
_JOKERS = JOKER_DECK & ~FULL_DECK

Labels: TypeAlias = tuple[str | None, ...]   # a seat label by position, None where no hand is
Layout: TypeAlias = dict[int, int]           # hidden position (and SINK) -> mask of cards dealt it
Caps: TypeAlias = tuple[int, ...]            # room left by holder, in ``Situation.holders()`` order
CardClass: TypeAlias = tuple[tuple[int, ...], tuple[int, ...]]   # (holders allowed, cards)


def _mask(cards: Iterable[str] | None) -> int:
    return mask_of(parse_card(c) for c in cards or ())


@dataclass
class Situation:
    """The hand in play as one seat sees it. Positions are 0-3 clockwise
    (N E S W of the trick core); ``labels`` names the hand at each, None
    where no hand is in play (two-handed games)."""

    labels: Labels
    actors: Labels                # the player who plays each position
    to_play: int                  # the position to play now
    trick: list[Played]           # [(position, card)] of the trick in progress
    leader: int                   # the position that led it
    known: dict[int, int]         # position -> mask of cards held, seen by this seat
    counts: dict[int, int]        # hidden position -> cards it still holds
    pool: int                     # the cards this seat cannot place
    sink: int                     # how many of them are out of play
    forbidden: dict[int, int]     # holder -> mask of pool cards it cannot hold
    trump: int
    ranking: str
    won: list[int]                # tricks won by side (0: positions 0, 2)
    tricks_left: int              # tricks still to finish, the current one counted
    deck: int
    history: tuple[list[Played], ...] | None = None  # the completed tricks in order, [(position, card)] each, if all were seen

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(p for p in range(4) if self.labels[p] is not None)

    def holders(self) -> list[int]:
        return sorted(self.counts) + [SINK]

    def capacity(self, holder: int) -> int:
        return self.sink if holder == SINK else self.counts[holder]

    def hands(self, layout: Layout) -> list[int]:
        """Hands by position: the known ones and one dealt ``layout``."""
        out = [0, 0, 0, 0]
        for p, m in self.known.items():
            out[p] = m
        for p in self.counts:
            out[p] = layout[p]
        return out


@dataclass
class Memory:
    """What one seat remembers of the current hand, view after view."""

    key: tuple[object, ...] | None = None
    tricks: dict[int, list[tuple[str, int]]] = field(default_factory=dict)     # number -> [(label, card)]
    trump_card: int | None = None
    kitty: int = 0

    def observe(self, view: dict[str, Any]) -> None:
        key = (view.get("rules"), view.get("dealer"), view.get("hands_played"))
        if key != self.key:
            self.key, self.tricks, self.trump_card, self.kitty = key, {}, None, 0
        if view.get("trump_card"):
            self.trump_card = parse_card(view["trump_card"])
        if view.get("kitty"):
            self.kitty = _mask(view["kitty"])
        done = sum((view.get("tricks") or {}).values())
        last = view.get("last_trick")
        if last and done:
            self.tricks[done - 1] = [(c["seat"], parse_card(c["card"])) for c in last["cards"]]

    def situation(self, view: dict[str, Any]) -> Situation:
        self.observe(view)
        return read_situation(view, self)


def memory_of_seat_view(memory: Memory, view: SeatView | LiveView) -> Situation:
    """The situation from the fast path's ``SeatView`` or ``LiveView`` of plain
    four-handed whist (engine/views.py, robots/base.py): its completed tricks
    are remembered, and ``played`` shows every card fallen."""
    trick = list(view.current_trick)
    done = (view.played.bit_count() - len(trick)) // 4
    seen = mask_of(c for t in memory.tricks.values() for _, c in t)
    if seen & ~view.played or (memory.key or (None, None))[1] != SEATS[view.dealer]:
        memory.key, memory.tricks, memory.trump_card, memory.kitty = ("short", SEATS[view.dealer]), {}, None, 0
    quitted = list(view.quitted_tricks)
    for i, (leader, cards, _winner) in enumerate(quitted):
        memory.tricks[done - len(quitted) + i] = [(SEATS[(leader + k) & 3], c) for k, c in enumerate(cards)]
    if view.trump_card is not None:
        memory.trump_card = view.trump_card
    as_json: dict[str, Any] = {
        "rules": "short", "seat": SEATS[view.seat], "dealer": SEATS[view.dealer],
        "hand": [card_str(c) for c in cards_of(view.hand)],
        "legal": [card_str(c) for c in view.legal], "trump": suit_str(view.trump),
        "trick": [{"seat": SEATS[p], "card": card_str(c)} for p, c in trick],
        "tricks": {"NS": view.tricks[0], "EW": view.tricks[1]},
        "open_hands": {SEATS[p]: [card_str(c) for c in cards_of(m)] for p, m in view.open_hands.items()},
        "played": [card_str(c) for c in cards_of(view.played)]}
    return read_situation(as_json, memory)


def table_labels(view: dict[str, Any]) -> tuple[Labels, Labels]:
    """The hand at each position and who plays it (Seating for dummies)."""
    if view.get("seating"):
        labels = tuple(view["seating"])
        return labels, tuple(view["seating"][lab] for lab in labels)
    seats = find_variant(view["rules"]).seats
    labels = tuple(s if s in seats else None for s in SEATS)
    return labels, labels


def deck_of(view: dict[str, Any]) -> int:
    options = find_variant(view["rules"]).options
    return JOKER_DECK if getattr(options, "jokers", view["rules"].startswith("bid")) else FULL_DECK


def read_situation(view: dict[str, Any], memory: Memory) -> Situation:
    labels, actors = table_labels(view)
    pos: dict[str | None, int] = {lab: p for p, lab in enumerate(labels) if lab is not None}  # get(None): no hand
    seats = [p for p in range(4) if labels[p] is not None]
    trump = parse_suit(view["trump"])
    suit = card_suits(trump)
    trick = [(pos[t["seat"]], parse_card(t["card"])) for t in view.get("trick") or []]
    done = sum((view.get("tricks") or {}).values())
    mine = _mask(view["hand"])
    legal = _mask(view.get("legal"))
    open_hands = {pos[lab]: _mask(cards) for lab, cards in (view.get("open_hands") or {}).items()
                  if lab in pos}
    own = pos[view["seat"]]
    to_play = own if legal & mine or not legal else next(p for p, m in open_hands.items() if legal & m)
    known = {own: mine, **open_hands}
    in_trick = {p for p, _ in trick}
    per_hand = bin(mine).count("1") + done + (own in in_trick)
    counts = {p: per_hand - done - (p in in_trick) for p in seats if p not in known}
    # what left play where this seat could see it
    away = mask_of(c for t in memory.tricks.values() for _, c in t) | mask_of(c for _, c in trick)
    for lab, cards in (view.get("open_hands") or {}).items():
        if lab not in pos:
            away |= _mask(cards)
    away |= _mask(view.get("discards")) | _mask(view.get("played"))
    for packet in (view.get("dead") or {}).values():
        away |= _mask(packet)
    deck = deck_of(view)
    pool = deck & ~away
    for m in known.values():
        pool &= ~m
    sink = bin(pool).count("1") - sum(counts.values())
    forbidden = {h: 0 for h in list(counts) + [SINK]}
    # S6.2: failing to follow shows a void (jokers thrown in no trump prove nothing)
    for t in list(memory.tricks.values()) + [[(labels[p], c) for p, c in trick]]:
        led = next((suit[c] for _, c in t if suit[c] != JOKER_SUIT), None)
        for lab, c in t:
            p = pos.get(lab)
            if led is None or p not in forbidden or suit[c] in (led, JOKER_SUIT):
                continue
            forbidden[p] |= SUIT_MASK[led] | (_JOKERS if led == trump else 0)
    # S5: the turned card stays with the dealer; B4: a kitty seen stays with the bidder
    keepers: list[tuple[int | None, str | None]] = [] if view.get("exchange") else [(memory.trump_card, view.get("dealer"))]
    keepers += [(c, view.get("bidder")) for c in cards_of(memory.kitty)]
    for card, keeper in keepers:
        if card is None or not pool & BIT[card]:
            continue
        for h in forbidden:
            if h != SINK and labels[h] != keeper:
                forbidden[h] |= BIT[card]
    leader = trick[0][0] if trick else to_play
    won = [0, 0]
    for side_name, n in (view.get("tricks") or {}).items():
        won[_side_of(side_name, pos)] += n
    history: tuple[list[Played], ...] | None = None
    if all(t in memory.tricks for t in range(done)) and all(
            lab in pos for t in range(done) for lab, _ in memory.tricks[t]):
        history = tuple([(pos[lab], c) for lab, c in memory.tricks[t]] for t in range(done))
    return Situation(labels, actors, to_play, trick, leader, known, counts, pool, sink,
                     {h: m & pool for h, m in forbidden.items()}, trump,
                     view.get("ranking") or "uptown", won, per_hand - done, deck, history)


def _side_of(name: str, pos: dict[str | None, int]) -> int:
    """Side 0 or 1 of a tricks key: ``NS``, ``EW``, a seat, ``E+S``."""
    first = name.split("+")[0]
    if first in pos:
        return pos[first] & 1
    return 0 if name[0] in "NS" else 1


# --- constrained dealing ------------------------------------------------------

def card_classes(sit: Situation) -> list[CardClass]:
    """The pool split by the holders each card may go to: ``[(holders, cards)]``."""
    holders = sit.holders()
    groups: dict[tuple[int, ...], list[int]] = {}
    for c in cards_of(sit.pool):
        allowed = tuple(h for h in holders if not sit.forbidden[h] & BIT[c])
        groups.setdefault(allowed, []).append(c)
    return sorted((a, tuple(cs)) for a, cs in groups.items())


def _splits(n: int, caps: Caps) -> Iterator[tuple[int, ...]]:
    """Every way to put n cards into holders with room ``caps``."""
    if len(caps) == 1:
        if n <= caps[0]:
            yield (n,)
        return
    for k in range(min(n, caps[0]) + 1):
        for rest in _splits(n - k, caps[1:]):
            yield (k,) + rest


def _ways(n: int, split: tuple[int, ...]) -> int:
    out, left = 1, n
    for k in split:
        out *= comb(left, k)
        left -= k
    return out


_Table: TypeAlias = tuple[list[int], list[tuple[tuple[int, ...], Caps]]]   # (running totals, [(split, room left)])


class Dealer:
    """Uniform layouts of one situation's hidden cards (counting memoised)."""

    def __init__(self, sit: Situation):
        self.sit = sit
        self.holders = sit.holders()
        self.classes = card_classes(sit)
        self.memo: dict[tuple[int, Caps], int] = {}
        self.tables: dict[tuple[int, Caps], _Table] = {}

    def completions(self, i: int, caps: Caps) -> int:
        """Ways to deal classes i.. into exactly the room ``caps``."""
        if i == len(self.classes):
            return 0 if any(caps) else 1
        key = (i, caps)
        if key not in self.memo:
            self.memo[key] = sum(w * self.completions(i + 1, c) for _, w, c in self._options(i, caps))
        return self.memo[key]

    def _options(self, i: int, caps: Caps) -> Iterator[tuple[tuple[int, ...], int, Caps]]:
        allowed, cards = self.classes[i]
        idx = [self.holders.index(h) for h in allowed]
        for split in _splits(len(cards), tuple(caps[j] for j in idx)):
            rest = list(caps)
            for j, k in zip(idx, split):
                rest[j] -= k
            yield split, _ways(len(cards), split), tuple(rest)

    def count(self) -> int:
        return self.completions(0, self._caps())

    def _caps(self) -> Caps:
        return tuple(self.sit.capacity(h) for h in self.holders)

    def _table(self, i: int, caps: Caps) -> _Table:
        """Class i's splits for the room ``caps``, with the running total of
        the completions each leaves (memoised: a deal is then a bisection)."""
        key = (i, caps)
        table = self.tables.get(key)
        if table is None:
            running: list[int] = []
            rows: list[tuple[tuple[int, ...], Caps]] = []
            total = 0
            for split, w, rest in self._options(i, caps):
                n = w * self.completions(i + 1, rest)
                if n:
                    total += n
                    running.append(total)
                    rows.append((split, rest))
            table = self.tables[key] = (running, rows)
        return table

    def deal(self, rng: random.Random) -> Layout:
        """One layout: hidden position -> mask (and SINK -> the cards out of play)."""
        caps = self._caps()
        if self.completions(0, caps) == 0:
            raise EngineError("no layout fits what this seat knows")
        out = {h: 0 for h in self.holders}
        for i, (allowed, cards) in enumerate(self.classes):
            running, rows = self._table(i, caps)
            split, rest = rows[bisect_right(running, rng.randrange(running[-1]))]
            shuffled = list(cards)
            rng.shuffle(shuffled)
            for h, k in zip(allowed, split):
                out[h] |= mask_of(shuffled[:k])
                shuffled = shuffled[k:]
            caps = rest
        return out


def deal_layouts(sit: Situation, rng: random.Random, k: int) -> list[Layout]:
    """``k`` layouts of the hidden cards, each uniform among the consistent ones."""
    dealer = Dealer(sit)
    return [dealer.deal(rng) for _ in range(k)]


__all__ = ["SINK", "Dealer", "Memory", "Situation", "deal_layouts", "memory_of_seat_view", "read_situation",
           "table_labels"]
