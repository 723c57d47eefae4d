"""Players and their dummies round the table (rules Y1, Y3, Y6, L12).

A ``Seating`` puts four hands at the positions 0-3 of ``TrickPlay`` (clockwise,
N E S W) and says who plays each: a player plays their own hand and, where they
hold one, their dummy's. Positions 0 and 2 are one side, 1 and 3 the other
(partners opposite, S1), so a dummy always sits opposite its owner (Y3).

``DummyTable`` is the play phase every game with dummies shares: the player to
act for the position on turn, cards from the right hand, and the table's view
(the dummy's cards only once it is faced).
"""

from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import Any

from ..actions import Action, card_actions
from ..cards import BIT, CARD_TEXT, card_str, cards_of, suit_str
from ..errors import EngineError
from ..state import GameState, Phase
from ..tricks import TrickPlay

DUMMY = "dummy"   # the label of the lone dummy of three players (it has no seat, Y1)


@dataclass(frozen=True)
class Seating:
    labels: tuple[str, str, str, str]    # the hand at each position: a player's seat or a dummy
    players: tuple[str, str, str, str]   # who plays the hand at each position

    def position(self, label: str) -> int:
        return self.labels.index(label)

    def player(self, position: int) -> str:
        """The player who acts when ``position`` is to play (Y3: the declarer for the dummy)."""
        return self.players[position]

    def own_position(self, player: str) -> int:
        return self.labels.index(player)

    @property
    def dummies(self) -> tuple[int, ...]:
        return tuple(p for p in range(4) if self.labels[p] != self.players[p])

    def side(self, position: int) -> int:
        return position & 1

    def side_name(self, side: int) -> str:
        """A side by its players: ``"N"`` (N and their dummy), ``"E+S"``."""
        names = []
        for p in (side, side + 2):
            if self.players[p] not in names:
                names.append(self.players[p])
        return "+".join(names)

    def left_of(self, position: int) -> int:
        return (position + 1) & 3

    def __deepcopy__(self, memo: dict[int, object]) -> "Seating":
        return self                 # frozen, of texts: a game's copy shares it


@cache   # a Seating is frozen: each table's is made once (a hand of a dummy game asks for it)
def dummy_opposite(players: tuple[str, ...], holder: str, dummy: str = DUMMY) -> Seating:
    """Three players in their fixed order and a dummy opposite ``holder``:
    clockwise holder, the next player, the dummy, the third (Y3, L12)."""
    i = players.index(holder)
    left, right = players[(i + 1) % 3], players[(i + 2) % 3]
    return Seating((holder, left, dummy, right), (holder, left, holder, right))


@cache
def dummies_opposite(players: tuple[str, str], dummies: tuple[str, str]) -> Seating:
    """Two players, each with a dummy opposite (Y6, L12): N, E and their dummies S, W."""
    a, b = players
    return Seating((a, b, dummies[0], dummies[1]), (a, b, a, b))


def deal_round(deck: list[int], order: list[str], counts: dict[str, int]) -> dict[str, list[int]]:
    """One card at a time to each label of ``order`` in turn, skipping a
    packet once full (S5); ``counts`` must add up to the deck."""
    n = len(order)
    if len(set(order)) == n and all(counts[label] * n == len(deck) for label in order):
        return {label: deck[k::n] for k, label in enumerate(order)}   # equal packets: in turn
    packets: dict[str, list[int]] = {label: [] for label in order}
    i = 0
    for card in deck:
        while len(packets[order[i % len(order)]]) >= counts[order[i % len(order)]]:
            i += 1
        packets[order[i % len(order)]].append(card)
        i += 1
    return packets


def dealt_packets(packets: dict[str, list[int]]) -> tuple[dict[str, list[str]], dict[str, int]]:
    """Each packet's cards as texts in the order dealt (the deal record's) and as a mask:
    both looked up at once for the packet (a deal of the dummy games a hand)."""
    texts: dict[str, list[str]] = {}
    masks: dict[str, int] = {}
    for label, cards in packets.items():
        if len(cards) < 2:                  # itemgetter of one card gives it, not a tuple
            texts[label], masks[label] = [CARD_TEXT[c] for c in cards], sum(BIT[c] for c in cards)
            continue
        get = itemgetter(*cards)
        texts[label], masks[label] = [*get(CARD_TEXT)], sum(get(BIT))
    return texts, masks


