"""Double-dummy values of a position in play: what each legal card is worth in
tricks to the side to play, every hand seen.

DDS (endplay's binding) solves four hands in play, equal in length, with trumps or no
trump. Our masks lay a suit in 13 bits S H D C as DDS does; ranks are
compressed to the cards still in play, so the downtown ranking (B3) and the
jokers as top trumps (B3, Y3) map onto DDS's ace-to-two as long as no suit
holds more than 13 cards in play. Elsewhere (two-card tricks of P1-P3, jokers
in no trump, a trump suit of 14 or 15 with the jokers) the engine's own
alpha-beta search runs on the general trick core within a node budget,
deepening trick by trick; unfinished depths end in an estimate (tricks won
plus the sure winners of each side).
DDS keeps its state per thread (every solve here uses slot 0):
``DDS_LOCK`` lets one solve run at a time in the process, whichever thread
asks (the strong robot's helper threads, a review). A caller may pass a
``stop`` event: a solve not yet begun, or a search in progress, then raises
``Stopped`` instead of working for a decision already made.
"""

import importlib.util
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..cards import BIG_JOKER, BIT, JOKER_SUIT, LITTLE_JOKER, NO_TRUMP, cards_of
from ..tricks import TrickPlay, card_power, card_suits
from ..views import Played


@dataclass
class Position:
    """Hands still held by position (0-3), the trick in progress."""

    hands: list[int]            # masks by position
    seats: tuple[int, ...]
    trick: list[Played]         # [(position, card)]
    leader: int                 # who led the trick in progress (or leads next)
    trump: int
    ranking: str = "uptown"

    @property
    def to_play(self) -> int:
        if not self.trick:
            return self.leader
        i = self.seats.index(self.trick[-1][0])
        return self.seats[(i + 1) % len(self.seats)]


def dds_deal(pos: Position) -> tuple[Any, dict[tuple[int, int], int]] | None:
    """The position as DDS's binary deal and our card for each DDS (suit, rank),
    or None where DDS cannot play these rules."""
    if pos.seats != (0, 1, 2, 3):
        return None
    power, suit = card_power(pos.ranking, pos.trump), card_suits(pos.trump)
    held = [h for h in pos.hands]
    for p, c in pos.trick:
        held[p] |= BIT[c]
    if len({bin(h).count("1") for h in held}) != 1:
        return None
    in_play = held[0] | held[1] | held[2] | held[3]
    by_suit: dict[int, list[int]] = {}
    for c in cards_of(in_play):
        if suit[c] == JOKER_SUIT:
            return None                          # a joker in no trump: no DDS card for it
        by_suit.setdefault(suit[c], []).append(c)
    rank: dict[int, int] = {}                    # DDS ranks 14 (ace) down, by power in play
    back: dict[tuple[int, int], int] = {}
    for s, cards in by_suit.items():
        if len(cards) > 13:
            return None
        for i, c in enumerate(sorted(cards, key=lambda c: -power[c])):
            rank[c] = 14 - i
            back[s, 14 - i] = c
    dds = _dds()
    deal = dds.deal()
    deal.trump = 4 if pos.trump == NO_TRUMP else pos.trump    # DDS: S H D C as ours, 4 no trump
    deal.first = pos.leader
    for p, hand in enumerate(pos.hands):
        for c in cards_of(hand):
            deal.remainCards[p][suit[c]] |= 1 << rank[c]
    for i, (_, c) in enumerate(pos.trick):
        deal.currentTrickSuit[i], deal.currentTrickRank[i] = suit[c], rank[c]
    return deal, back


