"""The rules robot's card for plain four-handed whist, on bit masks.

It reads only a seat's view (``SeatView`` of engine/views.py, or the
``LiveView`` the match keeps up to date in place): its own hand, the trick in
progress, the cards played, the last trick. What it remembers between its
turns (voids shown, partner's first discard and leads) comes from those views.
Seats 0-3 are N E S W; partner is ``seat ^ 2``. Cards: engine/cards.py.
"""

from collections.abc import Sequence

from ..cards import FULL_DECK, SUIT_MASK
from ..views import CardView, Seen
from .advice import (BOTH_OPPONENTS_VOID, HONOUR, KEEP_VALUE, LEAD_RANK, LEAD_STRENGTH, MASTER_BONUS,
                     NO_TRUMP_LEAD, ONE_OPPONENT_VOID, PARTNER_SUIT, PARTNER_WEAK, TRUMP_LEAD)

_BELOW = tuple((1 << c) - 1 for c in range(53))     # every card lower than c (any suit)


class Memory:
    """What one seat has seen of the hand so far."""

    __slots__ = ("done", "voids", "partner_weak", "partner_led")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget the hand: a new one is dealt."""
        self.done = 0                   # completed tricks already read
        self.voids = [0, 0, 0, 0]       # by seat: bit s set when the seat showed out of suit s
        self.partner_weak = -1          # the suit of partner's first discard (N8)
        self.partner_led = 0            # bit s set when partner led suit s (N16)

    def read(self, seat: int, trump: int, quitted: Sequence[Seen], done: int) -> None:
        """Take in the completed tricks not yet read (the view's last ones)."""
        first = done - len(quitted)
        partner = seat ^ 2
        for i, (leader, cards, _winner) in enumerate(quitted):
            if first + i < self.done:
                continue
            led = cards[0] // 13
            if leader == partner:
                self.partner_led |= 1 << led
            for k in (1, 2, 3):
                suit = cards[k] // 13
                if suit != led:
                    who = (leader + k) & 3
                    self.voids[who] |= 1 << led
                    if who == partner and self.partner_weak < 0 and suit != trump:
                        self.partner_weak = suit      # seed 001, necessary rule 8
        self.done = done


def _remember(view: CardView, memory: Memory) -> None:
    """Read the tricks completed since this seat last looked. A view with the
    whole history (``LiveView``, or ``HandState.view(seat, look_back=13)``) is
    read only when the robot needs it; one with the last trick only is read at
    every turn, and what it did not show is not known."""
    quitted = view.quitted_tricks
    done = view.played.bit_count() >> 2
    if done < memory.done:
        memory.reset()                                 # a new hand
    if done > memory.done:
        memory.read(view.seat, view.trump, quitted, done)


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def lowest_equal(card: int, hand: int, gone: int) -> int:
    """The cheapest card of ``hand`` worth as much as ``card``: cards between
    them all played (seed 001, necessary rule 15: play the lower of equals)."""
    floor = card - card % 13
    c = card - 1
    while c >= floor:
        bit = 1 << c
        if hand & bit:
            card = c
        elif not gone & bit:
            break
        c -= 1
    return card


def choose_card(view: CardView, memory: Memory) -> int:
    """The card for ``view.seat`` to play now (it must be that seat's turn)."""
    hand, trick, trump, seat = view.hand, view.current_trick, view.trump, view.seat
    if len(view.quitted_tricks) == 1:
        _remember(view, memory)                        # a view of the last trick only: read it now
    n = len(trick)
    if n:
        led = trick[0][1] // 13
        follow = hand & SUIT_MASK[led]
        legal = follow or hand
    else:
        legal = follow = hand
    if not legal & (legal - 1):
        return legal.bit_length() - 1                  # one card: no choice
    played = view.played
    unseen = FULL_DECK ^ (played | hand)               # cards the others may hold
    if not n:
        _remember(view, memory)
        return _lead(hand, seat, trump, unseen, memory)
    best_seat, best = trick[0]
    for s, c in trick[1:]:
        if c // 13 == best // 13:
            if c > best:
                best_seat, best = s, c
        elif c // 13 == trump:
            best_seat, best = s, c
    best_suit = best // 13
    partner_wins = best_seat == seat ^ 2
    if follow:
        return _follow(follow, n, led, best, best_suit, partner_wins, unseen, played)
    _remember(view, memory)
    return _void(hand, n, led, trump, best, best_suit, partner_wins, unseen, memory, seat)


def _follow(follow: int, n: int, led: int, best: int, best_suit: int, partner_wins: bool, unseen: int,
            played: int) -> int:
    if best_suit != led:
        return lowest(follow)                          # trumped already: keep the cards
    above = follow & ~_BELOW[best + 1]
    if partner_wins:
        if n == 3 or not unseen & SUIT_MASK[led] & ~_BELOW[best + 1]:
            return lowest(follow)                      # seed 001, additional rule 4: do not overtake partner
    if not above:
        return lowest(follow)
    if n == 1:                                         # second hand low ...
        if best % 13 >= HONOUR:
            return lowest_equal(lowest(above), follow, played)  # ... but cover an honour (N15)
        return lowest(follow)
    if n == 2:                                         # third hand high (A2), the lower of equals (N15)
        return lowest_equal(highest(follow), follow, played)
    return lowest(above)                               # fourth hand: win as cheaply as can be


def _void(hand: int, n: int, led: int, trump: int, best: int, best_suit: int, partner_wins: bool,
          unseen: int, memory: Memory, seat: int) -> int:
    trumps = hand & SUIT_MASK[trump] if trump < 4 else 0
    if partner_wins and (n == 3 or (best_suit == led and not memory.voids[(seat + 1) & 3] >> led & 1
                                    and not unseen & SUIT_MASK[led] & ~_BELOW[best + 1])):
        return _discard(hand, trump)                   # seed 001, additional rule 4; necessary rule 11
    if trumps and led != trump:
        if best_suit == trump:
            over = trumps & ~_BELOW[best + 1]
            if over and not partner_wins:
                return lowest(over)                    # over-ruff low (additional rule 8: not the top trump)
            return _discard(hand, trump)
        return lowest(trumps)                          # seed 001, necessary rule 3: ruff the opponents' card
    return _discard(hand, trump)


def _discard(hand: int, trump: int) -> int:
    """From the weakest plain suit (seed 001, necessary rule 8, additional rule 10)."""
    best_suit, best_value = -1, 1 << 30
    for s in range(4):
        h = hand >> 13 * s & 0x1FFF
        if h and s != trump:
            v = KEEP_VALUE[h]
            if v < best_value:
                best_suit, best_value = s, v
    if best_suit < 0:
        return lowest(hand)
    return lowest(hand & SUIT_MASK[best_suit])


def _lead(hand: int, seat: int, trump: int, unseen: int, memory: Memory) -> int:
    voids = memory.voids
    opp_void = voids[(seat + 1) & 3] & voids[(seat + 3) & 3]
    one_void = voids[(seat + 1) & 3] | voids[(seat + 3) & 3]
    trumps_held = (hand >> 13 * trump & 0x1FFF).bit_count() if trump < 4 else 0
    best_suit, best_score, best_master = -1, -1 << 30, False
    for s in range(4):
        h = hand >> 13 * s & 0x1FFF
        if not h:
            continue
        others = unseen >> 13 * s & 0x1FFF
        master = h.bit_length() > others.bit_length()
        score = LEAD_STRENGTH[h]
        if s == trump:
            # seed 001, necessary rule 4: trumps only with four or more
            score += TRUMP_LEAD if trumps_held >= 4 else -NO_TRUMP_LEAD
            if master and others and trumps_held >= 4:
                score += MASTER_BONUS                 # draw trumps from strength
        else:
            if master:
                score += MASTER_BONUS                 # seed 001, additional rule 2: take the trick
            if opp_void >> s & 1:
                score -= BOTH_OPPONENTS_VOID          # seed 001, necessary rule 13
            elif one_void >> s & 1:
                score -= ONE_OPPONENT_VOID            # seed 001, necessary rule 5
            if memory.partner_led >> s & 1:
                score += PARTNER_SUIT                 # seed 001, necessary rule 16
            if memory.partner_weak == s:
                score -= PARTNER_WEAK                 # seed 001, necessary rule 8
        if score > best_score:
            best_suit, best_score, best_master = s, score, master
    h = hand >> 13 * best_suit & 0x1FFF
    base = 13 * best_suit
    if best_master:
        if h >> 11 & 3 == 3:
            return base + LEAD_RANK[h]                 # necessary rule 20: the king from A-K (Q from A-K-Q)
        return base + h.bit_length() - 1               # additional rule 2: cash the winner
    if best_suit == trump and trumps_held < 4:
        return base + h.bit_length() - 1               # seed 001, additional rule 3: small trumps, the highest
    if memory.partner_led >> best_suit & 1:
        # seed 001, necessary rule 16: partner's suit back, low from four, high from three
        return base + (lowest(h) if h.bit_count() >= 3 else h.bit_length() - 1)
    return base + LEAD_RANK[h]
