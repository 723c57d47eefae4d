"""One game state for every variant: deal, auction, exchange, play, scored, over.

    game = find_variant("bid").new_game(rng=new_rng(7))
    game.deal(rng)                  # phase "deal" or "scored" -> the next hand
    game.to_act, game.legal_actions(), game.apply("4 downtown")
    game.view("E")                  # only what East may see
    replay(game.record()) == game

``to_act`` is the player who must act (a seat letter of the variant's ``seats``);
a player who plays a dummy acts for it, and their view shows its cards as legal.
Each variant subclasses ``GameState`` with its phases' rules (engine/variants/).
The record is the JSON of every deal and every action in order (see RECORD.md).
"""

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any
from .actions import CARD_ACTIONS, CARDS, Action, action_text, discard, parse_action
from .cards import BIT, CARD_TEXT, card_str, cards_text, parse_card, suit_str
from .errors import EngineError, IllegalAction
from .seats import SEATS, Seat
from .variant import Variant

if TYPE_CHECKING:  # the trick cores a variant plays its cards in
    from .play import HandState
    from .tricks import TrickPlay


class Phase(StrEnum):
    DEAL = "deal"            # before the first hand
    AUCTION = "auction"      # calls (B2, Y2, R1)
    EXCHANGE = "exchange"    # keep or swap (P1-P3), the kitty or the dummy's discards (B4, Y1)
    PLAY = "play"            # tricks (S6)
    SCORED = "scored"        # a hand is over and written; the next deal is due
    OVER = "over"            # the game (or rubber) is decided


ACTING = (Phase.AUCTION, Phase.EXCHANGE, Phase.PLAY)
# the same as names of this module for the hot paths: in Python 3.11 an enum's member
# looked up on its class (Phase.PLAY) costs ten times a module's name
IN_AUCTION, IN_EXCHANGE, IN_PLAY = ACTING
BEFORE_DEAL, HAND_SCORED, GAME_OVER = Phase.DEAL, Phase.SCORED, Phase.OVER
BETWEEN = (BEFORE_DEAL, HAND_SCORED)     # the phases where the next deal is due


class BadRecord(EngineError):
    """A game record that cannot be read, or a deal that breaks the rules of
    dealing (``rule`` names which). ``deal`` is its index in the record."""

    def __init__(self, message: str, rule: str | None = None, deal: int | None = None) -> None:
        self.rule, self.deal = rule, deal
        super().__init__(message)


