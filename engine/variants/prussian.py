"""Two-handed whist without dummies: Prussian whist, Humbug, Humburg (P1-P3).

Two players sit opposite, N and S; four packets of 13 are dealt to N, E, S, W
and the dealer's last card is turned for trump (P1, S5). Each player, the
non-dealer first, keeps the packet dealt or irrevocably swaps it for the packet
on the right (N takes W, S takes E); the other packets are dead, face down,
seen by no one. Then 13 two-card tricks, the non-dealer leading. Scores per
player: prussian_scoring.py, on a ``Game`` or ``Rubber`` (game.py).

A deal record: ``{"dealer": "N", "hands": {"N", "E", "S", "W"}, "trump_card": "7H"}``
(``"trump": "NT"`` instead when ``humbug_no_trump``); actions ``keep``/``swap``
twice, then the 26 cards.
"""

import random
from typing import Any

from ..actions import KEEP, SWAP, Action, card_actions
from ..cards import BIT, CARD_TEXT, FULL_DECK, NO_TRUMP, SUIT_OF, card_str, cards_of, cards_text
from ..deal import dealt_masks
from ..errors import EngineError
from ..game import Game, Rubber
from ..scoring import HandScore
from ..seats import SEATS
from ..state import (GAME_OVER, HAND_SCORED, IN_EXCHANGE, IN_PLAY, BadRecord, GameState, Phase,
                     packets_json, read_cards, read_packets, trump_text)
from ..tricks import TrickPlay, trick_play
from ..variant import Variant
from .prussian_scoring import (TwoHandOptions, hand_score, hand_scores, honours_held, multiplier,
                               multiply_bonuses, sheet_rules)

PLAYERS = ("N", "S")                    # P1: opposite each other
RIGHT = {"N": "W", "S": "E"}            # P1: the packet on a player's right (the seat before his)
DEALT: dict[str, int] = dict.fromkeys(SEATS, 13)       # P1: four packets of 13


