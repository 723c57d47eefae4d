"""Bid whist's tricks and the kitty's discards (rules B3, B4).

``BidTricks`` is the general trick core (jokers top trumps, worthless in no
trump, a joker led in no trump sets no suit) with the options of how no-trump
jokers are played; ``discard_rule`` says which jokers the options bury or keep.
"""

from collections.abc import Iterable

from ..cards import JOKERS, NO_TRUMP, mask_of
from ..play import IllegalPlay
from ..tricks import TrickPlay
from .bid_rules import BidOptions

KITTY = 6                       # B1
JOKER_MASK = mask_of(JOKERS)


class BidTricks(TrickPlay):
    """Twelve tricks of four (B4: the kitty is the thirteenth book)."""

    __slots__ = ("joker_follow", "joker_lead")

    def __init__(self, hands: Iterable[int], leader: int, trump: int, ranking: str,
                 options: BidOptions) -> None:
        super().__init__(hands, (0, 1, 2, 3), leader, trump, ranking)
        self.joker_follow, self.joker_lead = options.nt_joker_follow, options.nt_joker_lead
        # the options that change which jokers may go in no trump (B3): legal_mask asks them
        self._own_legality = trump == NO_TRUMP and (self.joker_follow == "any_time"
                                                    or self.joker_lead == "only_if_forced")

    def legal_mask(self) -> int:
        mask = super().legal_mask()
        if self.trump != NO_TRUMP:
            return mask
        jokers = self.hands[self.turn] & JOKER_MASK
        if self.trick and self.joker_follow == "any_time":
            mask |= jokers                      # a joker may be thrown at any time
        if not self.trick and self.joker_lead == "only_if_forced" and mask & ~JOKER_MASK:
            mask &= ~JOKER_MASK                 # a joker is led only when nothing else is left
        return mask

    def _refusal(self, card: int) -> IllegalPlay:
        """A held joker led while the rules keep it back (B3); TrickPlay.play asks
        only under the options that change which jokers may go (_own_legality)."""
        if not self.trick and card in JOKERS:
            return IllegalPlay("joker_lead", self.turn, card, len(self.plays), rule="B3")
        return super()._refusal(card)

    def copy(self) -> "BidTricks":
        new = BidTricks.__new__(BidTricks)
        for name in TrickPlay.__slots__ + BidTricks.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands, new.trick, new.winners = self.hands[:], self.trick[:], self.winners[:]
        new.plays, new.won = self.plays[:], self.won[:]
        return new

    __copy__ = copy


def discard_rule(held: int, no_trump: bool, options: BidOptions) -> tuple[int, int]:
    """(cards that must go, cards that may not go) among the bidder's 18 (B4):
    any cards by default; under the options no jokers buried in a trump hand,
    or every joker buried in no trump."""
    jokers = held & JOKER_MASK
    if not no_trump and options.kitty_discard == "no_jokers_in_trump":
        return 0, jokers
    if no_trump and options.nt_jokers == "must_discard":
        return jokers, 0
    return 0, 0
