"""What a robot is: it is given one seat's view and answers an action.

Two entrances, both given the view and nothing else:

- ``choose(view) -> Action`` for any variant: ``view`` is the JSON of
  ``GameState.view(seat)`` (engine/state.py), the seat to act's own.
- ``choose_card(view) -> card`` for plain four-handed whist at speed: ``view``
  is a ``SeatView`` (``HandState.view(seat)``, engine/views.py) or a
  ``LiveView``, the same fields kept up to date in place by a driver so that
  no object is made per decision (the match and bench/robots.py use it).

A robot may remember what earlier views showed it (voids, discards) but holds
no game state: the views are all it ever receives.
"""

from typing import Any, Protocol, runtime_checkable

from ..actions import Action
from ..cards import BIT
from ..views import Played, Quitted, SeatView


@runtime_checkable
class Robot(Protocol):
    name: str

    def __init__(self, seed: int | str = 0) -> None:
        """Every robot is made from a seed alone (ROBOTS[name](seed=...)): a number,
        or text as the match gives each seat (random.Random takes both)."""

    def choose(self, view: dict[str, Any]) -> Action:
        """An action among ``view["legal"]``."""

    def choose_card(self, view: SeatView) -> int:
        """A legal card for ``view.seat`` in plain four-handed whist."""


class LiveView:
    """``SeatView``'s fields, updated in place by ``advance`` after each card:
    what every seat saw fall (``quitted_tricks`` holds every completed trick,
    as a player remembers them), plus the acting seat's own hand (``show``)."""

    __slots__ = ("seat", "hand", "to_play", "legal", "trump", "trump_card", "current_trick",
                 "quitted_tricks", "played", "tricks", "dealer", "open_hands", "_leader")

    def __init__(self, dealer: int, trump: int, trump_card: int | None = None):
        self.seat = self.to_play = (dealer + 1) & 3
        self.hand, self.legal = 0, ()
        self.trump, self.trump_card, self.dealer = trump, trump_card, dealer
        self.current_trick: list[Played] = []
        self.quitted_tricks: list[Quitted] = []
        self.played = 0
        self.tricks = [0, 0]
        self.open_hands: dict[int, int] = {}
        self._leader = self.seat

    def show(self, seat: int, hand: int) -> "LiveView":
        """The view of ``seat``, whose turn it is, holding ``hand``."""
        self.seat, self.hand = seat, hand
        return self

    def advance(self, card: int, winner: int | None) -> None:
        """One card fell; ``winner`` is the trick's winner when it completes it."""
        self.played |= BIT[card]
        trick = self.current_trick
        trick.append((self.to_play, card))
        if winner is None:
            self.to_play = (self.to_play + 1) & 3
            return
        self.quitted_tricks.append((trick[0][0], [c for _, c in trick], winner))
        self.tricks[winner & 1] += 1
        self.current_trick = []
        self.to_play = winner
        self.trump_card = None
