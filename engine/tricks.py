"""Tricks for every deck, table and ranking: the play core of the variants.

``HandState`` (play.py) is the bitboard core of plain four-handed whist and stays
the fast path. ``TrickPlay`` plays the same rules (S6.1-S6.5) where that core
cannot: two-card tricks (P1, P2), the jokers and the downtown ranking of bid and
dummy whist (B3, Y3), three players with a dummy (L12, Y3). Seats are positions
0-3 clockwise (N E S W); ``seats`` lists those that hold cards in play.
Hypothesis checks both cores agree on plain whist.
"""

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Self

from .actions import SUIT_ACTIONS, Action, card_tuple
from .cards import BIT, JOKER_SUIT, LITTLE_JOKER, BIG_JOKER, NO_TRUMP, SUIT_MASK, SUIT_OF, cards_of
from .play import MUST_FOLLOW_SUIT, NOT_IN_HAND, IllegalPlay
from .views import Played

UPTOWN_POWER = tuple(range(13))                             # B3: 2 low .. A
DOWNTOWN_POWER = tuple(12 if r == 12 else 11 - r for r in range(13))  # B3: K low .. 2, A
_JOKERS = BIT[LITTLE_JOKER] | BIT[BIG_JOKER]
_CARDS = range(54)


@cache
def card_power(ranking: str, trump: int) -> tuple[int, ...]:
    """Power of each card of the 54 in one ranking; the jokers top the trumps
    (B3, Y3); in no trump they are worth nothing."""
    ranks = DOWNTOWN_POWER if ranking == "downtown" else UPTOWN_POWER
    power = [ranks[c % 13] for c in range(52)]
    joker = (20, 21) if trump != NO_TRUMP else (-1, -1)
    return tuple(power) + joker


@cache
def card_keys(ranking: str, trump: int) -> tuple[int, ...]:
    """What each card is worth to a trick (S6.4, B3): a trump above any card
    of the suit led, then by power; the key of a card neither trump nor of
    the suit led is not asked (it is worth nothing)."""
    power, suits = card_power(ranking, trump), card_suits(trump)
    return tuple((65 if suits[c] == trump else 33) + power[c] for c in range(54))


