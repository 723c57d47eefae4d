"""Siberian whist (part R): an auction of denominations, then thirteen tricks,
scored above and below the line to a rubber.

The dealer calls first (R1), each player naming a denomination (S < C < D < H
< NT) or passing; the highest named wins and its caller's side must take seven
tricks; the player left of the declarer leads. No card is turned and no hand is
faced. The arithmetic is in ``siberian_scoring``, the options in ``siberian_options``.
"""

import random
from typing import Any

from ..actions import PASS, Action, denomination, is_among
from ..cards import FULL_DECK, card_str, cards_of, parse_suit
from ..deal import dealt_masks
from ..errors import EngineError
from ..seats import SEATS, SIDES
from ..state import (IN_AUCTION, IN_PLAY, BadRecord, GameState, Phase, packets_json, read_packets,
                     trump_text)
from ..tricks import TrickPlay, trick_play
from ..variant import Variant
from .siberian_options import SiberianOptions
from .siberian_scoring import DENOMINATIONS, RubberSheet, hand_entries

HAND_SIZE = 13      # S5: the whole pack, thirteen each


class SiberianGame(GameState):
    """A rubber of Siberian whist: auction, play, scored, and so on until a side
    has won ``games_to_win`` games (R3)."""

    def __init__(self, variant: Variant, first_dealer: str) -> None:
        super().__init__(variant, first_dealer)
        self.sheet = RubberSheet(self.options)
        self.deal_hands: tuple[int, ...] = ()
        self.calls: list[tuple[str, str]] = []          # (seat, call text) in order (R1)
        self.declarer: str | None = None
        self.denomination: str | None = None
        self.hand: TrickPlay | None = None
        self.thrown_in = False           # the last hand was passed out (all_pass)
        self._last_hand: dict[str, Any] | None = None   # last_hand, its entries not yet JSON

    @property
    def _tp(self) -> TrickPlay:
        """The hand's tricks: set once the auction names a denomination (R1)."""
        if self.hand is None:
            raise EngineError("the hand is not in play")
        return self.hand

    @property
    def to_act(self) -> str | None:
        if self.phase is IN_AUCTION:
            return SEATS[(SEATS.index(self.dealer) + len(self.calls)) % 4]   # R1: dealer first
        if self.phase is IN_PLAY:
            return SEATS[self._tp.turn]
        return None

    # --- dealing ------------------------------------------------------------------

    def _deal(self, rng: random.Random, dealer: str) -> dict[str, Any]:
        hands, _ = dealt_masks(rng, SEATS.index(dealer))               # S4, S5, no card turned
        self._set_up(hands)
        return {"dealer": dealer, "hands": packets_json(dict(zip(SEATS, hands)))}

    def _start(self, deal: dict[str, Any]) -> None:
        extra = set(deal) - {"dealer", "hands"}
        if extra:
            raise BadRecord(f"unknown deal fields: {sorted(extra)} (no card is turned: R1)", rule="R1")
        masks = read_packets(deal, {s: HAND_SIZE for s in SEATS}, FULL_DECK)
        self._set_up(tuple(masks[s] for s in SEATS))

    def _set_up(self, hands: tuple[int, ...]) -> None:
        self.deal_hands = hands
        self.calls, self.declarer, self.denomination, self.hand = [], None, None, None
        self._high: tuple[int, str, str] | None = None      # _highest(), kept as the calls come
        self.thrown_in = False
        self.phase = Phase.AUCTION

    def _next_dealer(self) -> str:
        if self.thrown_in and self.options.all_pass == "redeal_same_dealer":
            dealer: str = self.deals[-1]["dealer"]
            return dealer
        return super()._next_dealer()

    # --- the auction (R1) ------------------------------------------------------------

    def _highest(self) -> tuple[int, str, str] | None:
        """(index, seat, denomination) of the highest call so far."""
        return self._high

    def _forced(self) -> bool:
        """All four passed and the dealer must now name a denomination."""
        return self.options.all_pass == "dealer_declares" and len(self.calls) >= 4 and self._highest() is None

    def _calls_allowed(self) -> list[Action]:
        if self._forced():
            return list(_NAMED)
        best = self._high
        if best is None:
            return [PASS, *_NAMED]
        low = self.options.auction_call == "lower_allowed_ignored"
        return [*_ALLOWED[low][best[2]]]

    def _call(self, action: Action) -> None:
        if action.kind not in ("pass", "denomination"):
            raise self._refuse(f"{action} is not a call: name S, C, D, H, NT or pass",
                               "R1", "not_a_call", action, {"action": str(action)})
        if not is_among(action, self._calls_allowed()):
            if action.kind == "pass":
                raise self._refuse("all have passed: the dealer must name a denomination",
                                   "R1", "must_declare", action)
            best = self._highest()
            assert best is not None      # a pass is refused only when all passed
            to_beat = best[2]
            raise self._refuse(f"{action} does not beat {to_beat} (S < C < D < H < NT)",
                               "R1", "call_not_higher", action, {"action": str(action), "to_beat": to_beat})
        caller = self.to_act
        assert caller is not None        # a call is applied only for the seat to act
        call = action.strain if action.kind == "denomination" else "pass"     # str(action)
        high = self._high
        if call != "pass" and (high is None or _RANK[call] > _RANK[high[2]]):
            self._high = (len(self.calls), caller, call)
        self.calls.append((caller, call))
        if not self._auction_over():
            return
        best = self._highest()
        if best is None:
            self._throw_in()
        else:
            self._open_play(best[1], best[2])

    def _auction_over(self) -> bool:
        best = self._highest()
        if best is None:
            return len(self.calls) >= 4 and not self._forced()
        if best[2] == "NT" or best[0] >= 4 and all(c == "pass" for _, c in self.calls[:4]):
            return True                                # nothing beats NT; the dealer's forced call
        if self.options.auction_rounds == "once":
            return len(self.calls) == 4
        return len(self.calls) - 1 - best[0] >= 3      # three spoke since without raising it

    def _throw_in(self) -> None:
        """All four passed: no score, the deal passes on (option all_pass)."""
        self.thrown_in = True
        self.hands_played += 1
        self._last_hand = {"thrown_in": True}
        self.phase = Phase.SCORED

    def _open_play(self, declarer: str, denom: str) -> None:
        self.declarer, self.denomination = declarer, denom
        leader = (SEATS.index(declarer) + 1) % 4                       # R1: the declarer's left
        self.hand = self._cards = trick_play(self.deal_hands, (0, 1, 2, 3), leader, _SUIT[denom])
        self.phase = Phase.PLAY

    # --- play ------------------------------------------------------------------

    def _legal(self) -> list[Action]:
        if self.phase is IN_AUCTION:
            return self._calls_allowed()
        return list(self._tp.legal_actions())

    def _apply(self, action: Action) -> None:
        if self.phase is IN_AUCTION:
            self._call(action)
            return
        self._play_card_of(self._tp, action)

    def tricks(self) -> tuple[int, int]:
        won = self.hand.won if self.hand else [0, 0, 0, 0]
        return (won[0] + won[2], won[1] + won[3])

    def _score_hand(self) -> None:
        assert self.declarer is not None and self.denomination is not None   # set by _open_play
        side = SEATS.index(self.declarer) & 1
        tricks = self.tricks()
        entries = hand_entries(self.deal_hands, self.denomination, side, tricks, self.options)
        written = self.sheet.add_hand(entries, side)
        self._last_hand = {"declarer": self.declarer, "denomination": self.denomination,
                           "tricks": dict(zip(SIDES, tricks)), "entries": written}
        self.hands_played += 1
        self.phase = Phase.OVER if self.sheet.winner is not None else Phase.SCORED

    # --- what is shown ------------------------------------------------------------

    def _table_view(self, seat: str) -> dict[str, Any]:
        hand = self.hand
        held = hand.hands[SEATS.index(seat)] if hand else self.deal_hands[SEATS.index(seat)]
        last: dict[str, Any] | None = None
        if hand and hand.winners:
            leader, cards, winner = hand.completed_trick(len(hand.winners) - 1)
            last = {"leader": SEATS[leader], "winner": SEATS[winner],
                    "cards": [{"seat": SEATS[p], "card": card_str(c)} for p, c in cards]}
        return {
            "hand": [card_str(c) for c in cards_of(held)],
            "trump": None if self.denomination is None else trump_text(parse_suit(self.denomination)),
            "trump_card": None,                                        # R1: no card is turned
            "trick": [{"seat": SEATS[p], "card": card_str(c)} for p, c in hand.current_trick()] if hand else [],
            "tricks": dict(zip(SIDES, self.tricks())),
            "last_trick": last,
            "auction": [{"seat": s, "call": c} for s, c in self.calls],
            "contract": None if self.declarer is None else
            {"declarer": self.declarer, "denomination": self.denomination},
            "open_hands": {},                                          # no dummy
        }

    @property
    def last_hand(self) -> dict[str, Any] | None:
        """The last hand: thrown in, or its contract, tricks and entries written (JSON)."""
        last = self._last_hand
        if last is None or "entries" not in last:
            return last
        return {**last, "entries": [e.to_json() for e in last["entries"]]}

    def score(self) -> dict[str, Any]:
        return {**self.sheet.to_json(), "last_hand": self.last_hand}


def _rank(call: str) -> int:
    return DENOMINATIONS.index(call)


_RANK = {d: _rank(d) for d in DENOMINATIONS}
_SUIT = {d: parse_suit(d) for d in DENOMINATIONS}           # the trump of each (NO_TRUMP for NT)
_NAMED = tuple(denomination(d) for d in DENOMINATIONS)     # the calls naming one, low to high
# the calls allowed over each highest call (R1): higher ones, or with auction_call
# "lower_allowed_ignored" any other; by that option, then the highest
_ALLOWED = {low: {best: (PASS, *(named for named, d in zip(_NAMED, DENOMINATIONS)
                                 if _RANK[d] > _RANK[best] or low and d != best))
                  for best in DENOMINATIONS} for low in (False, True)}


VARIANTS = (
    Variant("siberian", "R1-R9", SEATS, SiberianGame, SiberianOptions()),
    Variant("siberian_200", "R1-R9", SEATS, SiberianGame, SiberianOptions(aces_scale=200)),
)