@cache
def _dds() -> Any:
    """endplay's ctypes binding of DDS (``endplay._dds``), loaded at the first solve and
    without the rest of endplay: its package imports numpy and matplotlib (0.48 s of CPU
    against 0.02 s, in every process that solves) for dealing and drawing the engine does
    not use.
    Registered as ``endplay._dds``, endplay's own name for it, so an ``import endplay``
    later shares it (one DDS initialisation). (A library, not a project module: the floors allow it here.)"""
    loaded = sys.modules.get("endplay._dds")
    if loaded is not None:
        return loaded
    package = importlib.util.find_spec("endplay")   # found, not run
    if package is None or not package.submodule_search_locations:
        raise ImportError("endplay (DDS) is not installed")
    path = Path(package.submodule_search_locations[0]) / "_dds" / "__init__.py"
    spec = importlib.util.spec_from_file_location("endplay._dds", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"no DDS binding at {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["endplay._dds"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules["endplay._dds"]
        raise
    return module


def load_solver() -> None:
    """Load the solver's binding now: a robot with a deadline loads it when it is made,
    so its first decision does not spend the deadline importing."""
    _dds()


DDS_LOCK = threading.Lock()     # one DDS solve at a time in this process (thread slot 0)
_POLL = 0.05                    # seconds between looks at the stop event while the lock is held elsewhere
# SolveBoard's arguments for every legal card with its tricks (endplay's SolveMode.Default):
# no target, all cards, mode 1 (the transposition table kept for the same deal), thread slot 0.
_TARGET, _SOLUTIONS, _MODE, _THREAD = 0, 3, 1, 0


def solve_board(deal: Any) -> Any:
    """DDS's SolveBoard on a deal of ``dds_deal``: its ``futureTricks`` (each legal card,
    the cards equal to it and its tricks). Called under ``DDS_LOCK``."""
    dds = _dds()
    solved = dds.futureTricks()
    dds.SolveBoard(deal, _TARGET, _SOLUTIONS, _MODE, solved, _THREAD)
    return solved


class Stopped(Exception):
    """The caller set its stop event: the work is no longer wanted."""


def dds_values(pos: Position, stop: threading.Event | None = None) -> dict[int, int] | None:
    """Tricks the side to play wins from here (the trick in progress
    included) after each legal card, by DDS; None where DDS does not apply.
    Waits for any other thread's solve to end (raising ``Stopped`` if
    ``stop`` is set meanwhile)."""
    made = dds_deal(pos)
    if made is None:
        return None
    deal, back = made
    while not DDS_LOCK.acquire(timeout=_POLL if stop is not None else -1):
        if stop is not None and stop.is_set():   # a blocking acquire (no stop) never loops
            raise Stopped
    try:
        if stop is not None and stop.is_set():
            raise Stopped
        solved = solve_board(deal)
    finally:
        DDS_LOCK.release()
    values: dict[int, int] = {}
    for i in range(solved.cards):
        score = solved.score[i]
        if score == -1:
            continue
        holding, suit = (1 << solved.rank[i]) | solved.equals[i], solved.suit[i]
        for r in range(2, 15):                   # the card DDS names and those equal to it
            if holding >> r & 1:
                values[back[suit, r]] = score
    return values


def dds_play_line(pos: Position, plays: list[int]) -> list[int] | None:
    """North-South's tricks for the whole hand with perfect play from each point of a
    hand played from ``pos`` (the start of a trick): before each card of ``plays`` and
    after the last, by one DDS AnalysePlay (its transposition table kept along the
    play: about 2.4 times faster than solving each position); None where DDS does not
    apply to ``pos``."""
    made = dds_deal(pos)
    if made is None or pos.trick:
        return None
    deal, back = made
    dds = _dds()
    rank = {card: r for (_, r), card in back.items()}
    suit = card_suits(pos.trump)
    trace = dds.playTraceBin()
    trace.number = len(plays)
    for i, card in enumerate(plays):
        trace.suit[i], trace.rank[i] = suit[card], rank[card]
    solved = dds.solvedPlay()
    with DDS_LOCK:
        dds.AnalysePlayBin(deal, trace, solved, _THREAD)
    # DDS counts for the declarer, the side after the leader's, and stops before the last
    # trick, where every card is forced: the count stays as it is to the end.
    total = sum(bin(h).count("1") for h in pos.hands) // 4
    declarer = list(solved.tricks[:solved.number])
    declarer += declarer[-1:] * (len(plays) + 1 - len(declarer))
    return declarer if pos.leader & 1 else [total - t for t in declarer]


# --- the engine's own search --------------------------------------------------

class Budget:
    """A count of nodes: the work, the same on every machine; a ``stop``
    event set by the caller ends the search (``Stopped``)."""

    def __init__(self, nodes: int, stop: threading.Event | None = None):
        self.left, self.stop = nodes, stop

    def spend(self) -> bool:
        self.left -= 1
        if self.stop is not None and not self.left & 255 and self.stop.is_set():
            raise Stopped
        return self.left >= 0


class _Out(Exception):
    """The node budget ran out in the middle of a depth."""


class _Core(TrickPlay):
    """The general trick core where, in no trump, a joker may also be thrown
    at any time (bid whist's option, B3): the search then plays a superset
    of the legal cards, and a trick in progress where a seat threw a joker
    while a layout gives it the suit led is replayed, not refused."""

    __slots__ = ()

    def __init__(self, hands: list[int], seats: tuple[int, ...], leader: int, trump: int, ranking: str):
        super().__init__(hands, seats, leader, trump, ranking)
        self._own_legality = trump == NO_TRUMP and any(h & _JOKERS for h in hands)

    def legal_mask(self) -> int:
        mask = super().legal_mask()
        if self._own_legality and self.trick:
            mask |= self.hands[self.turn] & _JOKERS
        return mask

    def copy(self) -> "_Core":
        new = _Core.__new__(_Core)
        for name in TrickPlay.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands, new.trick, new.winners = self.hands[:], self.trick[:], self.winners[:]
        new.plays, new.won = self.plays[:], self.won[:]
        return new

    __copy__ = copy


_JOKERS = BIT[LITTLE_JOKER] | BIT[BIG_JOKER]


def core_of(pos: Position) -> TrickPlay:
    held = list(pos.hands)
    for p, c in pos.trick:
        held[p] |= BIT[c]
    tp = _Core(held, pos.seats, pos.leader, pos.trump, pos.ranking)
    for _, c in pos.trick:
        tp.play(c)
    return tp


def search_values(pos: Position, nodes: int, moves: Iterable[int] | None = None,
                  stop: threading.Event | None = None) -> dict[int, float]:
    """Tricks the side to play wins from here after each card (``moves``, by
    default the legal ones), by alpha-beta deepening trick by trick until
    the whole hand is searched or the budget runs out (or ``stop`` is set:
    ``Stopped``)."""
    root = core_of(pos)
    side = root.turn & 1
    base = root.won[side] + root.won[side + 2]
    moves = list(moves or root.legal_moves())
    left = root.tricks_in_hand - len(root.winners)
    budget, best = Budget(nodes, stop), None
    for depth in range(1, left + 1):
        try:
            values: dict[int, float] = {}
            for c in moves:
                child = root.copy()
                child.play(c)
                values[c] = _alphabeta(child, side, len(root.winners) + depth, -1.0, 99.0, budget) - base
            best = values
        except _Out:
            break
    if best is None:
        best = {c: _estimate(_after(root, c), side) - base for c in moves}
    return best


def _after(tp: TrickPlay, card: int) -> TrickPlay:
    child = tp.copy()
    child.play(card)
    return child


def _alphabeta(tp: TrickPlay, side: int, stop: int, alpha: float, beta: float, budget: Budget) -> float:
    if tp.complete or (not tp.trick and len(tp.winners) >= stop):
        return _estimate(tp, side)
    if not budget.spend():
        raise _Out
    maxing = tp.turn & 1 == side
    for c in _distinct_moves(tp):
        v = _alphabeta(_after(tp, c), side, stop, alpha, beta, budget)
        if maxing:
            alpha = max(alpha, v)
        else:
            beta = min(beta, v)
        if alpha >= beta:
            break
    return alpha if maxing else beta


def _distinct_moves(tp: TrickPlay) -> list[int]:
    """Legal cards, one of each run of equals (cards of one hand touching in
    the order of the cards still in play)."""
    legal = tp.legal_moves()
    if len(legal) < 2:
        return list(legal)
    alive = 0
    for h in tp.hands:
        alive |= h
    for _, c in tp.trick:
        alive |= BIT[c]                         # a card in the trick parts two of mine
    mine = tp.hands[tp.turn]
    order = sorted(cards_of(alive), key=lambda c: (tp.suit[c], tp.power[c]))
    out: list[int] = []
    prev: int | None = None
    legal_set = set(legal)
    for c in order:
        if c in legal_set:
            if prev is None or tp.suit[prev] != tp.suit[c]:
                out.append(c)
            prev = c
        elif not mine & BIT[c]:
            prev = None
    return out


def _estimate(tp: TrickPlay, side: int) -> float:
    """Tricks won by ``side``, plus its sure winners (the top cards of each
    suit it holds in an unbroken run) and half of what is left unclaimed."""
    won = tp.won[side] + tp.won[side + 2]
    left = tp.tricks_in_hand - len(tp.winners)
    if left == 0:
        return float(won)
    alive = [h for h in tp.hands]
    sure = [0, 0]
    suits: dict[int, list[tuple[int, int]]] = {}
    for p, h in enumerate(alive):
        for c in cards_of(h):
            suits.setdefault(tp.suit[c], []).append((tp.power[c], p))
    for cards in suits.values():
        cards.sort(reverse=True)
        owner = cards[0][1] & 1
        run = 0
        for _, p in cards:
            if p & 1 != owner:
                break
            run += 1
        sure[owner] += run
    mine, theirs = min(sure[side], left), min(sure[1 - side], left)
    rest = max(left - mine - theirs, 0)
    return won + mine + rest / 2


__all__ = ["DDS_LOCK", "Position", "Stopped", "dds_deal", "dds_play_line", "dds_values", "search_values"]
