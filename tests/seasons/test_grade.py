"""The whist grade as a pure module (drive.seasons.grade): plain hands in, ratings and the
grade out (issue 22, "A grade for individual whist")."""
import math
import random
from statistics import NormalDist

import pytest

from drive.seasons import grade
from drive.seasons.grade import Hand, Rating


def grades(ratings):
    field = grade.average(ratings)
    return {player: grade.grade(rating, field) for player, rating in ratings.items()}


def test_one_who_wins_every_hand_with_changing_partners_ranks_above_one_who_loses_every_hand():
    rng = random.Random(22)
    winner, loser, others = 1, 2, list(range(3, 11))
    hands = []
    for _ in range(120):
        partner, *rest = rng.sample(others, 4)
        # The winner's side takes 7 to 13 tricks; the loser sits against them or elsewhere.
        if rng.random() < 0.5:
            ns, ew = (winner, partner), (loser, rest[0])
        else:
            ns, ew = (winner, partner), (rest[0], rest[1])
            hands.append(Hand(ns=(rest[2], loser), ew=(rest[1], partner), ns_tricks=rng.randint(0, 6)))
        hands.append(Hand(ns=ns, ew=ew, ns_tricks=rng.randint(7, 13)))
    ratings, _ = grade.rate({}, hands)
    shown = grades(ratings)
    assert max(shown, key=shown.get) == winner
    assert min(shown, key=shown.get) == loser
    assert shown[winner] > 50 > shown[loser]
    assert all(shown[winner] > shown[p] > shown[loser] for p in others)


def test_the_same_share_of_hands_won_rates_higher_with_weaker_partners_and_stronger_opponents():
    """Ada and Bob each win half their hands. Ada's partners are the weak players and her
    opponents the strong ones; Bob's the other way round: Ada's half is worth more."""
    rng = random.Random(7)
    strong, weak, field = [10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]
    ada, bob = 1, 2
    hands = []
    for _ in range(200):  # who is strong and who weak, from hands among them and a field
        s1, s2 = rng.sample(strong, 2)
        w1, w2 = rng.sample(weak, 2)
        f1, f2, f3, f4 = rng.sample(field, 4)
        hands.append(Hand(ns=(s1, f1), ew=(w1, f2), ns_tricks=rng.choice([8, 9, 10])))
        hands.append(Hand(ns=(w2, f3), ew=(s2, f4), ns_tricks=rng.choice([3, 4, 5])))
    for number in range(60):  # then the same results for both, in the same order
        wins = number % 2 == 0
        tricks = rng.choice([7, 8, 9]) if wins else rng.choice([4, 5, 6])
        hands.append(Hand(ns=(ada, rng.choice(weak)), ew=tuple(rng.sample(strong, 2)), ns_tricks=tricks))
        hands.append(Hand(ns=(bob, rng.choice(strong)), ew=tuple(rng.sample(weak, 2)), ns_tricks=tricks))
    ratings, _ = grade.rate({}, hands)
    assert ratings[ada].hands == ratings[bob].hands == 60
    shown = grades(ratings)
    assert min(shown[s] for s in strong) > max(shown[w] for w in weak)  # the set-up holds
    assert shown[ada] > 50 > shown[bob]
    assert ratings[ada].mu > ratings[bob].mu


def test_partners_and_opponents_both_count_and_the_margin_too():
    strong = {1: Rating(mu=35.0, sigma=3.0, hands=100), 2: Rating(mu=35.0, sigma=3.0, hands=100)}
    narrow, _ = grade.rate(strong, [Hand(ns=(1, 3), ew=(4, 5), ns_tricks=7)])
    wide, _ = grade.rate(strong, [Hand(ns=(1, 3), ew=(4, 5), ns_tricks=13)])
    assert wide[1].mu > narrow[1].mu > strong[1].mu  # a 13-0 win says more than 7-6
    assert wide[4].mu < narrow[4].mu < grade.MU
    # Beating a strong side with a new partner moves the new players more than beating new players.
    upset, _ = grade.rate(strong, [Hand(ns=(3, 4), ew=(1, 2), ns_tricks=8)])
    even, _ = grade.rate({}, [Hand(ns=(3, 4), ew=(5, 6), ns_tricks=8)])
    assert upset[3].mu > even[3].mu > grade.MU


