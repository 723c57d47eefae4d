"""Bid whist (part B): an auction once round, the kitty, uptown and downtown.

A hand: the auction from the dealer's left, the dealer last (B2) -> the bidder
names trump, or the ranking in no trump, then takes the kitty (shown to all
except in no trump) and puts six cards away (B4) -> twelve tricks, the bidder
leading (B3, B4) -> the bidding side scores or loses (B5). The game ends when a
side reaches +5 or -5. Options: bid_rules.BidOptions; the record: RECORD.md.
"""

import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from functools import lru_cache
from operator import itemgetter
from typing import Any

from ..actions import PASS, RANKING_CALLS, STRAINS, TRUMP_CALLS, Action, discard_actions, is_among
from ..cards import BIT, JOKER_DECK, NO_TRUMP, card_str, parse_suit
from ..deal import shuffled_jokers
from ..errors import EngineError
from ..seats import SEATS, SIDES
from ..state import (IN_AUCTION, IN_EXCHANGE, IN_PLAY, BadRecord, GameState, Phase, packets_json,
                     read_packets, trump_text)
from ..variant import Variant
from .bid_play import KITTY, BidTricks, discard_rule
from .bid_rules import HIGHEST, BidOptions, bid_key, bid_ladder, game_decided, hand_points
from .bid_view import table_view

HAND = 12                                               # B1
PACKETS: dict[str, int] = {**{s: HAND for s in SEATS}, "kitty": KITTY}
_KITTY_AT = {"last_six": range(48, 54), "first_six": range(KITTY),   # deck positions (B1)
             "after_first_rounds": range(4, 30, 5)}
_Pick = Callable[[list[int]], tuple[int, ...]]
# the kitty's cards and the others (in order) picked out of a shuffled deck, by kitty_deal
_PICK: dict[str, tuple[_Pick, _Pick]] = {
    how: (itemgetter(*at), itemgetter(*(p for p in range(54) if p not in at))) for how, at in _KITTY_AT.items()}


@lru_cache(maxsize=64)
def call_table(opts: BidOptions) -> dict[tuple[int, str, bool, bool], tuple[Action, ...]]:
    """The ``allowed_calls`` of one set of options, by the highest bid's level and
    strain, forced and last: looked up by a game without hashing its options or
    the bid (frozen dataclasses hash field by field) at every call."""
    return {}


def allowed_calls(opts: BidOptions, high: Action | None, forced: bool, last: bool) -> tuple[Action, ...]:
    """The calls BidGame._calls allows, made once for each highest bid, forced
    dealer and last caller (the dealer, who may match it under dealer_may_match)."""
    top = opts.min_bid if forced and opts.forced_dealer_min == "minimum_only" else HIGHEST
    keys, bids = bid_ladder(opts.min_bid, opts.downtown_beats_uptown)
    start = 0
    if high is not None:
        floor = bid_key(high, opts)
        start = bisect_left(keys, floor) if last and opts.dealer_may_match else bisect_right(keys, floor)
    allowed = bids[start:bisect_right(keys, (top, len(STRAINS)))]
    return allowed if forced else (PASS, *allowed)