class TwoHandGame(GameState):
    """A rubber (or one game) of Prussian whist, Humbug or Humburg."""

    def __init__(self, variant: Variant, first_dealer: str) -> None:
        super().__init__(variant, first_dealer)
        self.rules = sheet_rules(self.options)
        self.sheet: Rubber | Game = Rubber(self.rules) if self.options.rubbers else Game(self.rules)
        self.packets: dict[str, int] = {}       # label -> the 13 cards dealt there
        self.playing: dict[str, str] = {}       # player -> the label of the packet he plays
        self.decisions: dict[str, str] = {}     # player -> "keep" or "swap", in the order made
        self.trump: int | None = None
        self.turned: int | None = None
        self._turned_kept = False                # the dealer kept the packet with the turned card
        self.tricks: TrickPlay | None = None
        self._scores = hand_scores(self.options)      # made once for these options, shared
        # each hand written: (N's tricks, S's, multiplier, decisions, score); hands_log is its JSON
        self._hands: list[tuple[int, int, int, dict[str, str], HandScore]] = []

    @property
    def to_act(self) -> str | None:
        if self.phase is IN_EXCHANGE:                 # the elder, then the dealer
            elder = self.elder
            return elder if elder not in self.decisions else self.dealer
        if self.phase is IN_PLAY:
            return SEATS[self._tp.turn]
        return None

    @property
    def _tp(self) -> TrickPlay:
        """The hand's tricks: set once both have kept or swapped (P1)."""
        if self.tricks is None:
            raise EngineError("the hand is not in play yet")
        return self.tricks

    @property
    def order(self) -> tuple[str, str | None]:
        """The non-dealer decides first, then the dealer (point 20)."""
        return (self.elder, self.dealer)

    @property
    def elder(self) -> str:
        return "S" if self.dealer == "N" else "N"

    @property
    def dead(self) -> tuple[str, ...]:
        """Labels of the packets out of play (P1: face down, seen by no one)."""
        return tuple(label for label in SEATS if label not in self.playing.values())

    # --- dealing ----------------------------------------------------------------

    def _deal(self, rng: random.Random, dealer: str) -> dict[str, Any]:
        # deal() of engine/deal.py (S4, S5: clockwise from the left), its draws in the
        # same order, without the Deal it would make only to be read back here
        (n, e, s, w), last = dealt_masks(rng, SEATS.index(dealer))
        raw: dict[str, Any] = {"dealer": dealer, "hands": {"N": cards_text(n), "E": cards_text(e),
                                                          "S": cards_text(s), "W": cards_text(w)}}
        masks = {"N": n, "E": e, "S": s, "W": w}
        if not self.rules.turns_trump:
            self._set_up(masks, NO_TRUMP, None)
            raw["trump"] = "NT"                                   # P2 without trumps
        else:
            self._set_up(masks, SUIT_OF[last], last)
            raw["trump_card"] = CARD_TEXT[last]
        return raw

    def _start(self, deal: dict[str, Any]) -> None:
        unknown = set(deal) - {"dealer", "hands", "trump", "trump_card"}
        if unknown:
            raise BadRecord(f"unknown deal fields: {sorted(unknown)}")
        masks = read_packets(deal, DEALT, FULL_DECK)
        self._set_up(masks, *self._read_trump(deal, masks[deal["dealer"]]))

    def _set_up(self, masks: dict[str, int], trump: int, turned: int | None) -> None:
        self.trump, self.turned = trump, turned
        self.packets, self.playing, self.decisions = masks, {"N": "N", "S": "S"}, {}
        self._turned_kept, self.tricks = self.turned is not None, None
        self.phase = IN_EXCHANGE

    def _read_trump(self, deal: dict[str, Any], dealers: int) -> tuple[int, int | None]:
        if self.options.humbug_no_trump:                          # P2: no card is turned
            if deal.get("trump") != "NT" or "trump_card" in deal:
                raise BadRecord('without trumps: "trump": "NT" and no turned card', rule="P2")
            return NO_TRUMP, None
        if "trump" in deal:
            raise BadRecord("trump is the suit of the turned card (trump_card)", rule="S5")
        try:
            card = read_cards([deal.get("trump_card")], "trump_card")[0]
        except BadRecord as exc:
            raise BadRecord(str(exc), rule="S5") from None
        if not dealers & BIT[card]:
            raise BadRecord(f"the turned card {card_str(card)} is not the dealer's", rule="S5")
        return SUIT_OF[card], card

    # --- keep or swap, then play -------------------------------------------------

    def _legal(self) -> list[Action]:
        if self.phase is IN_EXCHANGE:
            return [KEEP, SWAP]
        return card_actions(self._tp.legal_mask())

    def _apply(self, action: Action) -> None:
        if self.phase is IN_EXCHANGE:
            self._decide(action)
        elif action.kind in ("keep", "swap"):
            raise self._refuse("the choice to keep or swap is made once, before play",
                               "P1", "already_decided", action)
        elif action.kind != "card":
            raise self._refuse(f"{action} is not a card: play a card", "S6.1", "not_a_card", action,
                               {"action": str(action)})
        else:
            self._play(action)

    def _decide(self, action: Action) -> None:
        if action.kind not in ("keep", "swap"):
            raise self._refuse(f"{self.to_act} must first keep or swap the packet",
                               "P1", "keep_or_swap", action)
        player = self.to_act
        assert player is not None and self.trump is not None   # set by the deal (_start)
        self.decisions[player] = action.kind
        if action.kind == "swap":
            self.playing[player] = RIGHT[player]                  # P1: irrevocably
            if player == self.dealer:
                self._turned_kept = False                         # P1, P2: lost; the suit stays
        if len(self.decisions) == len(PLAYERS):
            packets, playing = self.packets, self.playing
            hands = [packets[playing["N"]], 0, packets[playing["S"]], 0]    # N and S play (P1)
            self.tricks = self._cards = trick_play(hands, (0, 2), SEATS.index(self.elder), self.trump)  # 4.7
            self.phase = IN_PLAY

    def _play(self, action: Action) -> None:
        self._play_card_of(self._tp, action)

    @property
    def turned_shows(self) -> bool:
        """The turned card lies face up: until the dealer plays to the first
        trick (S5), unless he swapped it away (P1, P2; the suit stays trumps)."""
        return self._turned_kept and (self.tricks is None or len(self.tricks.plays) < 2)

    def _score_hand(self) -> None:
        t, sheet, opts = self._tp, self.sheet, self.options
        decisions = self.decisions
        kept = (decisions.get("N") == "keep") + (decisions.get("S") == "keep")
        won_n, played = t.won[0], (t.deal_hands[0], t.deal_hands[2])
        held = honours_held(played, t.trump, self.rules)
        key = (won_n, held[0], held[1], kept)      # all hand_score reads of the hand
        hs = self._scores.get(key)
        if hs is None:
            hs = self._scores[key] = hand_score((won_n, t.won[2]), played, t.trump, kept, opts, self.rules)
        game = sheet.current if isinstance(sheet, Rubber) else sheet
        sheet.add_score(hs)
        over = sheet.winner is not None
        m = multiplier(kept, opts)
        multiply_bonuses(game, over, m, opts)
        self._hands.append((won_n, t.won[2], m, decisions, hs))     # the hand's decisions are not changed again
        self.hands_played += 1
        self.phase = GAME_OVER if over else HAND_SCORED

    @property
    def hands_log(self) -> list[dict[str, Any]]:
        """Each hand written: tricks, multiplier, decisions and score lines, as JSON."""
        return [{"tricks": {"N": won_n, "S": won_s}, "multiplier": m, "decisions": dict(decisions),
                 "items": [{"what": w, "seat": PLAYERS[s], "points": p} for w, s, p in hs.items],
                 "below": {"N": hs.below[0], "S": hs.below[1]},
                 "above": {"N": hs.above[0], "S": hs.above[1]}}
                for won_n, won_s, m, decisions, hs in self._hands]

    # --- what is shown -----------------------------------------------------------

    def _table_view(self, seat: str) -> dict[str, Any]:
        t = self.tricks
        held = t.hands[SEATS.index(seat)] if t else self.packets[self.playing[seat]]
        out: dict[str, Any] = {"hand": [card_str(c) for c in cards_of(held)],
               "trump": trump_text(self.trump),
               "trump_card": card_str(self.turned) if self.turned_shows and self.turned is not None else None,
               "trick": [], "tricks": {"N": 0, "S": 0}, "last_trick": None,
               "auction": [], "open_hands": {},
               "exchange": [{"seat": p, "call": d} for p, d in self.decisions.items()
                            if p == seat or self._decisions_shown()]}
        if self.options.keep_multiplier and len(self.decisions) == len(PLAYERS):
            out["multiplier"] = multiplier(sum(d == "keep" for d in self.decisions.values()),
                                           self.options)
        if self.options.reveal_dead_after_hand and self.phase in (Phase.SCORED, Phase.OVER):
            out["dead"] = packets_json({label: self.packets[label] for label in self.dead})
        if t:
            out |= _tricks_view(t)
        return out

    def _decisions_shown(self) -> bool:
        """Announced at once (point 20), or both revealed together when simultaneous."""
        return self.options.swap_order == "elder_first" or len(self.decisions) == len(PLAYERS)

    def score(self) -> dict[str, Any]:
        out = (_sheet_json(self.sheet) if isinstance(self.sheet, Rubber)
               else _game_json(self.sheet))
        out["winner"] = _player(self.sheet.winner)
        out["hands"] = self.hands_log
        return out


