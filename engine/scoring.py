"""Hand points, honours, slams, coronets and revokes (rules S7, L4-L9, L11).

Points are pairs ``(N-S, E-W)``. "Below the line" points are trick points and
count toward the game; slams, coronets and revoke points are written "above the
line" (seed 001: онеры, коронки, штрафы над чертой) and count only in the
rubber total. Honours count like tricks, toward the game (seed 001: "Онеры
засчитываются так же, как и взятки"), unless the ruleset writes them above the
line (``honours_line = "above"``: the Russian laws).
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TypeAlias

from .cards import ACE, BIT, JACK, KING, NO_TRUMP, QUEEN, TEN
from .errors import EngineError
from .rules import SHORT, Ruleset

REVOKE_TRICKS = 3   # rule L8
REVOKE_POINTS = 5   # rule L8
SMALL_SLAM, GRAND_SLAM = 10, 20  # rule L6
_SLAMS = {12: SMALL_SLAM, 13: GRAND_SLAM}
Pair: TypeAlias = tuple[int, int]              # (N-S, E-W)
Item: TypeAlias = tuple[str, int, int]         # (what, side, points): a line of the score sheet

_CORONETS = {3: 5, 4: 10, 5: 20, 6: 20, 7: 25}  # rule L7; A..9 is not listed, so it scores as A..10


@dataclass(frozen=True)
class HandScore:
    below: Pair = (0, 0)      # trick points (S7.1, L5), and honours counted like tricks (L4)
    above: Pair = (0, 0)      # slams, coronets, revoke points; honours under honours_line="above"
    items: tuple[Item, ...] = field(default=())  # (what, side, points) lines for the score sheet

    @property
    def total(self) -> Pair:
        return (self.below[0] + self.above[0], self.below[1] + self.above[1])


def check_tricks(tricks: Sequence[int]) -> Pair:
    ns, ew = tricks
    if not (0 <= ns <= 13 and 0 <= ew <= 13 and ns + ew == 13):
        raise EngineError(f"tricks must be 0-13 a side and sum to 13, not {ns}-{ew}")
    return ns, ew


def hand_points(tricks: Sequence[int], rules: Ruleset = SHORT) -> Pair:
    """Only the side with more than six tricks scores, per trick over six
    (S7.1), at the ruleset's trick value (L5: doubled in the Russian count).
    The other side scores zero, never negative."""
    ns, ew = check_tricks(tricks)
    v = rules.trick_value
    return (max(0, ns - 6) * v, max(0, ew - 6) * v)


def honour_cards(trump: int, rules: Ruleset) -> tuple[int, ...]:
    """Trump A K Q J, optionally the ten (L4); the four aces in no trump (L11)."""
    if trump == NO_TRUMP:
        return tuple(13 * s + ACE for s in range(4))
    ranks = (ACE, KING, QUEEN, JACK) + ((TEN,) if rules.honours_ten else ())
    return tuple(13 * trump + r for r in ranks)


@cache
def honours_mask(trump: int, ten: bool) -> int:
    """The honours of ``honour_cards`` as a mask (a hand's are counted at every deal)."""
    ranks = (ACE, KING, QUEEN, JACK) + ((TEN,) if ten else ())
    return sum(BIT[c] for c in (tuple(13 * s + ACE for s in range(4)) if trump == NO_TRUMP
                                else tuple(13 * trump + r for r in ranks)))


def honours_points(deal_hands: Sequence[int], trump: int, rules: Ruleset) -> Pair:
    """Honours held by one side at the deal (L4): all of them score 4 (or 5
    with the ten); four of five score 4; three score 3 under scheme "three"
    and 2 under scheme "two"; fewer score nothing."""
    if not rules.honours:
        return (0, 0)
    honours = honours_mask(trump, rules.honours_ten)
    count = honours.bit_count()
    ns = (honours & (deal_hands[0] | deal_hands[2])).bit_count()
    side, held = (0, ns) if ns * 2 > count else (1, count - ns)
    if held == count or held == 4:
        pts = held
    elif held == 3:
        pts = 3 if rules.honours == "three" else 2
    else:
        pts = 0   # two against two cancel
    return (pts, 0) if side == 0 else (0, pts)


def slam_points(tricks: Pair, rules: Ruleset) -> Pair:
    """12 tricks: small slam +10; 13: grand slam +20 (L6)."""
    if not rules.slams:
        return (0, 0)
    return (_SLAMS.get(tricks[0], 0), _SLAMS.get(tricks[1], 0))


def coronet_value(length: int, doubled: bool) -> int:
    """A run from the ace of ``length`` cards (L7): A-K-Q 5, to the J 10, to the
    10 20, to the 8 25, each further card +5; doubled in trumps."""
    if length < 3:
        return 0
    value = _CORONETS.get(length, 25 + 5 * (length - 7))
    return value * 2 if doubled else value


def run_from_ace(h13: int) -> int:
    """Length of the unbroken run from the ace down in a 13-bit holding."""
    return 13 - (~h13 & 0x1FFF).bit_length()     # the highest card missing ends it


def coronet_points(deal_hands: Sequence[int], trump: int, rules: Ruleset) -> Pair:
    """Coronets in one player's hand (L7); all double in no trump (L11)."""
    if not rules.coronets:
        return (0, 0)
    pts = [0, 0]
    for seat, hand in enumerate(deal_hands):
        for suit, crown in enumerate(_CROWNS):
            if hand & crown == crown:           # A K Q at least: a run of three or more
                doubled = trump == NO_TRUMP or suit == trump
                pts[seat & 1] += coronet_value(run_from_ace(hand >> 13 * suit & 0x1FFF), doubled)
    return pts[0], pts[1]


_CROWNS = tuple(0x1C00 << 13 * suit for suit in range(4))     # each suit's A K Q


def revoke_adjustment(tricks: Sequence[int], offender_side: int, rules: Ruleset) -> tuple[Pair, Pair]:
    """The director's penalty for an established revoke (L8): three tricks
    pass from the offenders to the opponents (as many as they have), or the
    opponents score 5 points above the line. Returns (tricks, above points)."""
    ns, ew = check_tricks(tricks)
    if rules.revoke_penalty == "points":
        return (ns, ew), ((0, REVOKE_POINTS) if offender_side == 0 else (REVOKE_POINTS, 0))
    moved = min(REVOKE_TRICKS, (ns, ew)[offender_side])
    if offender_side == 0:
        return (ns - moved, ew + moved), (0, 0)
    return (ns + moved, ew - moved), (0, 0)


def score_hand(tricks: Sequence[int], rules: Ruleset = SHORT, *, deal_hands: Sequence[int] | None = None,
               trump: int | None = None, special_suit: int | None = None,
               revoke_by: int | None = None) -> HandScore:
    """Everything one hand scores. ``deal_hands`` and ``trump`` are needed for
    honours and coronets; ``revoke_by`` is the offending side (0 N-S, 1 E-W);
    honours go below the line with the tricks or above it by ``honours_line``
    (L4); when the trump is the game's special suit every score doubles (L9)."""
    ns, ew = tricks = check_tricks(tricks)
    if (revoke_by is None and not rules.slams and not rules.coronets
            and (not rules.honours or deal_hands is None or trump is None)):
        # tricks alone (short whist, the drive's games, the two-handed sheets):
        # one of a few scores, made once (a hand is scored at the end of every playout)
        v = rules.trick_value
        if rules.special_suit and special_suit is not None and trump == special_suit:
            v *= 2                                   # L9: every score doubles
        return _tricks_score(((ns - 6) * v if ns > 6 else 0, (ew - 6) * v if ew > 6 else 0))
    honours: Pair | None = None
    coronets: Pair | None = None
    if deal_hands is not None and trump is not None:
        honours, coronets = honours_points(deal_hands, trump, rules), coronet_points(deal_hands, trump, rules)
    doubled = bool(rules.special_suit and special_suit is not None and trump == special_suit)
    # all the rest of the score follows from these: made once for each (a HandScore is frozen)
    key = (id(rules), ns, revoke_by, honours, coronets, doubled)
    found = _FULL_SCORES.get(key)
    if found is not None and found[0] is rules:
        return found[1]
    items: list[Item] = []
    above = [0, 0]
    if revoke_by is not None:
        tricks, pen = revoke_adjustment(tricks, revoke_by, rules)
        _add(items, above, "revoke", pen)
    below = list(hand_points(tricks, rules))
    _add(items, above, "slam", slam_points(tricks, rules))
    if honours is not None and coronets is not None:
        _add(items, below if rules.honours_line == "below" else above, "honours", honours)
        _add(items, above, "coronets", coronets)
    if doubled:
        below = [b * 2 for b in below]
        above = [a * 2 for a in above]
        items = [(what, side, pts * 2) for what, side, pts in items]
    made = HandScore((below[0], below[1]), (above[0], above[1]), tuple(items))
    if len(_FULL_SCORES) < 4096:
        _FULL_SCORES[key] = (rules, made)         # the rules kept, so their id names them
    return made


# the scores of score_hand's full way, by the rules' id (checked by identity) and what they follow from
_FULL_SCORES: dict[tuple[object, ...], tuple[Ruleset, HandScore]] = {}


_TRICKS_SCORES: dict[Pair, HandScore] = {}


def _tricks_score(below: Pair) -> HandScore:
    """The score of a hand of tricks alone, shared (a HandScore is frozen)."""
    made = _TRICKS_SCORES.get(below)
    if made is None:
        made = HandScore(below)
        if len(_TRICKS_SCORES) < 256:
            _TRICKS_SCORES[below] = made
    return made


def _add(items: list[Item], line: list[int], what: str, pts: Pair) -> None:
    for side in (0, 1):
        if pts[side]:
            line[side] += pts[side]
            items.append((what, side, pts[side]))


def game_value(loser_points: int, rules: Ruleset) -> int:
    """Single, double or treble game by the losers' points below the line
    (L2b), honours counted like tricks included (L4): to 5, losers at 3-4
    single, 1-2 double, 0 treble; to 10 (and the Russian count), 5+ single,
    1-4 double, 0 treble."""
    if loser_points <= 0:
        return 3
    return 1 if loser_points * 2 >= rules.target else 2
