"""The rules robot's calls: auctions and exchanges, from hand strength alone.

Every policy reads the seat's own cards (and the cards lying open to it) and
answers one of ``view["legal"]``; when nothing fits it takes the cheapest
legal call. Points: A 4, K 3, Q 2, J 1 (in power order, so downtown's top
cards count as honours). A hand's *playing tricks* in a denomination: its
sure-ish top cards (A 1, K 0.6 guarded, Q 0.3 with two others), in the trump
suit each card past the third, and the jokers (top trumps, B3/Y3) one each.

- bid, bid_min3 (B2, B4): a side needs 6 + level books; the bidder counts his
  playing tricks in his best strain (uptown, downtown or no trump, the best
  suit as trump), partner's expected 3 and the kitty's book, and bids the
  cheapest legal bid up to that level, else passes; the forced dealer takes
  the cheapest legal bid. Trump: the longest suit, ties on points. Ranking in
  no trump: the one the hand counts more tricks in. The kitty (B4): keep the
  twelve best cards, putting away the lowest plain cards of the shortest suits
  (never a trump or a joker while others remain).
- dummy, double_dummy (Y2, Y3): the same count for 13 tricks with the dummy
  expected to bring 3; the declarer names his best suit or ranking.
- siberian, siberian_200 (R1): call the longest suit when it has five cards
  and 6 points in it, no trump with 16 points and no suit shorter than two,
  else pass; a forced call takes the best legal denomination.
- prussian, humbug, humburg (P1-P3): keep the packet when its strength
  (points + 1.5 a trump) reaches the average packet's (about 15), else swap.
"""

import itertools
from typing import Any

from ..cards import JOKERS, NO_TRUMP, SUIT_LETTERS, card_str, parse_card, parse_suit
from ..tricks import card_power, card_suits

POINTS = {12: 4, 11: 3, 10: 2, 9: 1}           # A K Q J in power order
PARTNER_TRICKS = 3                              # a quarter of the tricks, expected
AVERAGE_PACKET = 15.0                           # 10 points + 1.5 x 3.25 trumps


def choose_call(view: dict[str, Any]) -> str:
    legal: list[str] = view["legal"]
    first = legal[0]
    cards = [parse_card(c) for c in view.get("hand", [])]
    if set(legal) <= {"keep", "swap"}:
        return _keep_or_swap(view, cards, legal)
    if first.startswith("discard"):
        return _discard(view, legal)
    if all(c.startswith("trump ") for c in legal):
        return "trump " + SUIT_LETTERS[_best_suit(cards)]
    if set(legal) <= {"uptown", "downtown"}:
        return max(legal, key=lambda r: _tricks(cards, NO_TRUMP, r))
    if any(c[0].isdigit() for c in legal):
        return _bid(view, cards, legal)
    return _siberian(cards, legal)


def _tricks(cards: list[int], trump: int, ranking: str = "uptown") -> float:
    """Playing tricks of a hand in a denomination (see the module's doc)."""
    power, suit = card_power(ranking, trump), card_suits(trump)
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(suit[c], []).append(power[c])
    total = 0.0
    for s, powers in by_suit.items():
        powers.sort(reverse=True)
        n = len(powers)
        if s == trump and trump != NO_TRUMP:
            total += sum(1 for p in powers if p >= 13) + sum(1 for p in powers[:3] if p in (12, 11))
            total += max(0, n - 3)
            continue
        if 12 in powers:
            total += 1
        if 11 in powers and n >= 2:
            total += 0.6
        if 10 in powers and n >= 3:
            total += 0.3
        if trump == NO_TRUMP and n >= 5 and powers[0] >= 10:
            total += n - 4                              # a long suit runs in no trump
    return total


def _best_suit(cards: list[int]) -> int:
    def weight(s: int) -> tuple[int, int, int]:
        mine = [c for c in cards if c < 52 and c // 13 == s]
        return (len(mine), sum(POINTS.get(c % 13, 0) for c in mine), -s)
    return max(range(4), key=weight)


def _points(cards: list[int]) -> int:
    return sum(POINTS.get(c % 13, 0) for c in cards if c < 52)


def _bid(view: dict[str, Any], cards: list[int], legal: list[str]) -> str:
    bids = [c for c in legal if c != "pass"]
    trump = _best_suit(cards)
    strains = {"uptown": _tricks(cards, trump, "uptown"), "downtown": _tricks(cards, trump, "downtown"),
               "NT": max(_tricks(cards, NO_TRUMP, r) for r in ("uptown", "downtown"))}
    kitty = 1 if "kitty" in view else 0                 # B4: the kitty is a book
    level_of = {s: int(t + PARTNER_TRICKS + kitty) - 6 for s, t in strains.items()}
    fits = [b for b in bids if int(b.split()[0]) <= level_of[b.split()[1]]]
    if fits:
        return fits[0]                                  # the cheapest bid the hand is worth
    if "pass" in legal:
        return "pass"
    return bids[0]                                      # forced dealer (B2): the cheapest


def _siberian(cards: list[int], legal: list[str]) -> str:
    trump = _best_suit(cards)
    mine = [c for c in cards if c // 13 == trump]
    lengths = [sum(1 for c in cards if c // 13 == s) for s in range(4)]
    wanted: list[str] = []
    if _points(cards) >= 16 and min(lengths) >= 2:
        wanted.append("NT")
    if len(mine) >= 5 and _points(mine) >= 6:
        wanted.append(SUIT_LETTERS[trump])
    for call in wanted:
        if call in legal:
            return call
    if "pass" in legal:
        return "pass"
    ranked = sorted((c for c in legal if c != "pass"),
                    key=lambda c: -_tricks(cards, parse_suit(c)))
    return ranked[0]


def _keep_or_swap(view: dict[str, Any], cards: list[int], legal: list[str]) -> str:
    trump = view.get("trump")
    trumps = 0 if trump in (None, "NT") else sum(1 for c in cards if c // 13 == parse_suit(trump))
    strength = _points(cards) + 1.5 * trumps
    return "keep" if strength >= AVERAGE_PACKET or "swap" not in legal else "swap"


def _discard(view: dict[str, Any], legal: list[str]) -> str:
    """Put away the least useful cards (B4, Y1): the lowest plain cards of the
    shortest suits, never a trump or joker while anything else remains."""
    count = len(legal[0].split()) - 1
    pool = sorted({c for text in itertools.islice(legal, 4096) for c in text.split()[1:]})
    trump = NO_TRUMP if view.get("trump") in (None, "NT") else parse_suit(view["trump"])
    cards = [parse_card(c) for c in pool]
    length = {s: sum(1 for c in cards if c < 52 and c // 13 == s) for s in range(4)}

    def keep_value(c: int) -> tuple[int, ...]:
        if c in JOKERS or c // 13 == trump:
            return (2, c % 13)
        return (1 if c % 13 >= 9 else 0, length[c // 13], c % 13)

    chosen = sorted(cards, key=keep_value)[:count]
    text = "discard " + " ".join(card_str(c) for c in sorted(chosen))
    return text if text in legal else legal[0]
