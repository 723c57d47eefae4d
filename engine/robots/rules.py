"""The ``rules`` robot: seed 001's advice of play (docs/rules.md part H).

Card play: fast_play.py on bit masks for plain four-handed whist (the classic
presets and Siberian whist: 52 cards, uptown, partners opposite), table_play.py
for everything else (jokers, downtown, dummies, two-card tricks); the advice
itself, rule by rule with the seed's numbers, is in advice.py and those two
modules. Calls and exchanges: calls.py, one documented policy per variant.
The robot sees one seat's view a decision and remembers what the views showed.
"""

from typing import Any

from ..actions import Action, parse_action
from ..cards import BIT, NO_TRUMP, card_str, parse_card, parse_suit
from ..seats import SEATS
from ..views import SeatView
from .base import LiveView
from .calls import choose_call
from .fast_play import Memory, choose_card as fast_card
from .table_play import TableMemory, choose_card as table_card


class RulesRobot:
    name = "rules"

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed                    # the rules robot draws nothing at random
        self.memories: dict[int, Memory] = {}          # by seat: fast_play.Memory
        self.tables: dict[str, TableMemory] = {}            # by seat: table_play.TableMemory

    def choose(self, view: dict[str, Any]) -> Action:
        """An action among ``view["legal"]`` (the JSON of ``GameState.view``)."""
        if view["phase"] != "play":
            return parse_action(choose_call(view))
        table = self.tables.setdefault(view["seat"], TableMemory())
        if _plain_whist(view):
            live = _live_view(view, table)
            return parse_action(card_str(fast_card(live, self._memory(live.seat))))
        return parse_action(table_card(view, table))

    def choose_card(self, view: SeatView | LiveView) -> int:
        """A card for ``view.seat`` (a ``SeatView`` or ``LiveView``)."""
        return fast_card(view, self._memory(view.seat))

    def _memory(self, seat: int) -> Memory:
        memory = self.memories.get(seat)
        if memory is None:
            memory = self.memories[seat] = Memory()
        return memory


def _plain_whist(view: dict[str, Any]) -> bool:
    """52 cards, uptown, four hands, partners opposite: the fast path applies."""
    return (view["seat"] in SEATS and "ranking" not in view and "seating" not in view
            and "exchange" not in view and set(view.get("tricks") or {}) == {"NS", "EW"})


def _live_view(view: dict[str, Any], table: TableMemory) -> LiveView:
    """The fast robot's view built from the JSON one: the cards seen fall come
    from what this seat's views showed (the table memory)."""
    trump = NO_TRUMP if view.get("trump") in (None, "NT") else parse_suit(view["trump"])
    table.read(view, tuple(c // 13 for c in range(52)))
    live = LiveView(SEATS.index(view["dealer"]), trump)
    hand = 0
    for c in view["hand"]:
        hand |= BIT[parse_card(c)]
    live.show(SEATS.index(view["seat"]), hand)
    live.current_trick = [(SEATS.index(e["seat"]), parse_card(e["card"])) for e in view["trick"]]
    live.played = table.seen
    last = view.get("last_trick")
    if last:
        live.quitted_tricks = [(SEATS.index(last["leader"]), [parse_card(e["card"]) for e in last["cards"]],
                                SEATS.index(last["winner"]))]
    return live
