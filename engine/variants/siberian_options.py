"""The options of Siberian whist (part R): every point the seed leaves open
(docs/engine.md, "Points the seeds leave open"), with the common reading as the default.
Fixed before the first deal (S9); presets differ only here.
"""

from dataclasses import dataclass, fields

from ..errors import EngineError

CHOICES = {
    # R1: "each player in turn, starting with the dealer, may name": once round the
    # table, or on until the three players after the highest call have not raised it.
    "auction_rounds": ("once", "until_passes"),
    # R1: "highest named wins": a call must beat the highest so far, or a lower call
    # may be said but never wins (an equal call is never allowed).
    "auction_call": ("strictly_higher", "lower_allowed_ignored"),
    # R1 is silent when all four pass: throw the hand in and pass the deal left (S3),
    # redeal by the same dealer, or the dealer must then name a denomination.
    "all_pass": ("redeal_next_dealer", "redeal_same_dealer", "dealer_declares"),
    # R5: honours held by the partnership together ("мы … имея"), or in one hand.
    "honours_count": ("partnership", "single_hand"),
    # R7: only the side with 7+ tricks counts its aces as honours, or three or four
    # aces count for their holder anyway ("их владельцам"; two still need 7 tricks).
    "nt_ace_honours": ("majority_side_only", "holder_any_for_3_or_4"),
    # R8: the side taking 12 or 13 tricks writes the slam, or only the declarers.
    "slam_side": ("any_side", "declarers_only"),
    # R8: a grand slam is 200 in all, or 300 (the small slam's 100 as well).
    "slam_grand": ("replaces_small", "cumulative"),
    # R3: both sides reach 200 in one deal: the higher total wins the game (a tie to
    # the declarers), or the declarers win it whenever they reached 200.
    "game_both_cross": ("higher_total", "declarers_first"),
    # R3: after a game both sides start from 0 below the line, or the winner's
    # points over 200 carry into the next game (enfilade, L10).
    "game_overflow": ("discard", "carry"),
}
ACES_SCALES = (140, 200)   # R6: 20/30/40/50, or the variant 20/40/60/80


class SiberianOptionsError(EngineError):
    """An option value these rules do not know."""


@dataclass(frozen=True)
class SiberianOptions:
    auction_rounds: str = "once"
    auction_call: str = "strictly_higher"
    all_pass: str = "redeal_next_dealer"
    honours_count: str = "partnership"
    aces_scale: int = 140
    nt_ace_honours: str = "majority_side_only"
    slam_side: str = "any_side"
    slam_grand: str = "replaces_small"
    game_both_cross: str = "higher_total"
    game_overflow: str = "discard"
    # R3 "rubber (two games)": the first side to win this many games wins the
    # rubber, so with 2 it is best of three and a third game is played only at
    # one game all; the rubber's winner writes the deciding game's 100 and 200.
    games_to_win: int = 2

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in CHOICES and value not in CHOICES[f.name]:
                raise SiberianOptionsError(
                    f"{f.name} must be one of {', '.join(CHOICES[f.name])}, not {value!r}")
        if self.aces_scale not in ACES_SCALES:
            raise SiberianOptionsError(f"aces_scale must be 140 or 200, not {self.aces_scale!r}")
        if type(self.games_to_win) is not int or self.games_to_win < 1:
            raise SiberianOptionsError(f"games_to_win must be a whole number from 1, not {self.games_to_win!r}")
