"""Four-handed whist with no auction: short, drive and long whist (parts S, D, L).

The hand is played by ``HandState``, the fast core; games, rubbers and the drive's
hands are scored by ``game.py``, ``scoring.py`` and ``drive_scoring.py``.
"""

import random
from typing import Any

from ..actions import Action, card_actions
from ..cards import CARD_TEXT, SUIT_OF, card_str, cards_of, cards_text, parse_suit, suit_str
from ..deal import dealt_masks, trump_for_hand
from ..drive_scoring import drive_hand_scores
from ..errors import EngineError
from ..game import Game, Rubber
from ..play import HandState
from ..record import parse_record
from ..rules import PRESETS, Ruleset
from ..seats import SEATS, SIDES
from ..state import GAME_OVER, HAND_SCORED, IN_PLAY, BadRecord, GameState, Phase, trump_text
from ..variant import Variant


class ClassicGame(GameState):
    """A game to the target (S7.2), a rubber (L2) or a drive's round of
    ``hands_per_round`` hands each scored alone (D1)."""

    def __init__(self, variant: Variant, first_dealer: str):
        super().__init__(variant, first_dealer)
        rules: Ruleset = self.options
        self.rubber = Rubber(rules) if rules.rubbers else None
        self.game = Game(rules) if rules.scoring == "game" and not rules.rubbers else None
        self.drive_totals = [0, 0]
        self.hand: HandState | None = None

    @property
    def to_act(self) -> str | None:
        return SEATS[self._core.turn] if self.phase is IN_PLAY else None

    @property
    def _core(self) -> HandState:
        """The hand dealt last: there is one from the first deal on."""
        if self.hand is None:
            raise EngineError("no hand has been dealt yet")
        return self.hand

    # --- dealing ----------------------------------------------------------------

    def _deal(self, rng: random.Random, dealer: str) -> dict[str, Any]:
        # deal() of engine/deal.py, its draws in the same order, without the Deal
        # it would make only to be read back here (a deal a hand is this state's hot path)
        rules, seat = self.options, SEATS.index(dealer)
        hands, last = dealt_masks(rng, seat)
        raw: dict[str, Any] = {"dealer": dealer, "hands": {"N": cards_text(hands[0]), "E": cards_text(hands[1]),
                                                          "S": cards_text(hands[2]), "W": cards_text(hands[3])}}
        if rules.turns_trump:
            turned: int | None = last
            raw["trump_card"] = CARD_TEXT[last]
            trump = SUIT_OF[last]
        else:
            turned, trump = None, trump_for_hand(rules, len(self.deals), None)
            raw["trump"] = suit_str(trump)
        if self.rubber is not None and self._special_suit_due():
            raw["special_suit"] = "SHDC"[rng.randrange(4)]   # L9: turned at each game's start
            self._set_special_suit(raw["special_suit"])
        self.hand = self._cards = HandState(hands, seat, trump, turned)
        self.phase = IN_PLAY
        return raw

    def _start(self, deal: dict[str, Any]) -> None:
        known = {"dealer", "hands", "trump", "trump_card", "special_suit"}
        if set(deal) - known:
            raise BadRecord(f"unknown deal fields: {sorted(set(deal) - known)}")
        try:
            rec = parse_record({"rules": self.variant.name if self.variant.base is None
                                else self.options.to_json(), "hand_number": len(self.deals),
                                **{k: v for k, v in deal.items() if k != "special_suit"}})
        except EngineError as exc:
            raise BadRecord(str(exc), rule="S5") from None
        self._set_special_suit(deal.get("special_suit"))
        self.hand = self._cards = rec.start()
        self.phase = IN_PLAY

    def _special_suit_due(self) -> bool:
        return bool(self.rubber and self.options.special_suit and self.rubber.current.special_suit is None)

    def _set_special_suit(self, raw: object) -> None:
        if self.rubber is None or not self._special_suit_due():
            if raw is not None:
                raise BadRecord("special_suit is turned only at the start of a game", rule="L9")
            return
        try:
            suit = parse_suit(raw)
        except EngineError:
            raise BadRecord(f"special_suit must be S, H, D or C, not {raw!r}", rule="L9") from None
        if suit > 3:
            raise BadRecord("the special suit is a suit", rule="L9")
        self.rubber.current.special_suit = suit

    # --- play -------------------------------------------------------------------

    def _legal(self) -> list[Action]:
        return card_actions(self._core.legal_mask())

    def _apply(self, action: Action) -> None:
        self._play_card_of(self._core, action)      # no auction, no exchange (S6.5)

    def _score_hand(self) -> None:
        rules, hand = self.options, self._core
        tricks = tuple(hand.tricks)
        self.hands_played += 1
        if rules.scoring == "drive":                                  # D1, D3
            for side, pts in enumerate(drive_hand_scores(tricks, rules)):
                self.drive_totals[side] += pts
            over = self.hands_played >= rules.hands_per_round
        else:
            sheet = self.rubber or self.game
            assert sheet is not None     # a game's rules keep one or the other (__init__)
            sheet.add_hand(tricks, deal_hands=hand.deal_hands, trump=hand.trump)
            over = sheet.winner is not None
        self.phase = GAME_OVER if over else HAND_SCORED

    # --- what is shown -----------------------------------------------------------

    def _table_view(self, seat: str) -> dict[str, Any]:
        hand = self._core
        s = SEATS.index(seat)
        last = hand.last_trick()
        return {
            "hand": [card_str(c) for c in cards_of(hand.hands[s])],
            "trump": trump_text(hand.trump),
            "trump_card": _card(hand.trump_card) if hand.trump_card_visible else None,
            "trick": [{"seat": SEATS[p], "card": _card(c)} for p, c in hand.current_trick()],
            "tricks": {"NS": hand.tricks[0], "EW": hand.tricks[1]},
            "last_trick": None if last is None else {
                "leader": SEATS[last[0]], "winner": SEATS[last[2]],
                "cards": [{"seat": SEATS[(last[0] + i) & 3], "card": _card(c)}
                          for i, c in enumerate(last[1])]},
            "auction": [],
            "open_hands": {},
        }

    def score(self) -> dict[str, Any]:
        if self.options.scoring == "drive":
            ns, ew = self.drive_totals          # the round's winners: more points (D3)
            decided = self.phase == Phase.OVER and ns != ew
            return {"totals": dict(zip(SIDES, self.drive_totals)), "hands": self.hands_played,
                    "winner": (SIDES[0] if ns > ew else SIDES[1]) if decided else None}
        if self.game is not None:
            return {**_game_json(self.game), "winner": _side(self.game.winner)}
        r = self.rubber
        assert r is not None             # neither a drive nor a single game: rubbers
        out: dict[str, Any] = {"games": [_game_json(g) for g in r.games], "winner": _side(r.winner)}
        if r.winner is not None:
            out["points"] = dict(zip(SIDES, r.points()))
        return out


def _game_json(game: Game) -> dict[str, Any]:
    out: dict[str, Any] = {"below": dict(zip(SIDES, game.below)), "above": dict(zip(SIDES, game.above)),
           "winner": _side(game.winner)}
    if game.special_suit is not None:
        out["special_suit"] = suit_str(game.special_suit)
    return out


def _side(index: int | None) -> str | None:
    return None if index is None else SIDES[index]


def _card(card: int | None) -> str | None:
    return None if card is None else card_str(card)


_RULES = {"short": "S1-S9", "short7": "S1-S9, L3", "short10": "S1-S9, L3", "drive": "D1-D3",
          "drive_over_six": "D1-D3", "drive_rotation": "D1-D3", "drive_rotation_nt": "D1-D3",
          "long": "L2-L4", "rubber": "S1-S8, L2, L2b, L4", "russian": "L2-L8",
          "special_suit": "L2-L6, L9", "enfilade": "L2-L6, L9, L10", "no_trump": "L11"}

VARIANTS = tuple(Variant(name, _RULES[name], SEATS, ClassicGame, rules)
                 for name, rules in PRESETS.items())
