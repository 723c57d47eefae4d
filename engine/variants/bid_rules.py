"""Bid whist's options, the order of bids and the hand's score (rules B2, B5).

Every point the seed leaves open is an option (S9); the defaults are the
seed's and docs/rules.md's reading (docs/engine.md, "Points the seeds leave open").
"""

from dataclasses import dataclass, fields
from functools import cache
from typing import Literal

from ..actions import STRAINS, Action, bid
from ..errors import EngineError

LOWEST, HIGHEST = 1, 7          # B2: books over six


@dataclass(frozen=True)
class BidOptions:
    kitty_deal: Literal["last_six", "first_six", "after_first_rounds"] = "last_six"  # B1
    min_bid: int = 1                                   # B2 (variant: 3)
    downtown_beats_uptown: bool = True                 # B2
    dealer_may_match: bool = False                     # B2: every bid must be higher
    forced_dealer_min: Literal["min_bid", "minimum_only"] = "min_bid"   # B2: any bid
    declare_before_kitty: bool = True                  # B4: name trump, then see the kitty
    expose_kitty: Literal["except_nt", "always", "never"] = "except_nt"  # B4
    kitty_discard: Literal["any", "no_jokers_in_trump"] = "any"         # B4
    nt_jokers: Literal["dead", "must_discard"] = "dead"                 # B3
    nt_joker_follow: Literal["void_only", "any_time"] = "void_only"     # B3
    nt_joker_lead: Literal["allowed", "only_if_forced"] = "allowed"     # B3
    nt_joker_led: Literal["next_card_sets_suit"] = "next_card_sets_suit"  # B3
    kitty_book: Literal["bidder", "first_trick_winner"] = "bidder"      # B4
    made_scores: Literal["books_over_six", "bid"] = "books_over_six"    # B5
    set_loss: Literal["shortfall_points", "shortfall_books", "bid"] = "shortfall_points"  # B5
    nt_double: bool = False                            # B5 says nothing of doubling
    boston: Literal["none", "bonus", "wins_game"] = "none"
    bid_target: int = 5                                # B5
    bid_loss: int = -5                                 # B5
    scoring: Literal["game", "drive"] = "game"         # D1: a drive scores each hand alone
    hands_per_round: int = 1                           # D1
    bid_drive_score: Literal["b5", "books"] = "b5"     # D3 books, or the hand's B5 points

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            allowed = getattr(f.type, "__args__", None)
            if allowed is not None and value not in allowed:
                raise EngineError(f"{f.name} must be one of {', '.join(allowed)}, not {value!r}")
            if allowed is None and type(value) is not f.type:
                raise EngineError(f"{f.name} must be a {getattr(f.type, '__name__', f.type)}, not {value!r}")
        if not LOWEST <= self.min_bid <= HIGHEST:
            raise EngineError(f"min_bid must be {LOWEST}-{HIGHEST}, not {self.min_bid}")
        if self.bid_target <= 0 or self.bid_loss >= 0 or self.hands_per_round < 1:
            raise EngineError("bid_target must be above 0, bid_loss below 0, hands_per_round 1 or more")


def bid_key(bid: Action, options: BidOptions) -> tuple[int, int]:
    """Bids compare by number, then kind: uptown < downtown < no trump (B2);
    with ``downtown_beats_uptown`` off the two trump kinds are equal."""
    kinds = ("uptown", "downtown", "NT") if options.downtown_beats_uptown else ("uptown", "NT")
    kind = "uptown" if bid.strain == "downtown" and not options.downtown_beats_uptown else bid.strain
    return (bid.level, kinds.index(kind))


@cache
def bid_ladder(low: int, downtown_beats_uptown: bool) -> tuple[tuple[tuple[int, int], ...], tuple[Action, ...]]:
    """Every bid from ``low`` books to seven, number first then uptown,
    downtown, NT, and their ``bid_key``s, which never go down: the bids an
    auction allows are a slice of it, made once for the rules' order (the
    hot path of playouts)."""
    kinds = ("uptown", "downtown", "NT") if downtown_beats_uptown else ("uptown", "NT")
    bids = tuple(bid(n, k) for n in range(low, HIGHEST + 1) for k in STRAINS)
    return tuple((b.level, kinds.index("uptown" if b.strain == "downtown" and not downtown_beats_uptown
                                       else b.strain)) for b in bids), bids


def may_overcall(bid: Action, high: Action | None, options: BidOptions, dealer: bool) -> bool:
    """A bid must beat the highest so far (B2); the dealer may equal it only
    under ``dealer_may_match``."""
    if high is None:
        return True
    new, old = bid_key(bid, options), bid_key(high, options)
    return new > old or (dealer and options.dealer_may_match and new == old)


def hand_points(level: int, books: int, no_trump: bool, options: BidOptions) -> int:
    """The bidding side's points for a hand (B5); the defenders score nothing.
    Made: every book over six (or the bid). Set: the shortfall, the points
    not reached (bid 7, books 9 -> -4); the first six books are worth nothing."""
    if not 0 <= books <= 13:
        raise EngineError(f"books must be 0-13, not {books}")
    over = books - 6
    if books >= 6 + level:
        points = over if options.made_scores == "books_over_six" else level
    elif options.set_loss == "shortfall_points":
        points = -(level - max(0, over))
    elif options.set_loss == "shortfall_books":
        points = -(6 + level - books)
    else:
        points = -level
    if options.nt_double and no_trump:
        points *= 2
    if options.boston == "bonus" and books == 13:
        points *= 2
    return points


def game_decided(total: int, level: int, books: int, options: BidOptions) -> str | None:
    """After the bidding side's hand: "won" at the target (+5), "lost" at the
    floor (-5) (B5); a made seven wins outright under ``boston="wins_game"``."""
    if total >= options.bid_target or (options.boston == "wins_game" and level == HIGHEST
                                       and books == 13):
        return "won"
    if total <= options.bid_loss:
        return "lost"
    return None
