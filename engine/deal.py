"""Shuffle, cut, deal and trump (rules S3-S5, D2) and cutting for partners (L1)."""

import random
import secrets
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from .cards import BIT, NO_TRUMP, SUIT_OF, parse_suit
from .errors import EngineError
from .rules import SHORT, Ruleset
from .seats import SEATS



def seat_index(text: str) -> int:
    return SEATS.index(text.strip().upper())


def left_of(seat: int) -> int:
    return (seat + 1) & 3


def side_of(seat: int) -> int:
    """0 for N-S, 1 for E-W."""
    return seat & 1


def new_rng(seed: int | str | None = None) -> random.Random:
    """A replayable generator for a seed, else a cryptographically strong one (S4)."""
    return secrets.SystemRandom() if seed is None else random.Random(seed)


@dataclass(frozen=True, slots=True)
class Deal:
    dealer: int
    hands: tuple[int, ...]  # four 52-bit masks, indexed by seat
    trump: int            # a suit 0-3, or NO_TRUMP
    trump_card: int | None  # the dealer's turned 52nd card (S5), None if trump is not turned


_SWAPS = tuple((i, i + 1) for i in range(51, 0, -1))


def shuffled_deck(rng: random.Random) -> list[int]:
    """Fisher-Yates with one float a card: a third faster than
    ``rng.shuffle`` (the bias of a 53-bit float is below 2**-47)."""
    deck = list(range(52))
    rnd = rng.random
    for i, n in _SWAPS:
        j = int(rnd() * n)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


_BITS = BIT[:52]


def dealt_masks(rng: random.Random, dealer: int) -> tuple[tuple[int, ...], int]:
    """The hands (masks by seat) and the dealer's last card of ``deal()``'s
    shuffle, cut and deal (S4, S5), its very draws, on the cards' bits: a
    hand is then the sum of its thirteen, with no card looked up (a game
    state deals a hand a playout)."""
    bits = list(_BITS)
    rnd = rng.random
    for i, n in _SWAPS:                          # shuffled_deck's loop: the same swaps
        j = int(rnd() * n)
        bits[i], bits[j] = bits[j], bits[i]
    at = 6 + rng.randrange(41)                   # cut(): six cards at least in each packet
    bits = bits[at:] + bits[:at]
    hands = [0, 0, 0, 0]
    for k in range(4):
        hands[(dealer + 1 + k) & 3] = sum(bits[k::4])
    return tuple(hands), bits[51].bit_length() - 1


def shuffled_jokers(rng: random.Random) -> list[int]:
    """The 54 cards shuffled by ``rng.shuffle`` (bid and dummy whist's pack, B1, Y1):
    its very draws, so a seed deals what it always dealt, without its call a
    card. Its loop is ``random.Random``'s (``_randbelow`` by ``getrandbits``); a
    generator of another kind shuffles as it does itself."""
    deck = list(range(54))
    if type(rng) is not random.Random:
        rng.shuffle(deck)
        return deck
    bits = rng.getrandbits
    for i, n, k in _JOKER_DRAWS:
        j = bits(k)
        while j >= n:
            j = bits(k)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


_JOKER_DRAWS = tuple((i, i + 1, (i + 1).bit_length()) for i in range(53, 0, -1))


def cut(deck: list[int], at: int) -> list[int]:
    """The right of the dealer lifts ``at`` cards off the top (S4); seed 001
    asks for at least six cards in the cut, so we keep six in each packet."""
    if not 6 <= at <= 46:
        raise EngineError("a cut leaves at least six cards in each packet")
    return deck[at:] + deck[:at]


def deal_hands(deck: list[int], dealer: int) -> tuple[int, ...]:
    """One card at a time, clockwise from the dealer's left (S5): card i goes to
    seat dealer+1+i, so the 52nd card is the dealer's."""
    hands = [0, 0, 0, 0]
    for k in range(4):
        hands[(dealer + 1 + k) & 3] = sum(map(BIT.__getitem__, deck[k::4]))
    return tuple(hands)


def trump_for_hand(rules: Ruleset, hand_number: int, turned_card: int | None) -> int:
    """Trump of a hand: the turned card's suit (S5), the evening rotation
    counted from hand 0 (D2), a fixed suit, or none (L11)."""
    if rules.trump == "turned":
        if turned_card is None:
            raise EngineError("a turned trump needs the card turned (S5)")
        return SUIT_OF[turned_card]
    if rules.trump == "rotation":
        return parse_suit(rules.rotation[hand_number % len(rules.rotation)])
    if rules.trump == "fixed":
        return parse_suit(rules.fixed_suit)
    return NO_TRUMP


def deal(dealer: int, rng: random.Random, rules: Ruleset = SHORT, hand_number: int = 0) -> Deal:
    """Shuffle, cut at a random point, deal, and fix trump for the hand."""
    deck = cut(shuffled_deck(rng), 6 + rng.randrange(41))
    hands = deal_hands(deck, dealer)
    turned = deck[51] if rules.trump == "turned" else None
    return Deal(dealer, hands, trump_for_hand(rules, hand_number, turned), turned)


def first_dealer(rng: random.Random) -> int:
    """The first dealer is chosen at random (S3)."""
    return rng.randrange(4)


def next_dealer(dealer: int) -> int:
    """After every hand the deal passes to the left (S3, S7.3)."""
    return left_of(dealer)


@dataclass(frozen=True)
class PartnerCut:
    """Result of cutting for partners (L1): ``order`` is lowest first."""
    order: tuple[Hashable, ...]         # players, lowest cut first
    draws: dict[Hashable, list[int]]    # player -> list of cards drawn (more than one after a tie)

    @property
    def dealer(self) -> Hashable:
        """The lowest card deals first and chooses the seat."""
        return self.order[0]

    @property
    def pairs(self) -> tuple[tuple[Hashable, Hashable], tuple[Hashable, Hashable]]:
        """The two lowest play the two highest."""
        return (self.order[0], self.order[1]), (self.order[2], self.order[3])


def cut_rank(card: int) -> int:
    """For cutting only the ace is low (L1): ace 0, two 1 ... king 12."""
    return (card % 13 + 1) % 13


def cut_for_partners(players: Iterable[Hashable], rng: random.Random) -> PartnerCut:
    """Each player draws a card; equal ranks draw again to settle their order (L1)."""
    deck = shuffled_deck(rng)
    tied = list(players)
    draws: dict[Hashable, list[int]] = {p: [] for p in tied}
    while tied:
        for p in tied:
            draws[p].append(deck.pop())
        tied = _tied_players(draws)
    key = lambda p: [cut_rank(c) for c in draws[p]]  # noqa: E731 - redraws only break ties
    return PartnerCut(tuple(sorted(draws, key=key)), draws)


def _tied_players(draws: dict[Hashable, list[int]]) -> list[Hashable]:
    keys: dict[tuple[int, ...], list[Hashable]] = {}
    for p, cards in draws.items():
        keys.setdefault(tuple(cut_rank(c) for c in cards), []).append(p)
    return [p for group in keys.values() if len(group) > 1 for p in group]
