"""Options and hand scores of the two-handed games without dummies (P1-P3).

Prussian whist (P1), Humbug (P2) and Humburg (P3) differ only in these options;
every point the seeds leave open is one of them (docs/engine.md,
"Points the seeds leave open"). A hand is scored per player (N and S) with the classic scorer
(tricks over six, slams: scoring.py) plus the two-handed honours, then written
on a ``Game`` or ``Rubber`` (game.py) with ``add_score``.
"""

from dataclasses import dataclass
from functools import cache

from ..game import Game
from ..rules import Ruleset, RulesError
from ..scoring import HandScore, Pair, honours_mask, score_hand

HONOUR_SCHEMES = ("prussian", "humbug")
KEEP_MULTIPLIER = (1, 2, 4)     # P3: by the number of players who kept the hand dealt


@dataclass(frozen=True)
class TwoHandOptions:
    honours: str = "prussian"              # P1: A K Q J, 4/3/2; "humbug": P2, A K Q J 10, 5/4/3/2
    prussian_two_vs_none: str = "no_score"  # P1, point 23: two honours against none score
                                            # nothing (seed 001: "только в случае, если у
                                            # противника лишь один онер"); "score": 2
    humbug_no_trump: bool = False          # P2, point 29: no turn-up, the aces are the honours
    keep_multiplier: bool = False          # P3: one player keeps x2, both keep x4
    humburg_multiply_bonuses: bool = False  # point 30: the game and rubber bonuses too
    swap_order: str = "elder_first"        # point 20: the non-dealer first; "simultaneous"
    two_hand_count: str = "russian"        # point 26: 2 a trick; "english": 1, honours below
    target: int = 10                       # L3, L5: game at 10 below the line
    game_bonus: int = 0                    # point 27 (P1, seed 001 laws); 5 for P2/P3 (point 28)
    rubber_bonus: int = 20                 # point 27; 10 for P2/P3 (point 28)
    slams: bool = True                     # L6: 12 tricks +10, 13 tricks +20 above the line
    rubbers: bool = True                   # L2: best of three games
    reveal_dead_after_hand: bool = False   # point 31: views never show the dead packets

    def __post_init__(self) -> None:
        _check(self.honours in HONOUR_SCHEMES, "honours", self.honours)
        _check(self.prussian_two_vs_none in ("score", "no_score"), "prussian_two_vs_none",
               self.prussian_two_vs_none)
        _check(self.swap_order in ("elder_first", "simultaneous"), "swap_order", self.swap_order)
        _check(self.two_hand_count in ("russian", "english"), "two_hand_count", self.two_hand_count)
        _check(self.target in (5, 7, 10), "target", self.target)
        for name in ("game_bonus", "rubber_bonus"):
            _check(isinstance(getattr(self, name), int) and getattr(self, name) >= 0,
                   name, getattr(self, name))
        for name in ("humbug_no_trump", "keep_multiplier", "humburg_multiply_bonuses", "slams",
                     "rubbers", "reveal_dead_after_hand"):
            _check(isinstance(getattr(self, name), bool), name, getattr(self, name))


def _check(ok: bool, name: str, value: object) -> None:
    if not ok:
        raise RulesError(f"bad option {name}={value!r}")


@cache
def sheet_rules(opts: TwoHandOptions) -> Ruleset:
    """The classic ruleset the score sheet keeps (4.10, 5.8): the Russian count
    (L5: 2 a trick over six, game 10) or the English (1 a trick, L2b values)."""
    russian = opts.two_hand_count == "russian"
    return Ruleset(name="two_hand", target=opts.target, trick_value=2 if russian else 1,
                   trump="none" if opts.humbug_no_trump else "turned", rubbers=opts.rubbers,
                   game_values=("russian" if russian else "english") if opts.rubbers else None,
                   game_bonus=opts.game_bonus, rubber_bonus=opts.rubber_bonus,
                   honours_ten=opts.honours == "humbug", slams=opts.slams)


def honours_held(played: Pair, trump: int, rules: Ruleset) -> Pair:
    """Honours in each player's played hand (P1, P2); the dead packets' count
    for no one (point 25). No trump: the four aces (P2, L11)."""
    honours = honours_mask(trump, rules.honours_ten)
    return (played[0] & honours).bit_count(), (played[1] & honours).bit_count()


def honours_points(held: Pair, opts: TwoHandOptions) -> Pair:
    """Three or more honours score one point each (P1: 4, 3; P2: 5, 4, 3).
    Two score 2 only against fewer (P1 "only if the opponent holds one"; 2
    against 2 nothing); in Prussian whist two against none score nothing,
    as seed 001 says, unless ``prussian_two_vs_none = "score"`` (P1)."""
    pts = [0, 0]
    for side in (0, 1):
        mine, theirs = held[side], held[1 - side]
        if mine >= 3:
            pts[side] = mine
        elif mine == 2 and theirs < 2:
            literal = opts.honours == "prussian" and opts.prussian_two_vs_none == "no_score"
            pts[side] = 0 if theirs == 0 and literal else 2
    return pts[0], pts[1]


def multiplier(kept: int, opts: TwoHandOptions) -> int:
    """P3: x2 when one player plays the hand dealt, x4 when both do."""
    return KEEP_MULTIPLIER[kept] if opts.keep_multiplier else 1


def hand_score(tricks: Pair, played: Pair, trump: int, kept: int,
               opts: TwoHandOptions, rules: Ruleset) -> HandScore:
    """One hand for N and S: trick points and slams (S7.1, L5, L6), honours
    (P1, P2; below the line in the English count), all times the P3 multiplier."""
    base = score_hand(tricks, rules)
    below, above, items = list(base.below), list(base.above), list(base.items)
    honours = honours_points(honours_held(played, trump, rules), opts)
    into = below if opts.two_hand_count == "english" else above
    for side in (0, 1):
        if honours[side]:
            into[side] += honours[side]
            items.append(("honours", side, honours[side]))
    m = multiplier(kept, opts)
    return HandScore((below[0] * m, below[1] * m), (above[0] * m, above[1] * m),
                     tuple((what, side, p * m) for what, side, p in items))


@cache
def hand_scores(opts: TwoHandOptions) -> dict[tuple[int, int, int, int], HandScore]:
    """The hand scores of one set of options, each made once by ``hand_score``
    (frozen, shared): by N's tricks, each player's honours held and the keeps,
    all a hand's score depends on (a few hundred at most)."""
    return {}


def multiply_bonuses(game: Game, rubber_won: bool, m: int, opts: TwoHandOptions) -> None:
    """Point 30 option: the hand that wins a game (a rubber) writes its bonus
    m times; the extra goes above the line of the game it won."""
    if not opts.humburg_multiply_bonuses or m == 1 or game.winner is None:
        return
    extra = opts.game_bonus + (opts.rubber_bonus if rubber_won else 0)
    game.above[game.winner] += (m - 1) * extra
