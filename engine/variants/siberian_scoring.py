"""Siberian whist's arithmetic: one hand's points below and above the line
(R2, R4-R8) and the score sheet of games and the rubber (R3).

Sides are 0 (N-S) and 1 (E-W); ``hands`` are the four masks dealt, by position
N E S W; ``tricks`` is (N-S, E-W). Every written figure is an ``Entry``.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import ACE, BIT, JACK, KING, QUEEN, TEN, parse_suit
from .siberian_options import SiberianOptions

DENOMINATIONS = ("S", "C", "D", "H", "NT")                # R1, low to high
TRICK_VALUE = {"S": 2, "C": 4, "D": 6, "H": 8, "NT": 10}  # R2
ACE_VALUES = {140: {"S": 20, "C": 30, "D": 40, "H": 50},  # R6
              200: {"S": 20, "C": 40, "D": 60, "H": 80}}  # R6, the variant
CONTRACT = 7                  # R1: the declaring side must take seven tricks
UNDERTRICK = 100              # R4
SLAM = {12: 100, 13: 200}     # R8
GAME_TARGET, GAME_BONUS, RUBBER_BONUS = 200, 100, 200     # R3
HONOUR_RANKS = (ACE, KING, QUEEN, JACK, TEN)              # R5
NT_ACE_HONOURS = {2: 3, 3: 4, 4: 5}                       # R7: aces held -> honours


@dataclass(frozen=True)
class Entry:
    """One figure written on the sheet: ``what`` is tricks, undertricks,
    honours, aces, nt_aces, slam, game or rubber; ``below`` the line or above."""
    side: int
    what: str
    points: int
    below: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"side": ("NS", "EW")[self.side], "what": self.what, "points": self.points,
                "line": "below" if self.below else "above"}

    def __deepcopy__(self, memo: dict[int, object]) -> "Entry":
        return self                 # frozen, of numbers and texts: a game's copy shares it


_ENTRIES: dict[tuple[int, str, int, bool], Entry] = {}


def entry(side: int, what: str, points: int, below: bool = False) -> Entry:
    """``Entry(side, what, points, below)``, shared: an entry is frozen, and a hand
    writes a few of a small number (a dataclass made anew costs more than the hand's sums)."""
    key = (side, what, points, below)
    made = _ENTRIES.get(key)
    if made is None:
        made = Entry(side, what, points, below)
        if len(_ENTRIES) < 4096:
            _ENTRIES[key] = made
    return made


def side_masks(hands: Sequence[int]) -> tuple[int, int]:
    return (hands[0] | hands[2], hands[1] | hands[3])


def ace_card(suit: str) -> int:
    return _ACE_CARD.get(suit) or 13 * parse_suit(suit) + ACE


_ACE_CARD = {s: 13 * parse_suit(s) + ACE for s in "SHDC"}
_ACE_BITS = tuple(BIT[13 * s + ACE] for s in range(4))
_ACES = sum(_ACE_BITS)
# each suit's honours (R5) and each scale's aces (R6) as masks and (bit, value), made once
_HONOURS = {d: sum(BIT[13 * parse_suit(d) + r] for r in HONOUR_RANKS) for d in "SCDH"}
_ACE_VALUE_BITS = {scale: [(BIT[_ACE_CARD[s]], v) for s, v in values.items()]
                   for scale, values in ACE_VALUES.items()}


def trick_entries(tricks: Sequence[int], denomination: str) -> list[Entry]:
    """R2: both sides write every trick they took at the denomination's value,
    the declarers even when they fail (seed, deal D)."""
    value = TRICK_VALUE[denomination]
    return [entry(side, "tricks", n * value, True) for side, n in enumerate(tricks) if n]


def undertrick_entries(tricks: Sequence[int], declarer_side: int) -> list[Entry]:
    """R4: 100 to the opponents for each trick the declarers fall short of seven."""
    short = max(0, CONTRACT - tricks[declarer_side])
    return [entry(1 - declarer_side, "undertricks", short * UNDERTRICK)] if short else []


def honour_entries(hands: Sequence[int], denomination: str, count: str = "partnership") -> list[Entry]:
    """R5: trump A K Q J 10; three, four or five held score as many tricks at
    the denomination's value (none in no trump: R7 has the aces instead)."""
    if denomination == "NT":
        return []
    honours = _HONOURS.get(denomination) or sum(BIT[13 * parse_suit(denomination) + r] for r in HONOUR_RANKS)
    groups = side_masks(hands) if count == "partnership" else hands
    for index, mask in enumerate(groups):
        held = (mask & honours).bit_count()
        if held >= 3:
            side = index if count == "partnership" else index & 1
            return [entry(side, "honours", held * TRICK_VALUE[denomination])]
    return []


def ace_sums(hands: Sequence[int], scale: int = 140) -> tuple[int, ...]:
    """The face value of each side's aces (R6)."""
    values = _ACE_VALUE_BITS.get(scale) or [(BIT[_ACE_CARD[s]], v) for s, v in ACE_VALUES[scale].items()]
    ns, ew = side_masks(hands)
    return (sum([v for bit, v in values if ns & bit]), sum([v for bit, v in values if ew & bit]))


def ace_entries(hands: Sequence[int], scale: int = 140) -> list[Entry]:
    """R6 in every denomination: the side whose aces are worth more writes the
    difference. This is the seed's table exactly: four aces the full sum, three
    (sum of three) - (the missing one), e.g. without spades 120 - 20 = 100, two
    and two the difference of the pairs (80 - 60 = 20)."""
    ns, ew = ace_sums(hands, scale)
    if ns == ew:
        return []
    return [entry(0 if ns > ew else 1, "aces", abs(ns - ew))]


def nt_ace_entries(hands: Sequence[int], tricks: Sequence[int],
                   mode: str = "majority_side_only") -> list[Entry]:
    """R7: in no trump the side taking more than half the tricks also counts
    two aces as three honours, three as four, four as five (at 10 a trick)."""
    out = []
    for side, mask in enumerate(side_masks(hands)):
        aces = (mask & _ACES).bit_count()
        majority = tricks[side] * 2 > sum(tricks)
        if aces in NT_ACE_HONOURS and (majority or mode == "holder_any_for_3_or_4" and aces >= 3):
            out.append(entry(side, "nt_aces", NT_ACE_HONOURS[aces] * TRICK_VALUE["NT"]))
    return out


def slam_entries(tricks: Sequence[int], declarer_side: int, options: SiberianOptions) -> list[Entry]:
    """R8: twelve tricks 100, thirteen 200 (or 300 with the small slam's too)."""
    out = []
    for side, n in enumerate(tricks):
        if n not in SLAM or options.slam_side == "declarers_only" and side != declarer_side:
            continue
        points = SLAM[n] + (SLAM[12] if n == 13 and options.slam_grand == "cumulative" else 0)
        out.append(entry(side, "slam", points))
    return out


def hand_entries(hands: Sequence[int], denomination: str, declarer_side: int, tricks: Sequence[int],
                 options: SiberianOptions) -> list[Entry]:
    """Everything one played hand writes, in the order of the spec (§1.10):
    tricks below, then undertricks, honours, aces, no-trump aces and slams above.
    Honours and aces go to the side holding them, whatever the contract's fate."""
    out = trick_entries(tricks, denomination) + undertrick_entries(tricks, declarer_side)
    out += honour_entries(hands, denomination, options.honours_count)
    out += ace_entries(hands, options.aces_scale)
    if denomination == "NT":
        out += nt_ace_entries(hands, tricks, options.nt_ace_honours)
    return out + slam_entries(tricks, declarer_side, options)


# --- the sheet: games and the rubber (R3) -------------------------------------------

@dataclass
class GameSheet:
    """One game: points below and above its line. ``carried`` counts toward
    200 (enfilade) but was already settled in the game before."""
    below: list[int] = field(default_factory=lambda: [0, 0])
    above: list[int] = field(default_factory=lambda: [0, 0])
    carried: list[int] = field(default_factory=lambda: [0, 0])
    winner: int | None = None

    def write(self, entry: Entry) -> None:
        (self.below if entry.below else self.above)[entry.side] += entry.points

    def toward_game(self, side: int) -> int:
        return self.below[side] + self.carried[side]

    def net(self) -> int:
        """N-S's points less E-W's, above and below: the seed's settlement."""
        return (self.below[0] + self.above[0]) - (self.below[1] + self.above[1])

    def to_json(self) -> dict[str, Any]:
        net = self.net()
        out: dict[str, Any] = {"below": {"NS": self.below[0], "EW": self.below[1]},
               "above": {"NS": self.above[0], "EW": self.above[1]},
               "winner": _side(self.winner), "net": {"NS": net, "EW": -net}}
        if any(self.carried):
            out["carried"] = {"NS": self.carried[0], "EW": self.carried[1]}
        return out


class RubberSheet:
    """The games of a rubber and every hand's entries (R3)."""

    def __init__(self, options: SiberianOptions) -> None:
        self.options = options
        self.games = [GameSheet()]
        self.hands: list[tuple[Entry, ...]] = []   # each played hand's entries, game and rubber included
        self.winner: int | None = None

    @property
    def current(self) -> GameSheet:
        return self.games[-1]

    def games_won(self, side: int) -> int:
        return sum(1 for g in self.games if g.winner == side)

    def add_hand(self, entries: Sequence[Entry], declarer_side: int) -> list[Entry]:
        """Write one hand; then, if a side reached 200 below, the game (+100),
        a new line, and perhaps the rubber (+200). Returns all written."""
        game, written = self.current, list(entries)
        for e in entries:
            game.write(e)
        winner = self._game_winner(game, declarer_side)
        if winner is not None:
            written += self._close_game(game, winner)
        self.hands.append(tuple(written))
        return written

    def _game_winner(self, game: GameSheet, declarer_side: int) -> int | None:
        crossed = [s for s in (0, 1) if game.toward_game(s) >= GAME_TARGET]
        if len(crossed) < 2:
            return crossed[0] if crossed else None
        if self.options.game_both_cross == "declarers_first":
            return declarer_side
        ns, ew = game.toward_game(0), game.toward_game(1)
        return declarer_side if ns == ew else (0 if ns > ew else 1)

    def _close_game(self, game: GameSheet, winner: int) -> list[Entry]:
        game.winner = winner
        out = [entry(winner, "game", GAME_BONUS)]
        if self.games_won(winner) >= self.options.games_to_win:
            self.winner = winner
            out.append(entry(winner, "rubber", RUBBER_BONUS))
        for e in out:
            game.write(e)
        if self.winner is None:
            nxt = GameSheet()
            if self.options.game_overflow == "carry":      # L10: the excess goes on
                nxt.carried[winner] = game.toward_game(winner) - GAME_TARGET
            self.games.append(nxt)
        return out

    def net(self) -> int:
        """The rubber's settlement, N-S less E-W: the games' nets added."""
        return sum(g.net() for g in self.games)

    def to_json(self) -> dict[str, Any]:
        net = self.net()
        return {"games": [g.to_json() for g in self.games],
                "games_won": {"NS": self.games_won(0), "EW": self.games_won(1)},
                "net": {"NS": net, "EW": -net}, "winner": _side(self.winner)}


def _side(index: int | None) -> str | None:
    return None if index is None else ("NS", "EW")[index]
