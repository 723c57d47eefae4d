"""The state of one hand in play (rules S5, S6).

``HandState`` is the interface robots and online tables use: ``legal_moves()``,
``play(card)``, ``copy()``. State lives in a few ints and three short lists so a
copy is cheap and a full random playout stays fast (see bench/engine.py).
"""

import random
from collections.abc import Iterable, Sequence

from .actions import SUIT_ACTIONS, Action
from .cards import HOLDING_CARDS, BIT, SUIT_MASK, SUIT_OF, card_str, suit_str
from .deal import Deal
from .errors import IllegalAction
from .seats import SEATS
from .views import Played, Quitted, SeatView, seat_view

NOT_IN_HAND = "not_in_hand"
MUST_FOLLOW_SUIT = "must_follow_suit"


RULE_OF = {NOT_IN_HAND: "S5", MUST_FOLLOW_SUIT: "S6.2"}  # a seat plays the cards dealt to it


class IllegalPlay(IllegalAction):
    """A card the seat to play may not play; ``reason`` is one of
    ``not_in_hand`` or ``must_follow_suit``. ``seat`` is the seat's letter,
    ``seat_index`` its index; ``led`` the suit to follow (must_follow_suit names it in ``params``)."""

    def __init__(self, reason: str, seat: int, card: int, index: int, rule: str | None = None,
                 led: int | None = None):
        params = {"card": card_str(card)} | ({} if led is None else {"suit": suit_str(led)})
        super().__init__(f"{SEATS[seat]} may not play {card_str(card)}: {reason}",
                         rule=rule or RULE_OF[reason], reason=reason, seat=SEATS[seat],
                         action=card_str(card), params=params)
        self.seat_index, self.card, self.index = seat, card, index


def trick_winner(cards: Sequence[int], leader: int, trump: int) -> int:
    """Seat that wins a trick of four cards led by ``leader`` (S6.4): the
    highest trump, else the highest card of the suit led."""
    best, best_seat = cards[0], leader
    for i in range(1, len(cards)):
        c = cards[i]
        if SUIT_OF[c] == SUIT_OF[best] and c > best or SUIT_OF[c] == trump != SUIT_OF[best]:
            best, best_seat = c, (leader + i) & 3
    return best_seat


