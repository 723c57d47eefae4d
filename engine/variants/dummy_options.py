"""The options of dummy whist and Double dummy (Y1-Y6): every point seed 003
leaves open (docs/engine.md, "Points the seeds leave open"), the seed's reading
the default. Fixed before the first deal (S9); presets differ only here.
"""

from dataclasses import dataclass

from ..errors import EngineError
from .handed import HandedOptions

NT_JOKER_RULES = ("discard_first_void", "dead")
TIES = ("higher_wins", "shared")


class DummyOptionsError(EngineError):
    """An option of dummy whist outside its values."""


@dataclass(frozen=True)
class DummyOptions:
    players: int = 3                      # Y1: three and a dummy; 2 = double dummy (Y6)
    jokers: bool = False                  # Y1: 52 cards by default (seed's infobox); 54, dummy 15
    zero_bid: bool = False                # Y2: bids 1-7; True allows 0 (six books)
    downtown_beats_uptown: bool = True    # Y2: else equal at the same number
    forced_dealer_min_only: bool = False  # Y2: the forced dealer may bid anything
    discard_book: bool = False            # Y1: the 2 discards are no book
    nt_joker: str = "discard_first_void"  # Y3: a joker must go the first time void; or "dead"
    nt_joker_lead: str = "only_if_forced" # Y3: a joker led only when nothing else; or "allowed"
    boston_bonus: bool = False            # Y4: 13 books on a lower bid score no more
    boston_bid_double: bool = True        # Y4: a bid of 7 scores double
    nt_double: bool = True                # Y4: no trump scores double
    double_stack: str = "once"            # Y4: 7 NT x2; "multiply" x4
    tie: str = "higher_wins"              # two at 21 together: the higher wins, equal play on
    target: int = 21                      # Y4
    double_dummy_mode: str = "auction"    # Y6; "classic" = two_handed (L12)
    classic_rules: str = "short"          # the four-handed ruleset of the classic mode

    def __post_init__(self) -> None:
        for name, ok in (("players", self.players in (2, 3)),
                         ("jokers", not (self.jokers and self.players == 2)),  # 2.2: not in Y6
                         ("nt_joker", self.nt_joker in NT_JOKER_RULES),
                         ("nt_joker_lead", self.nt_joker_lead in ("only_if_forced", "allowed")),
                         ("double_stack", self.double_stack in ("once", "multiply")),
                         ("tie", self.tie in TIES), ("target", self.target >= 1),
                         ("double_dummy_mode", self.double_dummy_mode in ("auction", "classic")
                          and (self.double_dummy_mode == "auction" or self.players == 2))):
            if not ok:
                raise DummyOptionsError(f"{name} may not be {getattr(self, name)!r}")
        HandedOptions(players=2, rules=self.classic_rules)   # a classic preset (L12)

    @property
    def min_bid(self) -> int:
        return 0 if self.zero_bid else 1
