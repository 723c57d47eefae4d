"""A variant: a named preset of one game's rules, like python-chess's variants.

    find_variant("bid").new_game(rng=new_rng(7))

``options`` is the variant's frozen options (a ``Ruleset`` for the classic
games, a dataclass of its own elsewhere), fixed before the first deal (S9).
"""

import random
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from .errors import EngineError

if TYPE_CHECKING:  # a variant names the class that plays it
    from .state import GameState


@dataclass(frozen=True)
class Variant:
    name: str
    rules: str                  # its numbers in docs/rules.md, e.g. "B1-B5"
    seats: tuple[str, ...]      # where the players sit, in the order the deal passes
    game: "Callable[[Variant, str], GameState]"  # the GameState subclass that plays it
    options: Any                # frozen options; presets differ only here
    base: "Variant | None" = None  # the preset these options were changed from

    @property
    def players(self) -> int:
        return len(self.seats)

    def new_game(self, rng: random.Random | None = None, first_dealer: str | None = None) -> "GameState":
        """A game before its first deal; the first dealer is drawn at random (S3)."""
        if first_dealer is None:
            first_dealer = self.seats[(rng or random.Random()).randrange(len(self.seats))]
        if first_dealer not in self.seats:
            raise EngineError(f"no seat {first_dealer!r} in {self.name}")
        return self.game(self, first_dealer)

    def with_options(self, **changes: Any) -> "Variant":
        """The same game with some options changed before play (S9)."""
        try:
            options = replace(self.options, **changes)
        except TypeError as exc:
            raise EngineError(f"{self.name}: {exc}") from None
        return replace(self, options=options, base=self.base or self)

    def options_json(self) -> str | dict[str, Any]:
        """The preset's name, or ``{"name": preset, ...options changed}``."""
        if self.base is None:
            return self.name
        to_json = getattr(self.options, "to_json", None)
        if to_json is not None:
            written: str | dict[str, Any] = to_json()
            return written
        default = self.base.options
        diff = {f.name: getattr(self.options, f.name) for f in fields(self.options)
                if getattr(self.options, f.name) != getattr(default, f.name)}
        return {"name": self.base.name, **diff}

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "players": self.players, "seats": list(self.seats),
                "rules": self.rules}

