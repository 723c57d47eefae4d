"""Inference from the play: how likely a layout of the hidden cards is, given
the cards the other seats chose to play (the ``strong`` robot's weighting).

A layout dealt by sampling.py fits what the seat saw (cards gone, voids
shown) but not how the others played: a defender who played second hand low
is unlikely to hold a lower card of the suit, one who led a suit is likely
to hold strength there. For each layout, the hand each other seat held at
each of its past decisions of this hand is rebuilt (its cards now in the
layout, plus those it played since), the rules robot (fast_play.py, the
conventional player of seed 001's advice) is asked what it would have played
from that hand and the public history, and the layout is weighed by
``p`` where it agrees with the card played and ``(1 - p) / (n - 1)`` where it
does not (``n`` legal cards; a forced card weighs nothing). ``p`` is one
figure for the opponents and one for the partner.

Everything comes from the ``Situation`` (the seat's own view and memory) and
the layout dealt: no hidden card is ever read. Only plain four-handed whist
(52 cards, uptown, partners opposite, the fast robot's game) is weighed;
elsewhere, or when the seat did not see every trick, every layout weighs 1.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from ..cards import BIT, FULL_DECK, SUIT_MASK
from ..views import Played, Seen
from .fast_play import Memory as RulesMemory, choose_card as rules_card

if TYPE_CHECKING:  # sampling.py weighs its layouts here
    from .sampling import Situation


class _View:
    """The fields of a seat's view that fast_play reads, set in place."""

    __slots__ = ("seat", "hand", "trump", "current_trick", "quitted_tricks", "played")

    def __init__(self, trump: int) -> None:
        self.seat, self.hand, self.trump = 0, 0, trump
        self.current_trick: list[Played] = []
        self.quitted_tricks: list[Seen] = []
        self.played = 0


def can_weigh(sit: "Situation") -> bool:
    """Whether the play of this situation can be replayed by the rules robot."""
    return (sit.seats == (0, 1, 2, 3) and sit.deck == FULL_DECK and sit.ranking == "uptown"
            and tuple(sit.labels) == ("N", "E", "S", "W") and sit.history is not None)


def decisions(sit: "Situation") -> int:
    """How many past plays of hidden hands the weighing reads (a card forced
    by the rules of following counted too): 0 means every layout weighs 1."""
    if not can_weigh(sit):
        return 0
    hidden = set(sit.counts)
    return sum(1 for t in [*(sit.history or ()), sit.trick] for p, _ in t if p in hidden)


@dataclass(frozen=True)
class Fit:
    """How often a seat plays the rules robot's card, by the kind of play: a
    lead, following suit, or a card of another suit (a discard or a ruff).
    """

    lead: float
    follow: float
    discard: float

    def of(self, k: int, led: int, card: int) -> float:
        if not k:
            return self.lead
        return self.follow if card // 13 == led else self.discard


Chance: TypeAlias = float | Fit          # one figure for every kind of play, or one a kind


def _chance(p: Chance, k: int, led: int, card: int) -> float:
    return p.of(k, led, card) if isinstance(p, Fit) else p


def layout_weight(sit: "Situation", hands: list[int], p_opponent: Chance, p_partner: Chance) -> float:
    """The likelihood of the hidden plays so far under the rules robot's
    play, for the hands by position ``hands`` (the known ones and a layout):
    each hidden choice among ``n`` legal cards weighs ``p`` where it is the
    rules robot's card and ``(1 - p) / (n - 1)`` where it is not, ``p`` the
    partner's or the opponents' figure (a ``Fit`` gives one by kind of play)."""
    me = sit.to_play
    hidden = sit.counts
    held = list(hands)
    tricks = [*(sit.history or ()), *([sit.trick] if sit.trick else [])]
    for t in tricks:
        for p, c in t:
            held[p] |= BIT[c]
    view = _View(sit.trump)
    memories = {p: RulesMemory() for p in hidden}
    quitted = view.quitted_tricks
    weight = 1.0
    for t in tricks:
        led = t[0][1] // 13
        trick: list[Played] = []
        view.current_trick = trick
        for k, (p, c) in enumerate(t):
            hand = held[p]
            if p in hidden:
                legal = (hand & SUIT_MASK[led]) or hand if k else hand
                n = legal.bit_count()
                if n > 1:
                    view.seat, view.hand = p, hand
                    p_match = _chance(p_partner if p == me ^ 2 else p_opponent, k, led, c)
                    if rules_card(view, memories[p]) == c:
                        weight *= p_match
                    else:
                        weight *= (1.0 - p_match) / (n - 1)
            held[p] = hand & ~BIT[c]
            view.played |= BIT[c]
            trick.append((p, c))
        if len(t) == 4:
            quitted.append((t[0][0], [c for _, c in t], None))
    return weight


def resample(weights: list[float], k: int, u: float) -> dict[int, int]:
    """Systematic resampling: ``k`` draws in proportion to ``weights`` from one
    uniform ``u`` in [0, 1); returns index -> how many times it was drawn."""
    total = sum(weights)
    if total <= 0:
        return {i: 1 for i in range(min(k, len(weights)))}
    step = total / k
    out: dict[int, int] = {}
    point, acc, i = u * step, 0.0, 0
    for i, w in enumerate(weights):
        acc += w
        while point < acc and sum(out.values()) < k:
            out[i] = out.get(i, 0) + 1
            point += step
    if sum(out.values()) < k:                       # rounding at the top end
        out[i] = out.get(i, 0) + k - sum(out.values())
    return out


__all__ = ["Fit", "can_weigh", "decisions", "layout_weight", "resample"]