class HandState:
    """One hand from the deal to the 13th trick. Seats are 0-3 (N E S W)."""

    __slots__ = ("dealer", "trump", "trump_card", "deal_hands", "hands", "turn",
                 "n", "led_suit", "best", "best_suit", "best_seat", "tricks",
                 "winners", "plays")

    def __init__(self, hands: Iterable[int], dealer: int, trump: int, trump_card: int | None = None) -> None:
        self.dealer = dealer
        self.trump = trump            # suit 0-3, or NO_TRUMP (never equals a card's suit)
        self.trump_card = trump_card  # the dealer's turned card, if trump was turned (S5)
        self.deal_hands = tuple(hands)
        self.hands = list(hands)
        self.turn = (dealer + 1) & 3  # the dealer's left leads (S6.1)
        self.n = 0                    # cards in the current trick
        self.led_suit = self.best = self.best_suit = self.best_seat = 0
        self.tricks = [0, 0]          # N-S, E-W; partners' tricks are pooled (S6.5)
        self.winners: list[int] = []  # seat winning each completed trick
        self.plays: list[int] = []    # every card in order: the event log

    @classmethod
    def from_deal(cls, d: Deal) -> "HandState":
        return cls(d.hands, d.dealer, d.trump, d.trump_card)

    # --- the hot path ---------------------------------------------------

    def legal_moves(self) -> tuple[int, ...]:
        """Cards the seat to play may play, ascending (S6.2, S6.3)."""
        h = self.hands[self.turn]
        if self.n:
            s = self.led_suit
            follow = h >> (13 * s) & 0x1FFF
            if follow:
                return HOLDING_CARDS[s][follow]
        t = HOLDING_CARDS
        return (t[0][h & 0x1FFF] + t[1][h >> 13 & 0x1FFF]
                + t[2][h >> 26 & 0x1FFF] + t[3][h >> 39])

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal cards as the game state's actions (its hot path):
        ``tuple(play(c) for c in self.legal_moves())``, a suit's shared."""
        held = self.hands[self.turn]
        if self.n:
            led = self.led_suit
            follow = held >> 13 * led & 0x1FFF
            if follow:                          # S6.2
                return SUIT_ACTIONS[led][follow]
        s, h, d, c = SUIT_ACTIONS                  # card_tuple(held), inline: a lead or a void
        return s[held & 0x1FFF] + h[held >> 13 & 0x1FFF] + d[held >> 26 & 0x1FFF] + c[held >> 39]

    def legal_mask(self) -> int:
        """The legal cards as a mask."""
        h = self.hands[self.turn]
        if self.n:
            follow = h & SUIT_MASK[self.led_suit]
            if follow:
                return follow
        return h

    def play(self, card: int) -> bool:
        """Play a card for the seat to play; raises IllegalPlay (hand unchanged).
        True when it was the hand's last card (the game state scores the hand then)."""
        seat = self.turn
        hands = self.hands
        hand = hands[seat]
        bit = BIT[card]
        if not hand & bit:
            raise IllegalPlay(NOT_IN_HAND, seat, card, len(self.plays))
        n = self.n
        suit = SUIT_OF[card]
        if n == 0:
            self.led_suit = self.best_suit = suit
            self.best, self.best_seat = card, seat
        elif suit != self.led_suit and hand & SUIT_MASK[self.led_suit]:
            raise IllegalPlay(MUST_FOLLOW_SUIT, seat, card, len(self.plays), led=self.led_suit)
        elif suit == self.best_suit:          # S6.4: higher card of the winning suit
            if card > self.best:
                self.best, self.best_seat = card, seat
        elif suit == self.trump:              # S6.4: first trump on a plain-suit trick
            self.best, self.best_suit, self.best_seat = card, suit, seat
        hands[seat] = hand ^ bit
        self.plays.append(card)
        if n == 3:                            # S6.5: the winner leads next
            w = self.best_seat
            self.tricks[w & 1] += 1
            self.winners.append(w)
            self.turn, self.n = w, 0
            return not hands[w]               # the hands are dealt even: all are empty
        self.turn, self.n = (seat + 1) & 3, n + 1
        return False

    def copy(self) -> "HandState":
        new = HandState.__new__(HandState)
        new.dealer, new.trump, new.trump_card = self.dealer, self.trump, self.trump_card
        new.deal_hands, new.hands, new.turn, new.n = self.deal_hands, self.hands[:], self.turn, self.n
        new.led_suit, new.best, new.best_suit = self.led_suit, self.best, self.best_suit
        new.best_seat, new.tricks = self.best_seat, self.tricks[:]
        new.winners, new.plays = self.winners[:], self.plays[:]
        return new

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, object]) -> "HandState":
        return self.copy()          # ints, and lists and tuples of ints

    def playout(self, rng: random.Random) -> tuple[int, ...]:
        """Finish the hand with uniformly random legal cards and return the
        tricks (N-S, E-W): the rollout of Monte Carlo robots. The same rules
        as ``play`` (S6.2-S6.5), unrolled a trick at a time because rollouts
        are the hot loop; hypothesis checks both agree."""
        rnd = rng.random
        while self.n:                       # finish a trick already begun
            moves = self.legal_moves()
            self.play(moves[int(rnd() * len(moves))])
        hands, plays, winners, tricks = self.hands, self.plays, self.winners, self.tricks
        trump, lead = self.trump, self.turn
        t = HOLDING_CARDS
        if len(winners) == 13:
            return tuple(tricks)
        for _ in range(13 - len(winners)):
            h = hands[lead]
            moves = t[0][h & 0x1FFF] + t[1][h >> 13 & 0x1FFF] + t[2][h >> 26 & 0x1FFF] + t[3][h >> 39]
            best = moves[int(rnd() * len(moves))]
            hands[lead] = h ^ BIT[best]
            plays.append(best)
            led = best_suit = SUIT_OF[best]
            winner = lead
            shift = 13 * led
            for i in (1, 2, 3):
                seat = (lead + i) & 3
                h = hands[seat]
                follow = h >> shift & 0x1FFF
                if follow:                  # S6.2: must follow; wins only over its own suit
                    moves = t[led][follow]
                    card = moves[int(rnd() * len(moves))]
                    if card > best and best_suit == led:
                        best, winner = card, seat
                else:                       # S6.3: any card; only a trump can win
                    moves = t[0][h & 0x1FFF] + t[1][h >> 13 & 0x1FFF] + t[2][h >> 26 & 0x1FFF] + t[3][h >> 39]
                    card = moves[int(rnd() * len(moves))]
                    if SUIT_OF[card] == trump and (best_suit != trump or card > best):
                        best, best_suit, winner = card, trump, seat
                hands[seat] = h ^ BIT[card]
                plays.append(card)
            tricks[winner & 1] += 1
            winners.append(winner)
            lead = winner
        self.turn, self.led_suit = lead, led
        self.best, self.best_suit, self.best_seat = best, best_suit, winner
        return tuple(tricks)

    # --- questions --------------------------------------------------------

    @property
    def complete(self) -> bool:
        """All 13 tricks played (S6.5)."""
        return len(self.plays) == 52

    @property
    def to_play(self) -> int | None:
        return None if len(self.plays) == 52 else self.turn

    def is_legal(self, card: int) -> bool:
        return not self.complete and bool(self.legal_mask() & BIT[card])

    @property
    def trump_card_visible(self) -> bool:
        """The turned card shows until the dealer plays to the first trick (S5);
        the dealer is always fourth to the first trick."""
        return self.trump_card is not None and len(self.plays) < 4

    def leader_of(self, trick: int) -> int:
        """Seat leading trick ``trick`` (0-12)."""
        return (self.dealer + 1) & 3 if trick == 0 else self.winners[trick - 1]

    def seat_of_play(self, index: int) -> int:
        return (self.leader_of(index // 4) + index % 4) & 3

    def current_trick(self) -> list[Played]:
        """``[(seat, card), ...]`` of the trick in progress."""
        k = len(self.plays) - self.n
        lead = (self.turn - self.n) & 3
        return [((lead + i) & 3, c) for i, c in enumerate(self.plays[k:])]

    def trick(self, number: int) -> Quitted:
        """A completed trick: ``(leader, [cards], winner)``."""
        return (self.leader_of(number), self.plays[4 * number:4 * number + 4],
                self.winners[number])

    def last_trick(self) -> Quitted | None:
        """The last completed trick, always viewable online (L2c)."""
        return self.trick(len(self.winners) - 1) if self.winners else None

    def played_mask(self) -> int:
        """Every card played so far (all seats saw them fall)."""
        return _played(self)

    def events(self) -> list[dict[str, object]]:
        """The event log as dicts: the deal, every play and every trick."""
        turned = None if self.trump_card is None else card_str(self.trump_card)
        log: list[dict[str, object]] = [{"event": "deal", "dealer": SEATS[self.dealer],
                "trump": suit_str(self.trump), "trump_card": turned}]
        for i, c in enumerate(self.plays):
            log.append({"event": "play", "index": i, "seat": SEATS[self.seat_of_play(i)],
                        "card": card_str(c)})
            if i % 4 == 3:
                log.append({"event": "trick", "number": i // 4,
                            "winner": SEATS[self.winners[i // 4]]})
        return log

    def view(self, seat: int, look_back: int = 1, open_seats: Iterable[int] = ()) -> SeatView:
        """What ``seat`` may see (hidden information): its own cards, the cards
        played, the turned trump card while it shows (S5), the last
        ``look_back`` tricks (L2c), and any hand lying open (a dummy, L12)."""
        return seat_view(self, seat, look_back, open_seats)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandState) and _key(self) == _key(other)

    __hash__ = None  # type: ignore[assignment]  # mutable: equal states are not one key

    def __repr__(self) -> str:
        return (f"<HandState dealer={SEATS[self.dealer]} trump={suit_str(self.trump)}"
                f" plays={len(self.plays)} tricks={tuple(self.tricks)}>")


def _played(state: HandState) -> int:
    m = 0
    for c in state.plays:
        m |= BIT[c]
    return m


def _key(s: HandState) -> tuple[object, ...]:
    return (s.dealer, s.trump, s.trump_card, s.deal_hands, s.hands, s.turn, s.n,
            s.tricks, s.winners, s.plays)
