"""Rulesets: every agreement of docs/rules.md parts S, D and L as one frozen value.

A ruleset is chosen before the first card is dealt and never changes during a
game (rule S9): ``Ruleset`` is frozen and a ``Game`` keeps the one it began with.
"""

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .errors import EngineError

TRUMP_MODES = ("turned", "rotation", "fixed", "none")
SCORINGS = ("game", "drive")
DRIVE_SCORES = ("tricks", "over_six")
HONOURS = (None, "three", "two")
HONOURS_LINES = ("below", "above")
GAME_VALUES = (None, "english", "russian")
REVOKE_PENALTIES = ("tricks", "points")


class RulesError(EngineError):
    """An unknown preset or an option outside its allowed values."""


@dataclass(frozen=True)
class Ruleset:
    name: str = "short"
    scoring: str = "game"            # "game": play to a target (S7); "drive": each hand alone (D1)
    target: int = 5                  # S7.2, L3: 5, 7 or 10
    trick_value: int = 1             # L5: 2 in the Russian count
    trump: str = "turned"            # S5 turned card, D2 rotation, a fixed suit, or L11 none
    rotation: tuple[str, ...] = ("H", "D", "S", "C")  # D2; add "NT" for the no-trump hand
    fixed_suit: str = "H"            # the suit when trump == "fixed"
    drive_score: str = "tricks"      # D3: tricks of the partnership, or "over_six"
    hands_per_round: int = 1         # D1
    rubbers: bool = False            # L2
    game_values: str | None = None   # L2b: "english" (single/double/treble) or "russian"
    rubber_bonus: int = 0            # L2b English 2; L6 Russian 10 (20, 30, 40)
    game_bonus: int = 0              # L6 Russian 5
    honours: str | None = None       # L4: "three" (3 for three, default) or "two" (2 for three)
    honours_ten: bool = False        # L4: the trump ten is an honour too
    honours_line: str = "below"      # L4: "below": honours count like tricks, toward the game
                                     # (seed 001: "Онеры засчитываются так же, как и взятки");
                                     # "above": above the line, only in a Russian settlement
    slams: bool = False              # L6
    coronets: bool = False           # L7
    special_suit: bool = False       # L9
    enfilade: bool = False           # L10
    revoke_penalty: str = "tricks"   # L8: 3 tricks or 5 points
    look_back: int = 1               # L2c: completed tricks a player may look at again

    def __post_init__(self) -> None:
        _check(self.scoring in SCORINGS, "scoring", self.scoring)
        _check(self.target in (5, 7, 10), "target", self.target)  # rule L3
        _check(self.trick_value in (1, 2), "trick_value", self.trick_value)
        _check(self.trump in TRUMP_MODES, "trump", self.trump)
        _check(self.fixed_suit in ("S", "H", "D", "C"), "fixed_suit", self.fixed_suit)
        _check(bool(self.rotation) and set(self.rotation) <= {"S", "H", "D", "C", "NT"},
               "rotation", self.rotation)
        _check(self.drive_score in DRIVE_SCORES, "drive_score", self.drive_score)
        _check(self.hands_per_round >= 1, "hands_per_round", self.hands_per_round)
        _check(self.game_values in GAME_VALUES, "game_values", self.game_values)
        _check(self.honours in HONOURS, "honours", self.honours)
        _check(self.honours_line in HONOURS_LINES, "honours_line", self.honours_line)
        _check(self.revoke_penalty in REVOKE_PENALTIES, "revoke_penalty", self.revoke_penalty)
        _check(1 <= self.look_back <= 13, "look_back", self.look_back)
        object.__setattr__(self, "rotation", tuple(self.rotation))

    @property
    def turns_trump(self) -> bool:
        """True when the dealer's last card is turned for trump (S5)."""
        return self.trump == "turned"

    def to_json(self) -> str | dict[str, Any]:
        """The preset name if unchanged, else a dict of the fields that differ."""
        base = PRESETS.get(self.name)
        if base == self:
            return self.name
        diff = {f.name: getattr(self, f.name) for f in fields(self)
                if base is None or getattr(self, f.name) != getattr(base, f.name)}
        diff["name"] = self.name
        if "rotation" in diff:
            diff["rotation"] = list(diff["rotation"])
        return diff

    @classmethod
    def from_json(cls, value: object) -> "Ruleset":
        """A preset name, or ``{"name": preset, ...overrides}``."""
        if isinstance(value, str):
            return preset(value)
        if isinstance(value, dict):
            base = PRESETS.get(value.get("name", "short"))
            known = {f.name for f in fields(cls)}
            unknown = set(value) - known
            if unknown:
                raise RulesError(f"unknown rule options: {sorted(unknown)}")
            try:
                return replace(base, **value) if base else cls(**value)
            except TypeError as exc:
                raise RulesError(str(exc)) from None
        raise RulesError(f"rules must be a preset name or an object, not {value!r}")

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _check(ok: bool, field: str, value: object) -> None:
    if not ok:
        raise RulesError(f"bad rule option {field}={value!r}")


def preset(name: str, **overrides: Any) -> Ruleset:
    """A named preset, optionally with some options changed before play."""
    try:
        base = PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown rules {name!r}; presets: {', '.join(PRESETS)}") from None
    return replace(base, **overrides) if overrides else base


SHORT = Ruleset()
PRESETS = {
    "short": SHORT,                                                  # part S
    "short7": Ruleset(name="short7", target=7),                      # S9, L3
    "short10": Ruleset(name="short10", target=10),                   # S9, L3
    "drive": Ruleset(name="drive", scoring="drive"),                 # D1-D3
    "drive_over_six": Ruleset(name="drive_over_six", scoring="drive", drive_score="over_six"),
    "drive_rotation": Ruleset(name="drive_rotation", scoring="drive", trump="rotation"),
    "drive_rotation_nt": Ruleset(name="drive_rotation_nt", scoring="drive", trump="rotation",
                                 rotation=("H", "D", "S", "C", "NT")),
    "long": Ruleset(name="long", target=10, rubbers=True, game_values="english",
                    rubber_bonus=2, honours="three"),                # L3, L2, L2b, L4
    "rubber": Ruleset(name="rubber", rubbers=True, game_values="english", rubber_bonus=2,
                      honours="three"),                             # short whist by rubbers
    "russian": Ruleset(name="russian", target=10, trick_value=2, rubbers=True,
                       game_values="russian", game_bonus=5, rubber_bonus=10,
                       honours="two", honours_ten=True, honours_line="above", slams=True,
                       coronets=True),                               # L5, L6, L4, L7
    "special_suit": Ruleset(name="special_suit", target=10, trick_value=2, rubbers=True,
                            game_values="russian", game_bonus=5, rubber_bonus=10,
                            honours="two", honours_ten=True, honours_line="above",
                            special_suit=True),                      # L9
    "enfilade": Ruleset(name="enfilade", target=10, trick_value=2, rubbers=True,
                        game_values="russian", game_bonus=5, rubber_bonus=10,
                        honours="two", honours_ten=True, honours_line="above",
                        special_suit=True, enfilade=True),           # L10
    "no_trump": Ruleset(name="no_trump", target=10, trick_value=2, rubbers=True,
                        game_values="russian", game_bonus=5, rubber_bonus=10,
                        trump="none", honours="three", honours_line="above",
                        coronets=True),                              # L11
}