def _tricks_view(t: TrickPlay) -> dict[str, Any]:
    out: dict[str, Any] = {"trick": [{"seat": SEATS[p], "card": card_str(c)} for p, c in t.current_trick()],
           "tricks": {"N": t.won[0], "S": t.won[2]}}
    if t.winners:
        leader, cards, winner = t.completed_trick(len(t.winners) - 1)
        out["last_trick"] = {"leader": SEATS[leader], "winner": SEATS[winner],
                             "cards": [{"seat": SEATS[p], "card": card_str(c)} for p, c in cards]}
    return out


def _game_json(game: Game) -> dict[str, Any]:
    return {"below": dict(zip(PLAYERS, game.below)), "above": dict(zip(PLAYERS, game.above)),
            "winner": _player(game.winner)}


def _sheet_json(rubber: Rubber) -> dict[str, Any]:
    out: dict[str, Any] = {"games": [_game_json(g) for g in rubber.games]}
    if rubber.winner is not None:
        out["points"] = dict(zip(PLAYERS, rubber.points()))
    return out


def _player(index: int | None) -> str | None:
    return None if index is None else PLAYERS[index]


PRUSSIAN = TwoHandOptions()                                             # P1, 4.9-4.10
HUMBUG = TwoHandOptions(honours="humbug", game_bonus=5, rubber_bonus=10)  # P2, 5.6-5.8
HUMBURG = TwoHandOptions(honours="humbug", game_bonus=5, rubber_bonus=10,
                         keep_multiplier=True)                          # P3, 6.3-6.5

VARIANTS = (Variant("prussian", "P1", PLAYERS, TwoHandGame, PRUSSIAN),
            Variant("humbug", "P1-P2", PLAYERS, TwoHandGame, HUMBUG),
            Variant("humburg", "P1-P3", PLAYERS, TwoHandGame, HUMBURG))
