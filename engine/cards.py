"""Cards and hands as integers.

A card is an int 0-51: ``suit * 13 + rank``, suits in the order S, H, D, C and
ranks 0 (the two) to 12 (the ace); 52 and 53 are the little and big jokers of
bid and dummy whist (B1, Y1), written ``LJ`` and ``BJ``. A hand is a 52-bit int with bit ``card``
set, so each suit is a 13-bit block in the same order a double-dummy solver
uses (rule S2: A K Q J 10 9 8 7 6 5 4 3 2, high to low).
"""

from collections.abc import Callable, Iterable
from enum import IntEnum
from typing import TypeAlias, TypeVar

from .errors import EngineError


Card: TypeAlias = int  # 0-53, see above
Hand: TypeAlias = int  # a mask of cards
T = TypeVar("T")


class Suit(IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3


NO_TRUMP = 4  # a denomination, not a suit: no card is ever of it (rule L11)
JOKER_SUIT = 5  # the jokers' suit where they are not trumps (B3: no trump)
LITTLE_JOKER, BIG_JOKER = 52, 53  # bid and dummy whist's 54-card pack (B1, Y1)
JOKERS = (LITTLE_JOKER, BIG_JOKER)

SUIT_LETTERS = "SHDC"
RANK_LETTERS = "23456789TJQKA"
TWO, TEN, JACK, QUEEN, KING, ACE = 0, 8, 9, 10, 11, 12

BIT = tuple(1 << c for c in range(54))
SUIT_OF = tuple(c // 13 for c in range(52)) + (JOKER_SUIT, JOKER_SUIT)
SUIT_MASK = tuple(0x1FFF << (13 * s) for s in range(4))
FULL_DECK = (1 << 52) - 1
JOKER_DECK = FULL_DECK | BIT[LITTLE_JOKER] | BIT[BIG_JOKER]
_JOKER_CARDS: tuple[tuple[int, ...], ...] = ((), (LITTLE_JOKER,), (BIG_JOKER,), JOKERS)
_JOKER_TEXT = ("LJ", "BJ")


def holding_table(suit: int, of_card: "Callable[[int], T]") -> tuple[tuple[T, ...], ...]:
    """``of_card`` of the cards of every 13-bit holding of a suit, ascending:
    turns a mask into cards (their texts, their actions) without a bit loop, the
    hot path of legal moves. Made whole by doubling (holdings with bit ``rank``
    set extend those below it): about a millisecond a suit."""
    table: list[tuple[T, ...]] = [()]
    for rank in range(13):
        one = (of_card(13 * suit + rank),)
        table += [made + one for made in table]
    return tuple(table)


HOLDING_CARDS = tuple(holding_table(s, int) for s in range(4))

_SYMBOLS = "♠♥♦♣"
_RANK_NAMES = {
    "en": ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"),
    "ru": ("2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К", "Т"),
    "uk": ("2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К", "Т"),
}
_JOKER_NAMES = {"en": ("little joker", "big joker"), "ru": ("малый джокер", "большой джокер"),
                "uk": ("малий джокер", "великий джокер")}
_SUIT_NAMES = {
    "en": ("spades", "hearts", "diamonds", "clubs", "no trump"),
    "ru": ("пики", "черви", "бубны", "трефы", "без козыря"),
    "uk": ("піки", "черви", "бубни", "трефи", "без козиря"),
}
_PARSE_SUIT = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3}
_PARSE_RANK = {ch: r for r, ch in enumerate(RANK_LETTERS)} | {"10": TEN}


class CardError(EngineError):
    """Text that is not a card (``AS``, ``TD``, ``10D``; any case)."""


def make_card(suit: int, rank: int) -> int:
    return suit * 13 + rank


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def parse_card(text: str) -> int:
    """``"AS"`` -> 12; accepts ``T`` or ``10``, any case, suit symbols."""
    if not isinstance(text, str):
        raise CardError(f"not a card: {text!r}")
    t = text.strip().upper()
    if t in _JOKER_TEXT:
        return LITTLE_JOKER + _JOKER_TEXT.index(t)
    rank = _PARSE_RANK.get(t[:-1])
    suit = _PARSE_SUIT.get(t[-1:])
    if rank is None or suit is None:
        raise CardError(f"not a card: {text!r}")
    return suit * 13 + rank


def card_str(card: int) -> str:
    """12 -> ``"AS"``: rank letter then suit letter, ten as ``T``; ``LJ``, ``BJ``."""
    if card >= LITTLE_JOKER:
        return _JOKER_TEXT[card - LITTLE_JOKER]
    return RANK_LETTERS[card % 13] + SUIT_LETTERS[card // 13]


CARD_TEXT = tuple(card_str(c) for c in range(54))   # card_str of every card, looked up
# the texts of each 13-bit holding of each suit (a deal record's packets are four lookups)
_S_TEXT, _H_TEXT, _D_TEXT, _C_TEXT = (holding_table(s, CARD_TEXT.__getitem__) for s in range(4))
_JOKERS_TEXT = ((), ("LJ",), ("BJ",), ("LJ", "BJ"))


def cards_text(mask: int) -> list[str]:
    """The texts of a mask's cards, ascending (a deal record's packet):
    ``[card_str(c) for c in cards_of(mask)]``, looked up a suit at a time."""
    s, h = _S_TEXT[mask & 0x1FFF], _H_TEXT[mask >> 13 & 0x1FFF]
    d, c = _D_TEXT[mask >> 26 & 0x1FFF], _C_TEXT[mask >> 39 & 0x1FFF]
    if mask >> 52:
        return [*s, *h, *d, *c, *_JOKERS_TEXT[mask >> 52 & 3]]
    return [*s, *h, *d, *c]


def parse_suit(text: object) -> int:
    """``"H"`` -> 1, ``"NT"`` -> NO_TRUMP."""
    t = str(text).strip().upper()
    if t in ("NT", "N"):
        return NO_TRUMP
    if t in _PARSE_SUIT:
        return _PARSE_SUIT[t]
    raise CardError(f"not a suit: {text!r}")


def suit_str(suit: int) -> str:
    return "NT" if suit == NO_TRUMP else SUIT_LETTERS[suit]


def card_name(card: int, lang: str = "en") -> str:
    """Display form: ``A♠`` in English, ``Т♠`` in Russian and Ukrainian."""
    if card >= LITTLE_JOKER:
        return _JOKER_NAMES[lang][card - LITTLE_JOKER]
    return _RANK_NAMES[lang][card % 13] + _SYMBOLS[card // 13]


def suit_name(suit: int, lang: str = "en") -> str:
    return _SUIT_NAMES[lang][suit]


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= BIT[c]
    return m


def cards_of(mask: int) -> tuple[int, ...]:
    """Cards of a mask in ascending order (S 2..A, then H, D, C, the jokers)."""
    h = HOLDING_CARDS
    return (h[0][mask & 0x1FFF] + h[1][mask >> 13 & 0x1FFF]
            + h[2][mask >> 26 & 0x1FFF] + h[3][mask >> 39 & 0x1FFF] + _JOKER_CARDS[mask >> 52])


def suit_cards(mask: int, suit: int) -> tuple[int, ...]:
    return HOLDING_CARDS[suit][mask >> (13 * suit) & 0x1FFF]


def holding(mask: int, suit: int) -> int:
    """The 13-bit holding of one suit (bit 0 the two, bit 12 the ace)."""
    return mask >> (13 * suit) & 0x1FFF


def hand_str(mask: int) -> str:
    """``"AKQ.T98.-.32"``: suits S.H.D.C, high to low (PBN-like)."""
    return ".".join(
        "".join(RANK_LETTERS[c % 13] for c in reversed(suit_cards(mask, s))) or "-"
        for s in range(4)
    )
