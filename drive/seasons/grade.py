"""The whist grade from plain hands: pure Python, no Django, no ORM (issue 22).

Every hand is a contest of two partnerships with a margin in tricks. Each hand, in order
of play (the evening's start, then round, table, hand), is one game of OpenSkill's
Thurstone-Mosteller model (``openskill`` 6.2, ``ThurstoneMostellerFull``): two teams,
N-S and E-W, each of its two partners, scored by their tricks (``scores=[ns, 13 - ns]``,
so the trick margin is the score). The update therefore credits each player through both
partners and both opponents: beating strong opponents with a weak partner raises a
rating more than the same result the other way round.

The parameters, chosen for a game where the deal weighs more than the players:

- ``MU`` 25 and ``SIGMA`` 25/3: OpenSkill's prior for a new player;
- ``BETA`` 25 (three prior sigmas, where the library's default is half a sigma): one hand
  of whist says little, so a player one prior sigma better than the field, with an
  average partner against average opponents, wins about 59 % of hands, not 92 %;
- ``TAU`` 25/3000 a hand (the library's is 25/300 a game): skill drifts over evenings,
  not over the twenty-odd hands of one;
- ``MARGIN`` 1 trick: OpenSkill 6.2's score margin. A side that wins by more than one
  trick (every margin but 7-6) has the skill gap the model expected divided by
  ``log1p(margin / MARGIN)`` (1.39 for 8-5 ... 2.64 for 13-0), so a convincing win moves
  the ratings further than a narrow one.

**The grade shown** is the share of tricks the player's side would expect with an
average partner against average opponents, in per cent (50 = average; higher is better).
"Average" is the field: a rating with the mean ``mu`` of every rated player (``average``,
summed exactly with ``math.fsum``) and no uncertainty. With the player's rating
``(mu, sigma)`` and the field's mean ``m``:

1. the model's win probability of the team (player, average) against (average, average),
   ``p = model.predict_win([[player, avg], [avg, avg]])[0]``, which for two teams is
   ``p = Phi((mu - m) / sqrt(2 * BETA**2 + sigma**2))`` (``Phi`` the standard normal
   distribution; the player's own uncertainty pulls a new player's grade towards 50);
2. the trick share ``q`` for which a side taking each of the 13 tricks with probability
   ``q`` wins the hand (7 tricks or more) with that probability:
   ``sum(C(13, k) * q**k * (1 - q)**(13 - k) for k in 7..13) == p``, solved by bisection
   (the left side rises strictly with ``q``; ``p = 0.5`` gives exactly ``q = 0.5``);
3. ``grade = 100 * q``: p = 0.60 shows as 53.4, p = 0.70 as 57.1, p = 0.40 as 46.6.

A grade is provisional until it rests on ``PROVISIONAL_HANDS`` (60) hands.

Everything is deterministic: the same hands in the same order give the same floats, so
rating an evening onto stored ratings gives exactly what rating every hand from scratch
gives (the stored floats are IEEE doubles both ways).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from openskill.models import ThurstoneMostellerFull, ThurstoneMostellerFullRating

TRICKS = 13
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0
TAU = 25.0 / 3000.0
MARGIN = 1.0
PROVISIONAL_HANDS = 60

MODEL = ThurstoneMostellerFull(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, margin=MARGIN)


@dataclass(frozen=True)
class Hand:
    """One hand as the grade reads it: the players of each side (player ids) and the tricks
    N-S took (E-W took the rest of 13)."""

    ns: tuple[int, int]
    ew: tuple[int, int]
    ns_tricks: int

    def __post_init__(self) -> None:
        if not 0 <= self.ns_tricks <= TRICKS:
            raise ValueError(f"N-S tricks {self.ns_tricks} out of 0..{TRICKS}")
        if len({*self.ns, *self.ew}) != 4:
            raise ValueError("a hand has four different players")


@dataclass(frozen=True)
class Rating:
    """A player's rating: the model's belief (mu, sigma) and how many hands it rests on."""

    mu: float = MU
    sigma: float = SIGMA
    hands: int = 0


NEW = Rating()


def _model_rating(rating: Rating) -> ThurstoneMostellerFullRating:
    return MODEL.rating(mu=rating.mu, sigma=rating.sigma)


def rate_hand(ratings: Mapping[int, Rating], hand: Hand) -> dict[int, Rating]:
    """The four players' ratings after one hand ({player: Rating}; a player not in
    `ratings` starts from the prior)."""
    players = (*hand.ns, *hand.ew)
    before = [ratings.get(player, NEW) for player in players]
    n, s, e, w = (_model_rating(rating) for rating in before)
    (n, s), (e, w) = MODEL.rate([[n, s], [e, w]], scores=[float(hand.ns_tricks), float(TRICKS - hand.ns_tricks)])
    return {player: Rating(mu=after.mu, sigma=after.sigma, hands=old.hands + 1)
            for player, old, after in zip(players, before, (n, s, e, w), strict=True)}


def rate(ratings: Mapping[int, Rating], hands: Iterable[Hand]) -> tuple[dict[int, Rating], set[int]]:
    """The ratings after `hands`, in their order, from `ratings` (left unchanged), and the
    players the hands moved."""
    current = dict(ratings)
    moved: set[int] = set()
    for hand in hands:
        after = rate_hand(current, hand)
        current.update(after)
        moved.update(after)
    return current, moved


def average(ratings: Mapping[int, Rating]) -> float:
    """The field's mean mu: every player with a rated hand (the prior's before any)."""
    mus = [rating.mu for rating in ratings.values() if rating.hands > 0]
    return math.fsum(mus) / len(mus) if mus else MU


def win_probability(rating: Rating, field: float) -> float:
    """The model's probability that the player with an average partner wins a hand
    against two average opponents (`field`: the field's mean mu)."""
    player, avg = _model_rating(rating), MODEL.rating(mu=field, sigma=0.0)
    return MODEL.predict_win([[player, avg], [avg, avg]])[0]


def hand_won_with(q: float) -> float:
    """The probability that a side taking each trick with probability `q` takes 7 or more
    of the 13."""
    need = TRICKS // 2 + 1
    return math.fsum(math.comb(TRICKS, k) * q ** k * (1 - q) ** (TRICKS - k) for k in range(need, TRICKS + 1))


def trick_share(p: float) -> float:
    """The share of tricks `q` (0..1) for which `hand_won_with(q) == p`, by bisection."""
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(64):
        middle = (low + high) / 2
        if hand_won_with(middle) < p:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def grade(rating: Rating, field: float) -> float:
    """The grade: the share of tricks, in per cent, the player's side would expect with an
    average partner against average opponents (see the module's docstring)."""
    return 100.0 * trick_share(win_probability(rating, field))


def provisional(hands: int) -> bool:
    return hands < PROVISIONAL_HANDS