def test_rating_in_parts_gives_exactly_what_rating_at_once_gives():
    rng = random.Random(3)
    hands = [Hand(ns=tuple(p[:2]), ew=tuple(p[2:]), ns_tricks=rng.randint(0, 13))
             for p in (rng.sample(range(1, 13), 4) for _ in range(300))]
    at_once, moved = grade.rate({}, hands)
    parts = {}
    for start in range(0, 300, 37):
        parts, _ = grade.rate(parts, hands[start:start + 37])
    assert parts == at_once  # the floats, exactly
    assert moved == set(at_once)
    again, _ = grade.rate({}, hands)
    assert again == at_once  # deterministic


def test_rating_leaves_its_input_alone():
    before = {1: Rating(mu=30.0, sigma=4.0, hands=9)}
    after, moved = grade.rate(before, [Hand(ns=(1, 2), ew=(3, 4), ns_tricks=9)])
    assert before == {1: Rating(mu=30.0, sigma=4.0, hands=9)}
    assert after[1].hands == 10 and after[2].hands == 1 and moved == {1, 2, 3, 4}


def test_the_grade_is_the_share_of_tricks_of_a_side_with_an_average_partner_against_average_opponents():
    field = 25.0
    assert grade.grade(Rating(mu=field, sigma=0.001, hands=80), field) == pytest.approx(50.0, abs=1e-6)
    # A rating one prior sigma above the field, with no uncertainty: the model's win probability.
    sure = Rating(mu=field + grade.SIGMA, sigma=0.0, hands=80)
    p = NormalDist().cdf(grade.SIGMA / math.sqrt(2 * grade.BETA ** 2))
    assert grade.win_probability(sure, field) == pytest.approx(p, rel=1e-12)
    q = grade.grade(sure, field) / 100
    tail = sum(math.comb(13, k) * q ** k * (1 - q) ** (13 - k) for k in range(7, 14))
    assert tail == pytest.approx(p, abs=1e-12)
    assert 53 < 100 * q < 54
    # Uncertainty pulls towards 50; a better rating shows higher; symmetric about the field.
    unsure = Rating(mu=field + grade.SIGMA, sigma=grade.SIGMA, hands=3)
    assert 50 < grade.grade(unsure, field) < grade.grade(sure, field)
    below = Rating(mu=field - grade.SIGMA, sigma=0.0, hands=80)
    assert grade.grade(below, field) == pytest.approx(100 - grade.grade(sure, field), abs=1e-9)


@pytest.mark.parametrize("p", [0.0, 0.01, 0.3, 0.5, 0.6, 0.7, 0.99, 1.0])
def test_the_trick_share_inverts_the_chance_of_winning_a_hand(p):
    q = grade.trick_share(p)
    assert 0.0 <= q <= 1.0
    assert grade.hand_won_with(q) == pytest.approx(p, abs=1e-12)


def test_the_average_is_the_fields_mean_of_rated_players():
    assert grade.average({}) == grade.MU
    ratings = {1: Rating(mu=20.0, sigma=3.0, hands=5), 2: Rating(mu=31.0, sigma=3.0, hands=5),
               3: Rating(mu=99.0, sigma=3.0, hands=0)}
    assert grade.average(ratings) == 25.5


def test_provisional_until_sixty_hands():
    assert grade.provisional(0) and grade.provisional(59)
    assert not grade.provisional(60) and not grade.provisional(500)


def test_a_hand_is_four_players_and_at_most_thirteen_tricks():
    with pytest.raises(ValueError):
        Hand(ns=(1, 2), ew=(2, 3), ns_tricks=7)
    with pytest.raises(ValueError):
        Hand(ns=(1, 2), ew=(3, 4), ns_tricks=14)