class GameState(ABC):
    """A whole game of one variant. Subclasses set the hand up from a deal
    (``_start``), answer ``_legal``, apply checked actions (``_apply``) and
    describe the table (``_table_view``); the base keeps the record and phases.

    While a hand is in play, the cards go straight to the trick core the
    variant names in ``_cards`` (the hot path of playouts): its legal cards are
    the legal actions, and a card it takes is played; anything else, a card it
    refuses included, takes the full way, refused in the variant's words. The
    variant sets ``_cards`` as the play begins, unless rules of its own say which
    cards may be played; the finished hand clears it."""

    _cards: "HandState | TrickPlay | None" = None   # the core of the hand in play

    def __init__(self, variant: Variant, first_dealer: str) -> None:
        self.variant = variant
        self.options = variant.options
        self.phase = Phase.DEAL
        self.dealer: str | None = None
        self.first_dealer = first_dealer
        self.deals: list[dict[str, Any]] = []        # the record: each deal and its actions
        self._actions: list[str] = []                # the actions of the last deal (its record's list)
        self.hands_played = 0

    # --- the interface -----------------------------------------------------

    @property
    @abstractmethod
    def to_act(self) -> str | None:
        """The player to act now, or None (between hands, or over)."""

    def legal_actions(self) -> Sequence[Action]:
        """The actions the player to act may take: a list, or while a hand is
        in play the trick core's tuple (a suit's cards are shared, not copied)."""
        core = self._cards
        if core is not None:
            return core.legal_actions()
        return self._legal() if self.phase in ACTING and self.to_act else []

    def apply(self, action: Action | str) -> None:
        """Apply the action of the player to act; raises IllegalAction naming
        the rule (the state is unchanged then)."""
        core = self._cards
        if core is not None and action.__class__ is Action:
            card = action.card                   # a shared card action (the legal ones, play(c)):
            if card in CARDS and CARD_ACTIONS[card] is action:   # known without hashing its id
                try:
                    last = core.play(card)       # True: the hand's last card
                except IllegalAction:
                    pass                 # refused below, the core unchanged
                else:
                    if last:
                        self._cards = None
                        self._score_hand()
                    self._actions.append(CARD_TEXT[card])
                    return
        act = action if action.__class__ is Action else parse_action(action)
        if act.kind == "discard" and len(act.cards) > 1:
            self._apply_discards(act)
            return
        if self.phase not in ACTING:
            raise IllegalAction(f"no one acts in phase {self.phase}", rule=self._between_rule(),
                                reason="not_in_play", action=str(act), params={"phase": str(self.phase)})
        self._apply(act)
        self._actions.append(action_text(act))

    def _apply_discards(self, act: Action) -> None:
        """``"discard 2C 3D"`` is its cards put away one at a time, in the
        order written: all of them, or none if one is refused."""
        trial = self.copy()
        for card in act.cards:
            trial.apply(discard((card,)))
        self.__dict__.update(trial.__dict__)

    def deal(self, rng: random.Random) -> None:
        """Shuffle and deal the next hand (S3, S4); only between hands. The
        variant sets up the deal it made without reading it back (``_deal``)."""
        self._between_hands()
        dealer = self._next_dealer()
        self._begin(dealer, self._deal(rng, dealer))

    def start_deal(self, raw: dict[str, Any]) -> None:
        """Begin the next hand from a recorded deal (replay, or a deal made
        elsewhere). Raises BadRecord for a deal the rules of dealing refuse."""
        self._between_hands()
        dealer = raw.get("dealer") if isinstance(raw, dict) else None
        if dealer != self._next_dealer():
            raise BadRecord(f"the dealer must be {self._next_dealer()}, not {dealer!r}",
                            rule="S3", deal=len(self.deals))
        entry = {k: v for k, v in raw.items() if k != "actions"}
        self._start(entry)
        self._begin(dealer, entry)

    def _between_hands(self) -> None:
        if self.phase not in BETWEEN:
            raise BadRecord(f"a new deal while the hand is in phase {self.phase}",
                            rule="S6.5", deal=len(self.deals))

    def _begin(self, dealer: str, entry: dict[str, Any]) -> None:
        """Write the deal, set up, into the record: its actions follow. ``entry``
        is the state's own (made by ``_deal`` or copied by ``start_deal``), so it
        takes the actions' list in place, last, as the record writes them."""
        self.dealer = dealer
        entry["actions"] = self._actions = []
        self.deals.append(entry)

    def view(self, seat: str) -> dict[str, Any]:
        """What ``seat`` may see now, as JSON: never another seat's hidden cards."""
        if seat not in self.variant.seats:
            raise EngineError(f"no seat {seat!r} in {self.variant.name}: {', '.join(self.variant.seats)}")
        mine = self.to_act == seat and self.phase in ACTING
        out: dict[str, Any] = {"rules": self.variant.name, "seat": seat, "phase": str(self.phase),
               "to_act": self.to_act, "dealer": self.dealer, "hands_played": self.hands_played,
               "legal": [str(a) for a in self.legal_actions()] if mine else []}
        if self.deals:
            out |= self._table_view(seat)
        out["score"] = self.score()
        return out

    def record(self) -> dict[str, Any]:
        # each deal copied as it is made (texts and lists of them), 8x quicker than deepcopy
        out: dict[str, Any] = {"rules": self.variant.options_json(), "deals": [_copy_deal(d) for d in self.deals]}
        if not self.deals:
            out["first_dealer"] = self.first_dealer   # S3: drawn before any deal
        return out

    def copy(self) -> "GameState":
        """An independent copy: every mutable part copied, the frozen ones shared
        (the variant, its options, the actions; the cores copy themselves)."""
        deals = [_copy_deal(d) for d in self.deals]
        memo: dict[int, Any] = {id(self.variant): self.variant, id(self.options): self.options,
                                id(self.deals): deals}
        if self.deals and self._actions is self.deals[-1]["actions"]:
            memo[id(self._actions)] = deals[-1]["actions"]
        return copy.deepcopy(self, memo)

    @abstractmethod
    def score(self) -> dict[str, Any]:
        """The score sheet so far, as JSON (the variant's own shape)."""

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, GameState) and type(other) is type(self) and self.variant == other.variant
                and self.record() == other.record() and self.phase == other.phase)

    __hash__ = None  # type: ignore[assignment]  # mutable: equal states are not one key

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.variant.name} hand {len(self.deals)}"
                f" {self.phase} to_act={self.to_act}>")

    # --- for the variants --------------------------------------------------

    @abstractmethod
    def _deal(self, rng: random.Random, dealer: str) -> dict[str, Any]:
        """Shuffle, set the hand up and return its deal record: ``{"dealer",
        "hands": {label: [cards]}, ...}``, what ``_start`` would set up from it."""

    @abstractmethod
    def _start(self, deal: dict[str, Any]) -> None:
        """Set the hand up from a deal record (validated: raise BadRecord)."""

    @abstractmethod
    def _legal(self) -> list[Action]: ...

    @abstractmethod
    def _apply(self, action: Action) -> None: ...

    @abstractmethod
    def _table_view(self, seat: str) -> dict[str, Any]: ...

    @abstractmethod
    def _score_hand(self) -> None:
        """Write a finished hand; set the phase to SCORED or OVER."""

    def _play_card_of(self, core: "HandState | TrickPlay", action: Action) -> None:
        """Play the action's card in the trick core (S6): refused with the
        core's rule and the state unchanged, or played; a finished hand is
        written at once."""
        if action.kind != "card":
            raise self._refuse(f"{action} is not a card: the hand is in play", "S6.5",
                               "not_a_card", action, {"action": str(action)})
        assert action.card is not None   # a card action holds its card
        try:
            core.play(action.card)
        except IllegalAction as exc:
            raise self._refuse(exc.detail, exc.rule, exc.reason, action, exc.params) from None
        if core.complete:
            self._cards = None
            self._score_hand()

    def _between_rule(self) -> str:
        return "S7.2" if self.phase == Phase.OVER else "S7.3"

    def _next_dealer(self) -> str:
        """The first dealer, then the deal passes to the left (S3)."""
        if not self.deals:
            return self.first_dealer
        seats = self.variant.seats
        return seats[(seats.index(self.deals[-1]["dealer"]) + 1) % len(seats)]

    def _refuse(self, message: str, rule: str, reason: str, action: Action,
                params: Mapping[str, object] | None = None) -> IllegalAction:
        """The refusal of ``action``: ``reason`` is a code of REFUSALS (engine/errors.py)
        and ``params`` the values its sentence names."""
        return IllegalAction(message, rule=rule, reason=reason, seat=self.to_act, action=str(action),
                             params=params)


