"""What one player of bid whist may see (rule B4, docs/rules.md).

Everyone: their own hand, the calls, the contract and its trump or ranking, the
kitty while it lies face up (named trump, not no trump, not yet taken), how many
cards the bidder exchanged, the cards played. The bidder also: the kitty once he
may look at it, and the six he put away. Nothing else.
"""

from typing import TYPE_CHECKING, Any

from ..cards import card_str, cards_of
from ..seats import SEATS, SIDES
from ..state import Phase, trump_text
from ..tricks import TrickPlay

if TYPE_CHECKING:  # bid.py shows its table through this module
    from .bid import BidGame


def kitty_open(game: "BidGame") -> tuple[bool, bool]:
    """(the bidder sees the kitty, everyone does) now: from the declaration
    (or the auction's end with ``declare_before_kitty`` off); face up for all
    except in no trump (B4), until the bidder takes it."""
    if game.high is None or game.phase == Phase.AUCTION:
        return False, False
    bidder = game.trump is not None or not game.options.declare_before_kitty
    shown = {"always": True, "never": False, "except_nt": not game.no_trump}
    return bidder, bidder and shown[game.options.expose_kitty] and game.tricks is None


def table_view(game: "BidGame", seat: str) -> dict[str, Any]:
    bidder = game.high and game.high[0]
    sees, all_see = kitty_open(game)
    t = game.tricks
    kitty = cards(game.kitty) if all_see or (sees and seat == bidder) else None
    hand = t.hands[SEATS.index(seat)] if t is not None else game.held[seat]
    exchanged = None                    # how many of the cards dealt him the bidder put away
    if t is not None and game.discards is not None and bidder:
        exchanged = (game.discards & game.held[bidder]).bit_count()
    return {
        "hand": cards(hand),
        "trump": trump_text(game.trump),
        "trump_card": None,                                   # no card is turned (B4)
        "ranking": game.ranking,
        "trick": [{"seat": SEATS[p], "card": card_str(c)} for p, c in (t.trick if t else [])],
        "tricks": {"NS": t.won[0] + t.won[2], "EW": t.won[1] + t.won[3]} if t else {"NS": 0, "EW": 0},
        "books": dict(zip(SIDES, game.books())),
        "last_trick": last_trick(t),
        "auction": [{"seat": s, "call": str(a)} for s, a in game.calls],
        "bidder": bidder or None,
        "contract": str(game.high[1]) if game.high and game.phase != Phase.AUCTION else None,
        "kitty": kitty,
        "open_hands": {"kitty": kitty} if all_see else {},
        "exchanged": exchanged,
        "discards": cards(game.discards) if game.discards and seat == bidder else None,
    }


def cards(mask: int) -> list[str]:
    return [card_str(c) for c in cards_of(mask)]


def last_trick(t: TrickPlay | None) -> dict[str, Any] | None:
    if t is None or not t.winners:
        return None
    leader, played, winner = t.completed_trick(len(t.winners) - 1)
    return {"leader": SEATS[leader], "winner": SEATS[winner],
            "cards": [{"seat": SEATS[p], "card": card_str(c)} for p, c in played]}