class BidGame(GameState):
    """A game of bid whist to +5 or -5 (B5), or a drive's round of hands (D1)."""

    def __init__(self, variant: Variant, first_dealer: str) -> None:
        super().__init__(variant, first_dealer)
        self.totals = [0, 0]
        self.hand_log: list[dict[str, Any]] = []
        self.winner: int | None = None
        self.result: str | None = None
        self._call_table = call_table(self.options)
        self._new_hand({s: 0 for s in SEATS}, 0)

    def _new_hand(self, held: dict[str, int], kitty: int) -> None:
        self.held, self.kitty = held, kitty     # as dealt
        self.calls: list[tuple[str, Action]] = []
        self.high: tuple[str, Action] | None = None   # (bidder, contract)
        self.trump: int | None = None           # a suit or NO_TRUMP, once named
        self.ranking: str | None = None
        self.discards: int | None = None
        self._eighteen = 0                      # the bidder's hand and the kitty, once trump is named
        self._rule = (0, 0)                     # discard_rule of those 18, made as trump is named
        self.tricks: BidTricks | None = None

    @property
    def to_act(self) -> str | None:
        if self.phase is IN_AUCTION:
            return self._caller(len(self.calls))
        if self.phase is IN_EXCHANGE:
            return self._high_bid[0]
        if self.phase is IN_PLAY:
            return SEATS[self._bid_tricks.turn]
        return None

    @property
    def _high_bid(self) -> tuple[str, Action]:
        """(bidder, contract): set by the first bid of the auction (B2)."""
        if self.high is None:
            raise EngineError("no one has bid yet")
        return self.high

    @property
    def _bid_tricks(self) -> BidTricks:
        """The hand's tricks: set once the six are put away (B4)."""
        if self.tricks is None:
            raise EngineError("the hand is not in play yet")
        return self.tricks

    def _caller(self, n: int) -> str:
        return SEATS[(SEATS.index(self.dealer) + 1 + n) % 4]    # B2: from the dealer's left

    @property
    def no_trump(self) -> bool:
        return self.high is not None and self.high[1].strain == "NT"

    # --- dealing ----------------------------------------------------------------

    def _deal(self, rng: random.Random, dealer: str) -> dict[str, Any]:
        """One card at a time clockwise from the dealer's left; the kitty's
        six are taken from the positions ``kitty_deal`` names (B1)."""
        deck = shuffled_jokers(rng)
        kitty_at, dealt_at = _PICK[self.options.kitty_deal]
        rest = dealt_at(deck)
        first = SEATS.index(dealer) + 1
        held = {SEATS[(first + k) % 4]: sum(itemgetter(*rest[k::4])(BIT)) for k in range(4)}
        kitty = sum(itemgetter(*kitty_at(deck))(BIT))
        self._new_hand({s: held[s] for s in SEATS}, kitty)
        self.phase = Phase.AUCTION
        return {"dealer": dealer, "hands": packets_json({**self.held, "kitty": kitty})}

    def _start(self, deal: dict[str, Any]) -> None:
        if set(deal) - {"dealer", "hands"}:
            raise BadRecord(f"unknown deal fields: {sorted(set(deal) - {'dealer', 'hands'})}")
        masks = read_packets(deal, PACKETS, JOKER_DECK)     # B1: 54 cards, 12 each, kitty 6
        self._new_hand({s: masks[s] for s in SEATS}, masks["kitty"])
        self.phase = Phase.AUCTION

    # --- what may be done ----------------------------------------------------------

    def _legal(self) -> list[Action]:
        if self.phase is IN_AUCTION:
            return list(self._calls())
        if self.phase is IN_PLAY:
            return list(self._bid_tricks.legal_actions())
        if self.trump is None:
            return [*RANKING_CALLS] if self.no_trump else [*TRUMP_CALLS]
        return discard_actions(self._discardable())

    def _discardable(self) -> int:
        """The cards the bidder may put away next, one at a time (B4): any of
        his 18 not yet put away, none the options keep, and the ones they
        bury once only those fit in what is left of the six."""
        must, banned = self._rule
        put = self.discards or 0
        must_left = must & ~put
        if must_left.bit_count() >= KITTY - put.bit_count():
            return must_left
        return self._eighteen & ~put & ~banned

    def _forced(self) -> bool:
        """Three passes: the dealer must bid, and wins (B2)."""
        return self.high is None and len(self.calls) == 3

    def _calls(self) -> tuple[Action, ...]:
        """Pass, and every bid that may overcall the highest (may_overcall), from
        the lowest; the forced dealer bids (B2). Made once for each highest bid
        and shared: ``_legal`` hands out a copy."""
        high = None if self.high is None else self.high[1]
        last, forced = len(self.calls) == 3, self._forced()
        key = (0, "", forced, last) if high is None else (high.level, high.strain, forced, last)
        made = self._call_table.get(key)
        if made is None:
            made = self._call_table[key] = allowed_calls(self.options, high, forced, last)
        return made

    # --- acting ---------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        if self.phase is IN_AUCTION:
            self._call(action)
        elif self.phase is IN_EXCHANGE and self.trump is None:
            self._declare(action)
        elif self.phase is IN_EXCHANGE:
            self._discard(action)
        else:
            self._play_card_of(self._bid_tricks, action)

    def _call(self, action: Action) -> None:
        if action.kind == "pass":
            if self._forced():
                raise self._refuse("the other three passed: the dealer must bid", "B2",
                                   "dealer_must_bid", action)
        elif action.kind != "bid":
            raise self._refuse(f"{action} is not a call: bid or pass", "B2", "not_a_call", action,
                               {"action": str(action)})
        elif not is_among(action, self._calls()):
            message, rule, reason, params = self._why_not(action)
            raise self._refuse(message, rule, reason, action, params)
        caller = self.to_act
        assert caller is not None        # a call is applied only for the seat to act
        self.calls.append((caller, action))
        if action.kind == "bid":
            self.high = (self.calls[-1][0], action)
        if len(self.calls) == 4:
            self.phase = Phase.EXCHANGE

    def _why_not(self, action: Action) -> tuple[str, str, str, dict[str, object]]:
        """(message, rule, reason, params) for a bid the auction refuses (B2)."""
        opts = self.options
        if not opts.min_bid <= action.level <= HIGHEST:
            return (f"a bid is {opts.min_bid} to {HIGHEST} books over six, not {action.level}",
                    "B2", "bid_out_of_range", {"level": action.level, "min": opts.min_bid, "max": HIGHEST})
        if self._forced():
            return (f"the forced dealer bids {opts.min_bid} only", "B2", "forced_bid_minimum",
                    {"min": opts.min_bid})
        return (f"{action} does not beat {self._high_bid[1]}", "B2", "bid_too_low",
                {"action": str(action), "to_beat": str(self._high_bid[1])})

    def _declare(self, action: Action) -> None:
        """B4: trump for a trump bid, the ranking for no trump."""
        if self.no_trump:
            if action.kind != "ranking":
                raise self._refuse("in no trump the bidder names the ranking, uptown or downtown",
                                   "B4", "must_name_ranking", action)
            self.trump, self.ranking = NO_TRUMP, action.strain
        else:
            if action.kind != "trump":
                raise self._refuse("the bidder names trump first, e.g. 'trump H'", "B4",
                                   "must_name_trump", action)
            self.trump, self.ranking = parse_suit(action.strain), self._high_bid[1].strain
        self._eighteen = self.held[self._high_bid[0]] | self.kitty
        self._rule = discard_rule(self._eighteen, self.no_trump, self.options)
        self.discards = 0

    def _discard(self, action: Action) -> None:
        """One card of the six put away (B4); the sixth starts the play."""
        held = self._eighteen
        if action.kind != "discard" or len(action.cards) != 1:
            raise self._refuse("the bidder puts away six cards, one at a time: 'discard 2C'", "B4",
                               "discard_one", action, {"count": KITTY})
        card, put = BIT[action.cards[0]], self.discards or 0
        if not held & ~put & card:
            raise self._refuse("only cards of the hand and the kitty can be put away", "B4",
                               "not_in_hand", action, {"card": card_str(action.cards[0])})
        if self._rule != (0, 0) and not self._discardable() & card:    # no rule: any held card goes
            raise self._refuse("these rules say which jokers go to the kitty", "B4",
                               "kitty_jokers", action)
        self.discards = put = put | card
        if put.bit_count() < KITTY:
            return
        bidder = self._high_bid[0]
        hands = [self.held[s] for s in SEATS]
        hands[SEATS.index(bidder)] = held ^ put
        assert self.trump is not None and self.ranking is not None   # named before the discards (B4)
        self.tricks = self._cards = BidTricks(hands, SEATS.index(bidder), self.trump, self.ranking,
                                              self.options)
        self.phase = Phase.PLAY                 # B4: the bidder leads

    # --- scoring ------------------------------------------------------------------

    def books(self) -> list[int]:
        """Books by side: tricks won, and the kitty as the bidder's first (B4)."""
        won = self.tricks.won if self.tricks else [0, 0, 0, 0]
        books = [won[0] + won[2], won[1] + won[3]]
        if self.tricks is not None:
            if self.options.kitty_book == "bidder":
                books[SEATS.index(self._high_bid[0]) % 2] += 1
            elif self.tricks.winners:
                books[self.tricks.winners[0] % 2] += 1
        return books

    def _score_hand(self) -> None:
        (bidder, contract), opts = self._high_bid, self.options
        side = SEATS.index(bidder) % 2
        books = self.books()[side]
        points = hand_points(contract.level, books, self.no_trump, opts)   # B5
        self.hand_log.append({"dealer": self.dealer, "bidder": bidder, "contract": str(contract),
                              "trump": trump_text(self.trump), "ranking": self.ranking,
                              "books": books, "points": points})
        self.hands_played += 1
        if opts.scoring == "drive":                                        # D1, D3
            won = [books, 13 - books] if side == 0 else [13 - books, books]
            add = won if opts.bid_drive_score == "books" else [points * (s == side) for s in (0, 1)]
            self.totals = [t + a for t, a in zip(self.totals, add)]
            self.phase = Phase.SCORED
            if self.hands_played >= opts.hands_per_round:
                self._end_drive()
            return
        self.totals[side] += points
        outcome = game_decided(self.totals[side], contract.level, books, opts)
        if outcome is not None:
            self.winner = side if outcome == "won" else 1 - side
            self.result = f"{SIDES[self.winner]} won: {SIDES[side]} at {self.totals[side]:+d}"
        self.phase = Phase.SCORED if outcome is None else Phase.OVER

    def _end_drive(self) -> None:
        ns, ew = self.totals
        self.winner = None if ns == ew else int(ew > ns)
        self.result = f"{self.hands_played} hands played"
        self.phase = Phase.OVER

    def score(self) -> dict[str, Any]:
        return {"totals": dict(zip(SIDES, self.totals)), "hands": list(self.hand_log),
                "winner": None if self.winner is None else SIDES[self.winner],
                "result": self.result}

    # --- what is shown (bid_view.py) ----------------------------------------------------

    def _table_view(self, seat: str) -> dict[str, Any]:
        return table_view(self, seat)


VARIANTS = (Variant("bid", "B1-B5", SEATS, BidGame, BidOptions()),
            Variant("bid_min3", "B1-B5", SEATS, BidGame, BidOptions(min_bid=3)))
