"""Classic whist for three and for two with open dummies (rule L12, seed 001 line 166).

"Scoring and rules are just as in whist for four": no auction, the dealer's
last card turned for trump (S5), left of the dealer leads (S6.1), and the
four-handed ruleset's scoring (S7 short whist unless ``rules`` names another
classic preset). Three players: one at a time plays with the dummy opposite
him against the other two, for a whole game (or rubber), then the dummy
passes to the next player; a session is three such games (``rounds``), and
the dummy-holder wins or loses the game's value against each opponent.
Two players: each plays with his own dummy opposite him, N with S, E with W.

A deal record: ``{"dealer", "hands": {"N", "E", "S", "dummy"}, "trump_card"}``
(two players: ``N, E, S, W``). Actions: cards only.
"""

import random
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..cards import BIT, CARD_TEXT, FULL_DECK, card_str, parse_card
from ..deal import shuffled_deck, trump_for_hand
from ..errors import EngineError
from ..game import Game, Rubber
from ..rules import PRESETS, Ruleset
from ..state import IN_PLAY, BadRecord, Phase, read_packets, trump_text
from ..tricks import TrickPlay, trick_play
from ..variant import Variant
from .seating import (DUMMY, DummyTable, Seating, deal_round, dealt_packets, dummies_opposite, dummy_opposite,
                      hands_by_position)


class HandedOptionsError(EngineError):
    """An option of three- or two-handed whist outside its values."""


@dataclass(frozen=True)
class HandedOptions:
    players: int = 3                   # L12: three (one dummy in turn) or two (a dummy each)
    rules: str = "short"               # L12 "as for four": a classic preset (S7 short whist)
    dummy_exposed: str = "after_deal"  # the dummy lies open before the opening lead; or "after_opening_lead"
    rounds: int = 1                    # three players: games each holds the dummy in a session
    session_tie: str = "play_on"       # three players level at the top: another round; or "shared"

    def __post_init__(self) -> None:
        ruleset = PRESETS.get(self.rules)
        for name, ok in (("players", self.players in (2, 3)),
                         ("rules", ruleset is not None and ruleset.scoring == "game"
                          and not ruleset.special_suit),
                         ("dummy_exposed", self.dummy_exposed in ("after_deal", "after_opening_lead")),
                         ("rounds", self.rounds >= 1),
                         ("session_tie", self.session_tie in ("play_on", "shared"))):
            if not ok:
                raise HandedOptionsError(f"{name} may not be {getattr(self, name)!r}")

    @property
    def ruleset(self) -> Ruleset:
        return PRESETS[self.rules]


