"""Dummy whist for three and Double dummy for two (rules Y1-Y6, seed 003).

Three players bid once each for the dummy (Y2); the declarer plays it from
opposite (Y3) against the other two; each player scores for himself and the
first to 21 wins (Y4). Double dummy: two players, each with a dummy (Y6).
The open points of the seed are options (docs/engine.md, "Points the seeds leave open").

A deal record: ``{"dealer": "N", "hands": {"N", "E", "S", "dummy"}}`` (double
dummy: ``N, E`` and their dummies ``S, W``). Actions: calls ("pass",
"4 downtown", "2 NT"), with jokers the dummy's "discard LJ 2C", then the
declaration ("trump H" or "uptown"/"downtown" in no trump), then cards.
"""

import random
from bisect import bisect_right
from functools import lru_cache
from typing import Any

from ..actions import PASS, RANKING_CALLS, STRAINS, TRUMP_CALLS, Action, bid, discard_actions, is_among
from ..cards import (BIT, FULL_DECK, JOKER_DECK, NO_TRUMP, SUIT_MASK, card_str, cards_of, mask_of,
                     parse_suit)
from ..deal import shuffled_deck, shuffled_jokers
from ..errors import EngineError
from ..state import IN_AUCTION, IN_EXCHANGE, IN_PLAY, BadRecord, Phase, read_packets, trump_text
from ..tricks import TrickPlay, trick_play
from ..variant import Variant
from .bid_play import JOKER_MASK
from .bid_rules import bid_ladder   # Y2 orders bids as B2: number, then uptown < downtown < NT
from .dummy_options import NT_JOKER_RULES as NT_JOKER_RULES, TIES as TIES
from .dummy_options import DummyOptions as DummyOptions, DummyOptionsError as DummyOptionsError
from .handed import ClassicDoubleDummy
from .seating import (DUMMY, DummyTable, Seating, deal_round, dealt_packets, dummies_opposite, dummy_opposite,
                      hands_by_position)

# --- the auction (Y2) -----------------------------------------------------------

def all_bids(options: DummyOptions) -> list[Action]:
    return [bid(n, s) for n in range(options.min_bid, 8) for s in STRAINS]


@lru_cache(maxsize=64)
def call_table(opts: DummyOptions) -> dict[tuple[int, str, bool], tuple[Action, ...]]:
    """``open_calls`` by the best bid's level and strain, and forced: no options hashed a call."""
    return {}


def open_calls(opts: DummyOptions, best: Action | None, forced: bool) -> tuple[Action, ...]:
    """The calls the auction allows after ``best`` (DummyGame._calls_open), made
    once for each: pass, or a bid better than the best so far; the dealer after
    all passes (``forced``) must bid (Y2)."""
    keys, ladder = bid_ladder(opts.min_bid, opts.downtown_beats_uptown)      # all_bids, in order
    # the best bid's key is its place's on the ladder (bid_key, made once there)
    bids = ladder if best is None else ladder[bisect_right(keys, keys[ladder.index(best)]):]
    if forced:
        if opts.forced_dealer_min_only:
            return tuple(b for b in bids if b.level == opts.min_bid and b.strain != "NT")
        return bids
    return (PASS, *bids)


# --- scoring (Y4) -----------------------------------------------------------------

def multiplier(level: int, strain: str, options: DummyOptions) -> int:
    """A bid of 7 (Boston bid) and no trump score double; 7 NT once (Y4)."""
    doubles = (level == 7 and options.boston_bid_double) + (strain == "NT" and options.nt_double)
    if options.double_stack == "once":
        return 2 if doubles else 1
    return 1 << doubles


def contract_points(level: int, strain: str, books: int, options: DummyOptions) -> tuple[bool, int, int]:
    """``(made, declarer's points, each opponent's points)`` (Y4): made, every
    book over six scores; set, each opponent scores the bid."""
    mult = multiplier(level, strain, options)
    if books >= 6 + level:
        boston = 2 if books >= 13 and level < 7 and options.boston_bonus else 1
        return True, mult * boston * (books - 6), 0
    return False, 0, mult * level