@cache
def _tables(ranking: str, trump: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """card_power, card_suits and card_keys of a hand, in one lookup (one a hand)."""
    return card_power(ranking, trump), card_suits(trump), card_keys(ranking, trump)


@cache
def card_suits(trump: int) -> tuple[int, ...]:
    """The suit each card follows as: jokers are trumps in a trump game (B3)
    and a suit of their own in no trump."""
    joker = trump if trump != NO_TRUMP else JOKER_SUIT
    return tuple(c // 13 for c in range(52)) + (joker, joker)


class TrickPlay:
    """One hand's tricks. ``hands`` are four masks by position (0 where no one
    holds cards); the trick is complete when every seat in play has played."""


    __slots__ = ("seats", "size", "hands", "deal_hands", "trump", "ranking", "power", "suit",
                 "turn", "trick", "winners", "plays", "won", "first_leader", "_next",
                 "keys", "led", "best", "best_seat", "_own_legality")

    def __init__(self, hands: Iterable[int], seats: Iterable[int], leader: int, trump: int,
                 ranking: str = "uptown") -> None:
        self.seats = tuple(seats)
        self.size = len(self.seats)        # players to a trick
        self.deal_hands = tuple(hands)
        self.hands = list(self.deal_hands)
        self.trump, self.ranking = trump, ranking
        self.power, self.suit, self.keys = _tables(ranking, trump)
        self.turn = self.first_leader = leader
        self.trick: list[Played] = []        # (seat, card) of the trick in progress
        self.winners: list[int] = []
        self.plays: list[int] = []
        self.won = [0, 0, 0, 0]        # tricks by position
        self._next = _next_seats(self.seats)
        # the trick so far, kept as it is played: the suit to follow (None before a card
        # sets one), the winning card's key (0: none yet; see play) and its seat
        self.led: int | None = None
        self.best, self.best_seat = 0, leader
        self._own_legality = False     # True where a subclass's legal_mask adds rules: play asks it


    @property
    def tricks_in_hand(self) -> int:
        return bin(self.deal_hands[self.seats[0]]).count("1")

    @property
    def complete(self) -> bool:
        return not self.hands[self.seats[0]] and not self.trick

    @property
    def to_play(self) -> int | None:
        return None if self.complete else self.turn

    def led_suit(self) -> int | None:
        """The suit to follow now: ``led_suit_of(self.trick)``, kept as the trick is played."""
        return self.led

    def follow_mask(self, hand: int, suit: int) -> int:
        """The cards of ``hand`` that follow ``suit`` (jokers follow trumps)."""
        mask = hand & SUIT_MASK[suit]
        if suit == self.trump:
            mask |= hand & _JOKERS
        return mask

    def legal_mask(self) -> int:
        hand = self.hands[self.turn]
        led = self.led
        if led is not None:
            follow = hand & SUIT_MASK[led]
            if led == self.trump:
                follow |= hand & _JOKERS        # jokers follow trumps (B3)
            if follow:
                return follow                   # S6.2
        return hand                             # S6.1, S6.3

    def legal_moves(self) -> tuple[int, ...]:
        return () if self.complete else cards_of(self.legal_mask())

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal cards as the game state's actions (its hot path):
        ``tuple(play(c) for c in self.legal_moves())`` while the hand is on, a suit's shared."""
        if self._own_legality:
            return card_tuple(self.legal_mask())
        hand = self.hands[self.turn]
        led = self.led
        if led is not None:
            if led != self.trump or not hand & _JOKERS:
                follow = hand >> 13 * led & 0x1FFF
                if follow:                      # S6.2, one suit
                    return SUIT_ACTIONS[led][follow]
            else:                               # trumps led, jokers held: they follow too
                return card_tuple(hand & SUIT_MASK[led] | hand & _JOKERS)
        if hand >> 52:
            return card_tuple(hand)
        s, h, d, c = SUIT_ACTIONS               # card_tuple(hand), inline: a lead or a void, no joker
        return s[hand & 0x1FFF] + h[hand >> 13 & 0x1FFF] + d[hand >> 26 & 0x1FFF] + c[hand >> 39]

    def play(self, card: int) -> bool:
        seat = self.turn
        hands = self.hands
        hand = hands[seat]
        bit = _BIT_OF.get(card)                 # None: not a card of the 54
        if bit is None or not hand & bit:
            raise IllegalPlay(NOT_IN_HAND, seat, card if card in _CARDS else 0, len(self.plays))
        led = self.led
        suit = self.suit[card]
        if self._own_legality:
            if not self.legal_mask() & bit:
                raise self._refusal(card)
        elif led is not None and suit != led:   # legal_mask, inline: a card not following is
            follow = hand & SUIT_MASK[led]      # legal only with none that follows (jokers
            if led == self.trump:               # follow trumps)
                follow |= hand & _JOKERS
            if follow:
                raise IllegalPlay(MUST_FOLLOW_SUIT, seat, card, len(self.plays), led=led)
        hands[seat] = hand ^ bit
        self.plays.append(card)
        trick = self.trick
        trick.append((seat, card))
        # S6.4 as trick_winner says, one card at a time (card_keys); a card before the
        # first to set the suit is a joker of no trump, worth nothing whatever follows
        if led is None:
            if suit != JOKER_SUIT:
                self.led = led = suit
        if suit == led or suit == self.trump:
            key = self.keys[card]
            if key > self.best:
                self.best, self.best_seat = key, seat
        if len(trick) < self.size:
            self.turn = self._next[seat]
            return False
        winner = self.best_seat                 # the trick is full: its winner takes it and leads
        self.won[winner] += 1
        self.winners.append(winner)
        self.turn, self.trick = winner, []      # S6.5
        self.led, self.best = None, 0
        return not hands[winner]                # the last trick: every hand is empty

    def _refusal(self, card: int) -> IllegalPlay:
        """Why a held card is not among those ``legal_mask`` allows (a subclass
        whose rules add refusals says its own)."""
        return IllegalPlay(MUST_FOLLOW_SUIT, self.turn, card, len(self.plays), led=self.led)

    def trick_winner(self, trick: Sequence[Played]) -> int:
        """The highest trump, else the highest card of the suit led (S6.4);
        jokers are top trumps, and worth nothing in no trump (B3)."""
        led = self.led_suit_of(trick)
        best: tuple[tuple[int, int], int] | None = None
        for seat, card in trick:
            suit = self.suit[card]
            key = (2 if suit == self.trump else 1 if suit == led else 0, self.power[card])
            if key[0] and (best is None or key > best[0]):
                best = (key, seat)
        return trick[0][0] if best is None else best[1]

    def led_suit_of(self, trick: Iterable[Played]) -> int | None:
        """The suit to follow: the first card's, or in no trump the first
        card that is not a joker (a joker led in no trump sets no suit)."""
        for _, card in trick:
            if self.suit[card] != JOKER_SUIT:
                return self.suit[card]
        return None

    def current_trick(self) -> list[Played]:
        return list(self.trick)

    def completed_trick(self, number: int) -> tuple[int, list[Played], int]:
        """``(leader, [(seat, card), ...], winner)`` of a completed trick."""
        n = len(self.seats)
        leader = self.first_leader if number == 0 else self.winners[number - 1]
        cards: list[Played] = []
        seat = leader
        for card in self.plays[n * number:n * number + n]:
            cards.append((seat, card))
            seat = self._next[seat]
        return leader, cards, self.winners[number]

    def played_mask(self) -> int:
        m = 0
        for c in self.plays:
            m |= BIT[c]
        return m

    def copy(self) -> Self:
        new = type(self).__new__(type(self))    # PlainTricks copies as itself
        for name in ("seats", "size", "deal_hands", "trump", "ranking", "power", "suit", "keys",
                     "turn", "first_leader", "_next", "led", "best", "best_seat", "_own_legality"):
            setattr(new, name, getattr(self, name))
        new.hands, new.trick, new.winners = self.hands[:], self.trick[:], self.winners[:]
        new.plays, new.won = self.plays[:], self.won[:]
        return new

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self.copy()          # ints, and lists and tuples of ints


class PlainTricks(TrickPlay):
    """TrickPlay for a deal without jokers (Siberian, three- and two-handed, dummy
    and Prussian whist): the same rules and the same state card for card (the
    hypothesis test checks it), in fewer steps, as nothing is led or followed
    but a suit: the game state's hot path in those variants. ``trick_play``
    picks it."""

    __slots__ = ()

    def legal_actions(self) -> tuple[Action, ...]:
        hand = self.hands[self.turn]
        led = self.led
        if led is not None:
            follow = hand >> 13 * led & 0x1FFF
            if follow:                          # S6.2
                return SUIT_ACTIONS[led][follow]
        s, h, d, c = SUIT_ACTIONS               # card_tuple(hand), inline: a lead or a void
        return s[hand & 0x1FFF] + h[hand >> 13 & 0x1FFF] + d[hand >> 26 & 0x1FFF] + c[hand >> 39]

    def play(self, card: int) -> bool:
        seat = self.turn
        hands = self.hands
        hand = hands[seat]
        bit = _BIT_OF.get(card)                 # None: not a card of the 54
        if bit is None or not hand & bit:
            raise IllegalPlay(NOT_IN_HAND, seat, card if card in _CARDS else 0, len(self.plays))
        led = self.led
        suit = SUIT_OF[card]
        if led is None:                         # S6.1: the lead sets the suit and wins so far
            self.led = suit
            self.best, self.best_seat = self.keys[card], seat
        elif suit == led:                       # S6.4 as TrickPlay.play, by card_keys
            key = self.keys[card]
            if key > self.best:
                self.best, self.best_seat = key, seat
        elif hand & SUIT_MASK[led]:
            raise IllegalPlay(MUST_FOLLOW_SUIT, seat, card, len(self.plays), led=led)   # S6.2
        elif suit == self.trump:
            key = self.keys[card]
            if key > self.best:
                self.best, self.best_seat = key, seat
        hands[seat] = hand ^ bit
        self.plays.append(card)
        trick = self.trick
        trick.append((seat, card))
        if len(trick) < self.size:
            self.turn = self._next[seat]
            return False
        winner = self.best_seat                 # as TrickPlay.play closes a trick
        self.won[winner] += 1
        self.winners.append(winner)
        self.turn, self.trick = winner, []      # S6.5
        self.led, self.best = None, 0
        return not hands[winner]


def trick_play(hands: Iterable[int], seats: Iterable[int], leader: int, trump: int,
               ranking: str = "uptown") -> TrickPlay:
    """The trick core of a hand: ``PlainTricks`` where no joker is dealt, else
    ``TrickPlay`` (the jokers' rules, B3, Y3)."""
    dealt = tuple(hands)
    for held in dealt:
        if held >> 52:
            return TrickPlay(dealt, seats, leader, trump, ranking)
    return PlainTricks(dealt, seats, leader, trump, ranking)


_BIT_OF = dict(enumerate(BIT))      # a card's bit; None for anything not a card
_NEXT: dict[tuple[int, ...], tuple[int, ...]] = {}


def _next_seats(seats: tuple[int, ...]) -> tuple[int, ...]:
    """Who plays after whom, by position (clockwise among ``seats``; a position
    out of play has the next in play), made once for each table."""
    found = _NEXT.get(seats)
    if found is None:
        after = {s: seats[(i + 1) % len(seats)] for i, s in enumerate(seats)}
        found = _NEXT[seats] = tuple(after.get(p, next((s for s in seats if s > p), seats[0])) for p in range(4))
    return found