def _copy_deal(deal: dict[str, Any]) -> dict[str, Any]:
    """A deal of the record, copied: texts, lists of texts (the actions) and the
    hands' lists of texts, as a deal the state took holds; anything else deep."""
    out: dict[str, Any] = {}
    for key, value in deal.items():
        if type(value) is str:
            out[key] = value
        elif type(value) is list and all(type(v) is str for v in value):
            out[key] = value[:]
        elif key == "hands" and type(value) is dict:
            out[key] = {label: cards[:] if type(cards) is list else copy.deepcopy(cards)
                        for label, cards in value.items()}
        else:
            out[key] = copy.deepcopy(value)
    return out


# --- reading deals -------------------------------------------------------------

def read_cards(raw: object, where: str, count: int | None = None) -> tuple[int, ...]:
    """The cards of one packet of a deal record, checked (BadRecord)."""
    if not isinstance(raw, list):
        raise BadRecord(f"{where}: expected a list of cards")
    try:
        cards = tuple(parse_card(c) for c in raw)
    except EngineError as exc:
        raise BadRecord(f"{where}: {exc}") from None
    if count is not None and len(cards) != count:
        raise BadRecord(f"{where} holds {len(cards)} cards, not {count}", rule="S5")
    return cards


def read_packets(deal: Mapping[str, Any], counts: Mapping[str, int], deck: int) -> dict[str, int]:
    """Every packet of a deal (``{label: count}``), as masks; together they
    must be the whole pack, each card once (S2, B1)."""
    hands = deal.get("hands")
    if not isinstance(hands, dict) or set(hands) != set(counts):
        raise BadRecord(f"hands must be an object with {', '.join(counts)}")
    masks: dict[str, int] = {}
    seen = 0
    for label, count in counts.items():
        mask = 0
        for card in read_cards(hands[label], f"hand {label}", count):
            if (seen | mask) & BIT[card]:
                raise BadRecord(f"{card_str(card)} dealt twice", rule="S2")
            mask |= BIT[card]
        masks[label] = mask
        seen |= mask
    if seen != deck:
        raise BadRecord("the deal is not the whole pack", rule="S2")
    return masks


def packets_json(masks: Mapping[str, int]) -> dict[str, list[str]]:
    return {label: cards_text(m) for label, m in masks.items()}


def trump_text(trump: int | None) -> str | None:
    return None if trump is None else suit_str(trump)


def seat_letter(position: int) -> str:
    return SEATS[position]