def game_winner(totals: dict[str, int], options: DummyOptions) -> str | list[str] | None:
    """The first to the target wins (Y4); two there at once: the higher, equal
    play on (or both win with ``tie="shared"``)."""
    top = max(totals.values())
    if top < options.target:
        return None
    leaders = [seat for seat, pts in totals.items() if pts == top]
    if len(leaders) == 1:
        return leaders[0]
    return leaders if options.tie == "shared" else None


# --- the game --------------------------------------------------------------------

class DummyGame(DummyTable):
    """A game of dummy whist (three players) or double dummy (two) to 21."""

    def __init__(self, variant: Variant, first_dealer: str):
        super().__init__(variant, first_dealer)
        self.totals = {seat: 0 for seat in variant.seats}
        self.results: list[dict[str, Any]] = []
        self.winner: str | list[str] | None = None   # a seat, or the seats sharing (Y4)
        self._call_table = call_table(self.options)

    # --- dealing (Y1, Y6) ---------------------------------------------------------

    @property
    def labels(self) -> tuple[str, ...]:
        """The packets of a deal: the players and the dummy (or both dummies)."""
        return ("N", "E", "S", DUMMY) if self.options.players == 3 else ("N", "E", "S", "W")

    def _counts(self) -> dict[str, int]:
        dummy = 15 if self.options.jokers else 13
        return {label: (dummy if label == DUMMY else 13) for label in self.labels}

    def _deal_order(self, dealer: str) -> list[str]:
        """One card at a time from the dealer's left; three players: the dealer,
        then the dummy's pile (1.2.3); two: clockwise round N E S W (Y6)."""
        seats = self.variant.seats
        if self.options.players == 3:
            i = seats.index(dealer)
            return [seats[(i + 1) % 3], seats[(i + 2) % 3], dealer, DUMMY]
        i = self.labels.index(dealer)
        return [self.labels[(i + k) & 3] for k in range(1, 5)]

    def _deal(self, rng: random.Random, dealer: str) -> dict[str, Any]:
        if self.options.jokers:
            deck = shuffled_jokers(rng)
        else:
            deck = shuffled_deck(rng)
        texts, masks = dealt_packets(deal_round(deck, self._deal_order(dealer), self._counts()))
        self._set_up(masks)
        return {"dealer": dealer, "hands": texts}

    def _start(self, deal: dict[str, Any]) -> None:
        if set(deal) - {"dealer", "hands"}:
            raise BadRecord(f"unknown deal fields: {sorted(set(deal) - {'dealer', 'hands'})}", rule="Y1")
        deck = JOKER_DECK if self.options.jokers else FULL_DECK
        self._set_up(read_packets(deal, self._counts(), deck))

    def _set_up(self, dealt: dict[str, int]) -> None:
        self.dealt = dealt
        self.calls: list[tuple[str, Action]] = []
        self._best_bid: Action | None = None     # _best(), kept as the calls come
        self.declarer: str | None = None
        self.contract: Action | None = None
        self.discards = 0
        self.dummy_hands = {label: self.dealt[label] for label in self._dummy_labels()}
        self._faced = False
        self.trump: int | None = None
        self.ranking: str | None = None
        self.seating: Seating | None = None
        self.tricks: TrickPlay | None = None
        self.phase = Phase.AUCTION

    @property
    def _contract_won(self) -> Action:
        """The auction's winning bid: set once the auction is over (Y2)."""
        if self.contract is None:
            raise EngineError("the auction is not over")
        return self.contract

    @property
    def _declarer_seat(self) -> str:
        """Who won the auction: set once it is over (Y2)."""
        if self.declarer is None:
            raise EngineError("the auction is not over")
        return self.declarer

    def _dummy_labels(self) -> tuple[str, ...]:
        return (DUMMY,) if self.options.players == 3 else ("S", "W")

    # --- who acts -----------------------------------------------------------------

    @property
    def to_act(self) -> str | None:
        if self.phase is IN_PLAY:
            return self._play_to_act()
        if self.phase is IN_AUCTION:
            if self.declarer:
                return self.declarer
            seats = self.variant.seats         # from the dealer's left to the dealer, once each (Y2)
            return seats[(seats.index(self.dealer) + 1 + len(self.calls)) % len(seats)]
        if self.phase is IN_EXCHANGE:
            return self.declarer
        return None

    # --- legal actions ------------------------------------------------------------

    def _best(self) -> Action | None:
        """The last bid: each beats those before it (Y2)."""
        return self._best_bid

    def _calls_open(self) -> list[Action]:
        """Pass, or a bid better than the best so far; the dealer after all passes must bid (Y2)."""
        best = self._best()
        forced = best is None and len(self.calls) == len(self.variant.seats) - 1
        key = (-1, "", forced) if best is None else (best.level, best.strain, forced)
        made = self._call_table.get(key)
        if made is None:
            made = self._call_table[key] = open_calls(self.options, best, forced)
        return list(made)

    def _declarations(self) -> list[Action]:
        """Trump for an uptown or downtown bid, the ranking for no trump (Y3)."""
        return [*RANKING_CALLS] if self._contract_won.strain == "NT" else [*TRUMP_CALLS]

    def _discard_choices(self) -> list[Action]:
        return discard_actions(self.dummy_hands[DUMMY])

    def _legal(self) -> list[Action]:
        if self.phase is IN_PLAY:
            return self._legal_plays()
        if self.phase is IN_EXCHANGE:
            return self._discard_choices()
        return self._declarations() if self.declarer else self._calls_open()

    def _legal_cards(self) -> int:
        """S6.1-S6.3, and the jokers of a no-trump hand (Y3): a joker may be
        led only by a hand with nothing else, and a hand void in the suit led
        must play its joker (``nt_joker="discard_first_void"``)."""
        tp, opts = self._tp, self.options
        mask = tp.legal_mask()
        hand = tp.hands[tp.turn]
        if tp.trump != NO_TRUMP or not hand & JOKER_MASK:
            return mask
        led = tp.led
        if led is None:
            if opts.nt_joker_lead == "only_if_forced" and hand & ~JOKER_MASK:
                return mask & ~JOKER_MASK
            return mask
        if opts.nt_joker == "discard_first_void" and not hand & SUIT_MASK[led]:
            return hand & JOKER_MASK
        return mask

    def _refusal_of(self, card: int) -> tuple[str, str, dict[str, object]]:
        tp = self._tp
        # a joker's rule only when it is what refuses the card: a revoke is a revoke (S6.2)
        if tp.trump == NO_TRUMP and tp.hands[tp.turn] & JOKER_MASK and tp.legal_mask() & BIT[card]:
            return "Y3", "joker_in_no_trump", {"card": card_str(card)}
        return super()._refusal_of(card)

    # --- applying -----------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        if self.phase is IN_PLAY:
            self._play_card(action)
        elif self.phase is IN_EXCHANGE:
            self._discard(action)
        elif self.declarer:
            self._declare(action)
        else:
            self._call(action)

    def _call(self, action: Action) -> None:
        if not is_among(action, self._calls_open()):
            if action.kind not in ("pass", "bid"):
                raise self._refuse(f"{action} is not a call: the auction is on", "Y2", "not_a_call", action,
                                   {"action": str(action)})
            if action.kind == "pass":
                raise self._refuse("all passed: the dealer must bid", "Y2", "dealer_must_bid", action)
            best = self._best()
            raise self._refuse(f"{action} does not beat {best or 'the forced minimum'}",
                               "Y2", "bid_too_low", action, {"action": str(action),
                                                             "to_beat": None if best is None else str(best)})
        caller = self.to_act
        assert caller is not None        # a call is applied only for the seat to act
        self.calls.append((caller, action))
        if action.kind == "bid":
            self._best_bid = action
        if len(self.calls) < len(self.variant.seats):
            return
        seat, best = next((s, a) for s, a in reversed(self.calls) if a.kind == "bid")
        self.declarer, self.contract = seat, best
        if self.options.jokers:
            self.phase = Phase.EXCHANGE     # Y1: two of the dummy's 15 go before it is faced
        else:
            self._faced = True              # Y1: faced once the auction is over

    def _discard(self, action: Action) -> None:
        dummy = self.dummy_hands[DUMMY]
        if action.kind != "discard" or len(action.cards) != 1 or mask_of(action.cards) & ~dummy:
            raise self._refuse(f"{action}: the declarer discards two of the dummy's cards, one at a time",
                               "Y1", "discard_two", action, {"action": str(action)})
        self.discards |= mask_of(action.cards)
        self.dummy_hands[DUMMY] = dummy & ~self.discards
        if self.discards.bit_count() < 2:
            return
        self._faced = True
        self.phase = Phase.AUCTION          # the declaration follows (Y3)

    def _declare(self, action: Action) -> None:
        if not is_among(action, self._declarations()):
            names = "ranking" if self._contract_won.strain == "NT" else "trump"
            what = "the ranking" if names == "ranking" else "a trump suit"
            raise self._refuse(f"{action}: the declarer names {what}", "Y3", "declare", action,
                               {"action": str(action), "names": names})
        if action.kind == "ranking":
            self.trump, self.ranking = NO_TRUMP, action.strain
        else:
            self.trump, self.ranking = parse_suit(action.strain), self._contract_won.strain
        self.calls.append((self._declarer_seat, action))
        self.seating = (dummy_opposite(self.variant.seats, self._declarer_seat) if self.options.players == 3
                        else dummies_opposite(("N", "E"), ("S", "W")))
        packets = {**self.dealt, **self.dummy_hands}
        leader = self._seats.own_position(self._declarer_seat)   # Y3: the declarer leads
        self.tricks = trick_play(hands_by_position(self.seating, packets), (0, 1, 2, 3), leader,
                                self.trump, self.ranking)
        # the core takes the cards unless the jokers of no trump have rules of their own (Y3)
        self._cards = self.tricks if self.trump != NO_TRUMP or not self.options.jokers else None
        self.phase = Phase.PLAY

    def _score_hand(self) -> None:
        opts, level, strain = self.options, self._contract_won.level, self._contract_won.strain
        side = self._seats.side(self._seats.own_position(self._declarer_seat))
        books = self._side_tricks()[side] + (1 if opts.discard_book and self.discards else 0)
        made, mine, theirs = contract_points(level, strain, books, opts)
        points = {seat: (mine if seat == self.declarer else theirs) for seat in self.totals}
        for seat, pts in points.items():
            self.totals[seat] += pts
        self.results.append({"declarer": self.declarer, "bid": str(self.contract), "books": books,
                             "made": made, "boston": self._side_tricks()[side] == 13,
                             "points": points})
        self.winner = game_winner(self.totals, opts)
        self._end_phase(self.winner is not None)

    # --- what is shown ------------------------------------------------------------

    def _table_view(self, seat: str) -> dict[str, Any]:
        if self.tricks is not None:
            out = self._play_view(seat)
        else:
            out = self._view_before_play(self.dealt[seat], self.dummy_hands if self.faced else {})
        if seat == self.declarer and self.phase is IN_EXCHANGE:
            out["dummy_to_discard"] = [card_str(c) for c in cards_of(self.dummy_hands[DUMMY])]
        if seat == self.declarer and self.discards:
            out["discards"] = [card_str(c) for c in cards_of(self.discards)]   # hidden from the others
        declared = [a for s, a in self.calls if a.kind in ("trump", "ranking")]
        return out | {
            "trump": trump_text(self.trump), "ranking": self.ranking, "trump_card": None,
            "auction": [{"seat": s, "call": str(a)} for s, a in self.calls if a.kind in ("pass", "bid")],
            "declarer": self.declarer, "bid": None if self.contract is None else str(self.contract),
            "declaration": str(declared[0]) if declared else None}

    def score(self) -> dict[str, Any]:
        return {"totals": dict(self.totals), "target": self.options.target,
                "hands": list(self.results), "winner": self.winner}


def dummy_game(variant: Variant, first_dealer: str) -> DummyGame | ClassicDoubleDummy:
    """The game a dummy preset plays: the auction of seed 003, or for double
    dummy in the classic mode, the two-handed whist of L12."""
    if variant.options.double_dummy_mode == "classic":
        return ClassicDoubleDummy(variant, first_dealer)
    return DummyGame(variant, first_dealer)

VARIANTS = (
    Variant("dummy", "Y1-Y5", ("N", "E", "S"), dummy_game, DummyOptions()),
    Variant("double_dummy", "Y6, Y1-Y5", ("N", "E"), dummy_game, DummyOptions(players=2)),
)