class DummyTable(GameState):
    """The tricks of a hand played by players for their own hands and dummies.
    Subclasses set ``seating``, ``tricks`` (a TrickPlay) and ``faced``, and say
    which cards may be played (``_legal_cards``) and what ends the hand."""

    seating: Seating | None = None
    tricks: TrickPlay | None = None
    _faced = False          # set by a subclass whose dummies are faced at a moment of the hand

    @property
    def faced(self) -> bool:
        """The dummies lie open to every seat (a subclass may say when by its own rule)."""
        return self._faced

    @property
    def _tp(self) -> TrickPlay:
        """The hand's tricks: set from the first deal on."""
        if self.tricks is None:
            raise EngineError("no hand has been dealt yet")
        return self.tricks

    @property
    def _seats(self) -> Seating:
        """Who sits where this hand: set from the first deal on."""
        if self.seating is None:
            raise EngineError("no hand has been dealt yet")
        return self.seating

    def _play_to_act(self) -> str | None:
        return self._seats.player(self._tp.turn) if not self._tp.complete else None

    def _legal_cards(self) -> int:
        """The mask of cards the position on turn may play (S6.1-S6.3)."""
        return self._tp.legal_mask()

    def _legal_plays(self) -> list[Action]:
        return card_actions(self._legal_cards())

    def _play_card(self, action: Action) -> None:
        """Play the card of the position on turn; refuse (state unchanged) otherwise."""
        if action.kind != "card":
            raise self._refuse(f"{action} is not a card: the hand is in play", "S6.5",
                               "not_a_card", action, {"action": str(action)})
        tp, card = self._tp, action.card
        assert card is not None          # a card action holds its card
        if not tp.hands[tp.turn] & BIT[card]:
            where = self._seats.labels[tp.turn]
            raise self._refuse(f"{card_str(card)} is not in the hand of {where}, to play now",
                               "S6.1", "not_in_hand", action, {"card": card_str(card)})
        if not self._legal_cards() & BIT[card]:
            rule, reason, params = self._refusal_of(card)
            raise self._refuse(f"{card_str(card)} may not be played now", rule, reason, action, params)
        self._play_card_of(tp, action)

    def _refusal_of(self, card: int) -> tuple[str, str, dict[str, object]]:
        """(rule, reason, params) for a held card the position may not play now."""
        led = self._tp.led_suit()
        return "S6.2", "must_follow_suit", {"card": card_str(card), "suit": None if led is None else suit_str(led)}

    # --- what is shown -----------------------------------------------------------

    def _open_hands(self) -> dict[str, list[str]]:
        if not self.faced:
            return {}
        tp = self._tp
        return {self._seats.labels[p]: [card_str(c) for c in cards_of(tp.hands[p])]
                for p in self._seats.dummies}

    def _play_view(self, seat: str) -> dict[str, Any]:
        """The table as ``seat`` sees it: their hand, the faced dummies, the tricks."""
        tp, seating = self._tp, self._seats
        label = seating.labels
        out: dict[str, Any] = {"hand": [card_str(c) for c in cards_of(tp.hands[seating.own_position(seat)])],
               "trick": [{"seat": label[p], "card": card_str(c)} for p, c in tp.current_trick()],
               "tricks": {seating.side_name(s): tp.won[s] + tp.won[s + 2] for s in (0, 1)},
               "last_trick": None, "open_hands": self._open_hands(),
               "seating": {label[p]: seating.players[p] for p in range(4)}}
        if tp.winners:
            leader, cards, winner = tp.completed_trick(len(tp.winners) - 1)
            out["last_trick"] = {"leader": label[leader], "winner": label[winner],
                                 "cards": [{"seat": label[p], "card": card_str(c)} for p, c in cards]}
        return out

    @staticmethod
    def _view_before_play(hand: int, open_hands: dict[str, int]) -> dict[str, Any]:
        """Before the first lead (auction, declaration): one's own hand and
        the dummies already faced."""
        return {"hand": [card_str(c) for c in cards_of(hand)], "trick": [], "tricks": {},
                "last_trick": None,
                "open_hands": {label: [card_str(c) for c in cards_of(m)] for label, m in open_hands.items()}}

    def _side_tricks(self) -> tuple[int, int]:
        won = self._tp.won
        return (won[0] + won[2], won[1] + won[3])

    def _end_phase(self, over: bool) -> None:
        self.hands_played += 1
        self.phase = Phase.OVER if over else Phase.SCORED


def hands_by_position(seating: Seating, packets: dict[str, int]) -> list[int]:
    return [packets[seating.labels[p]] for p in range(4)]


__all__ = ["DUMMY", "DummyTable", "Seating", "deal_round", "dealt_packets", "dummies_opposite", "dummy_opposite",
           "hands_by_position"]