class HandedGame(DummyTable):
    """Three players taking the dummy in turn, or two each with a dummy (L12)."""

    def __init__(self, variant: Variant, first_dealer: str):
        super().__init__(variant, first_dealer)
        self.handed = self._handed_options()
        self.rules = self.handed.ruleset
        self.holders: list[str] = []          # three players: who held the dummy in each game
        self.sheets: list[Game | Rubber] = []             # a Game or a Rubber per holder (two players: one)
        self.points = {seat: 0 for seat in variant.seats}
        self.winner: str | list[str] | None = None   # a seat, a side, or the seats sharing (L12)
        self.trump_card: int | None = None
        self.dealer_position = 0
        self._new_sheet(first_dealer)

    def _handed_options(self) -> HandedOptions:
        options: HandedOptions = self.options
        return options

    def _new_sheet(self, holder: str) -> None:
        """A game (or rubber) for the next dummy-holder (L12 "in turn")."""
        self.holders.append(holder)
        self.sheets.append(Rubber(self.rules) if self.rules.rubbers else Game(self.rules))

    def _seating(self) -> Seating:
        """The table of the coming hand: the holder opposite the dummy (L12)."""
        if self.handed.players == 3:
            return dummy_opposite(self.variant.seats, self.holders[-1])
        return dummies_opposite(("N", "E"), ("S", "W"))

    @property
    def labels(self) -> tuple[str, ...]:
        return ("N", "E", "S", DUMMY) if self.handed.players == 3 else ("N", "E", "S", "W")

    @property
    def faced(self) -> bool:
        """The dummy lies open from the deal on, or from the opening lead (L12)."""
        if self.tricks is None:
            return False
        return self.handed.dummy_exposed == "after_deal" or bool(self._tp.plays)

    # --- dealing (S3-S5) ----------------------------------------------------------

    def _deal_order(self, dealer: str) -> list[str]:
        """One card at a time clockwise round the table from the dealer's left (S5)."""
        seating = self._seating()
        d = seating.own_position(dealer)
        return [seating.labels[(d + k) & 3] for k in range(1, 5)]

    def _deal(self, rng: random.Random, dealer: str) -> dict[str, Any]:
        deck = shuffled_deck(rng)
        packets = deal_round(deck, self._deal_order(dealer), {label: 13 for label in self.labels})
        texts, masks = dealt_packets(packets)
        raw: dict[str, Any] = {"dealer": dealer, "hands": texts}
        turned = None
        if self.rules.turns_trump:
            turned = deck[51]
            raw["trump_card"] = CARD_TEXT[turned]     # S5: the dealer's last card
        self._set_up(dealer, masks, turned)
        return raw

    def _start(self, deal: dict[str, Any]) -> None:
        known = {"dealer", "hands"} | ({"trump_card"} if self.rules.turns_trump else set())
        if set(deal) != known:
            raise BadRecord(f"a deal has the fields {sorted(known)}, not {sorted(deal)}", rule="S5")
        dealt = read_packets(deal, {label: 13 for label in self.labels}, FULL_DECK)
        turned = None
        if self.rules.turns_trump:
            try:
                turned = parse_card(deal["trump_card"])
            except EngineError:
                raise BadRecord(f"not a card: {deal['trump_card']!r}", rule="S5") from None
            if not dealt[deal["dealer"]] & BIT[turned]:
                raise BadRecord("the turned card is the dealer's own last card", rule="S5")
        self._set_up(deal["dealer"], dealt, turned)

    def _set_up(self, dealer: str, dealt: dict[str, int], turned: int | None) -> None:
        self.trump_card = turned
        self.seating = self._seating()
        self.dealer_position = self._seats.own_position(dealer)
        trump = trump_for_hand(self.rules, self.hands_played, turned)
        leader = self._seats.left_of(self.dealer_position)          # S6.1
        self.tricks = self._cards = trick_play(hands_by_position(self.seating, dealt), (0, 1, 2, 3), leader,
                                              trump)
        self.phase = Phase.PLAY

    # --- play ---------------------------------------------------------------------

    @property
    def to_act(self) -> str | None:
        return self._play_to_act() if self.phase is IN_PLAY else None

    def _legal(self) -> list[Action]:
        return self._legal_plays()

    def _apply(self, action: Action) -> None:
        self._play_card(action)

    def _score_hand(self) -> None:
        tp, sheet = self._tp, self.sheets[-1]
        sheet.add_hand(self._side_tricks(), deal_hands=tp.deal_hands, trump=tp.trump)
        if sheet.winner is None:
            self._end_phase(False)
            return
        if self.handed.players == 2:
            self.winner = self._seats.side_name(sheet.winner)
            self._end_phase(True)
            return
        self._settle(sheet)
        self._end_phase(self._session_over())
        if self.phase == Phase.SCORED:
            seats = self.variant.seats
            self._new_sheet(seats[(seats.index(self.holders[-1]) + 1) % 3])

    def _settle(self, sheet: Game | Rubber) -> None:
        """The dummy-holder wins or loses the game's value from each opponent."""
        value = sheet_value(sheet, self.rules)
        holder = self.holders[-1]
        sign = 1 if sheet.winner == 0 else -1
        for seat in self.points:
            self.points[seat] += sign * (2 * value if seat == holder else -value)

    def _session_over(self) -> bool:
        """Each player has held the dummy ``rounds`` times; level at the top,
        another round (or a shared win)."""
        if len(self.sheets) % 3 or len(self.sheets) < 3 * self.handed.rounds:
            return False
        top = max(self.points.values())
        leaders = [seat for seat, pts in self.points.items() if pts == top]
        if len(leaders) == 1:
            self.winner = leaders[0]
        elif self.handed.session_tie == "shared":
            self.winner = leaders
        return self.winner is not None

    # --- what is shown ------------------------------------------------------------

    def _table_view(self, seat: str) -> dict[str, Any]:
        tp = self._tp
        shows = (self.trump_card is not None and not tp.winners
                 and all(p != self.dealer_position for p, _ in tp.current_trick()))
        return self._play_view(seat) | {
            "trump": trump_text(tp.trump),
            "trump_card": card_str(self.trump_card) if shows and self.trump_card is not None else None,
            "auction": [], "dummy_holder": self.holders[-1] if self.handed.players == 3 else None}

    def score(self) -> dict[str, Any]:
        out: dict[str, Any] = {"games": [self._sheet_json(h, s) for h, s in zip(self.holders, self.sheets)],
               "winner": self.winner}
        if self.handed.players == 3:
            out["points"] = dict(self.points)
        return out

    def _sheet_json(self, holder: str, sheet: Game | Rubber) -> dict[str, Any]:
        seating = (dummy_opposite(self.variant.seats, holder) if self.handed.players == 3
                   else dummies_opposite(("N", "E"), ("S", "W")))
        names = (seating.side_name(0), seating.side_name(1))
        games = sheet.games if isinstance(sheet, Rubber) else [sheet]
        out: dict[str, Any] = {"holder": holder if self.handed.players == 3 else None,
               "games": [{"below": dict(zip(names, g.below)), "above": dict(zip(names, g.above)),
                          "winner": None if g.winner is None else names[g.winner]} for g in games],
               "winner": None if sheet.winner is None else names[sheet.winner]}
        if sheet.winner is not None:
            out["value"] = sheet_value(sheet, self.rules)
        return out


def sheet_value(sheet: Game | Rubber, rules: Ruleset) -> int:
    """What a finished game or rubber is worth: the rubber's points (L2b, L6),
    a game's value (single, double, treble) where the rules count them, else 1."""
    if isinstance(sheet, Rubber):
        return max(sheet.points())
    return sheet.value if rules.game_values else 1


class ClassicDoubleDummy(HandedGame):
    """Double dummy in the classic mode (spec 2.4): two-handed whist of L12
    under dummy whist's options (``double_dummy_mode="classic"``)."""

    def _handed_options(self) -> HandedOptions:
        return HandedOptions(players=2, rules=self.options.classic_rules)


VARIANTS = (
    Variant("three_handed", "L12, S1-S9", ("N", "E", "S"), HandedGame, HandedOptions()),
    Variant("two_handed", "L12, S1-S9", ("N", "E"), HandedGame, HandedOptions(players=2)),
)
