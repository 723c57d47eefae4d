"""The robots (issue 13): seed 001's advice by rule number, legal actions in
every variant, and nothing seen but the seat's own view."""

import ast
import copy
import math
import pathlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import VARIANTS, find_variant, new_rng
from engine.actions import parse_action
from engine.cards import card_str, holding, mask_of
from engine.deal import deal
from engine.play import HandState
from engine.robots import ROBOTS, LiveView, RandomRobot, RulesRobot
from engine.robots.advice import lead_rank
from engine.rules import preset
from engine.seats import SEATS
from engine.state import Phase

from .kit import cards, hand, state

SOME = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ROBOT_DIR = pathlib.Path(__file__).resolve().parents[2] / "engine" / "robots"


def card_for(st_: HandState, seat: int | None = None) -> str:
    seat = st_.turn if seat is None else seat
    return card_str(RulesRobot().choose_card(st_.view(seat)))


def played(st_: HandState, *texts) -> HandState:
    for c in cards(*texts):
        st_.play(c)
    return st_


# --- the advice, rule by rule (seed 001) ------------------------------------------

def test_king_from_ace_king():
    # seed 001, necessary rule 20: with A-K and more, lead the king
    s = state("AK532.432.432.32", "QJ9.AKQ.765.7654", "T876.765.AKQ.AKQ", "4.JT98.JT98.JT98", trump=3)
    assert card_for(s) == "KS"


def test_queen_from_ace_king_queen():
    s = state("AKQ2.5432.432.32", "J9.AKQ.765.76543", "T8765.76.AKQ.AKQ", "43.JT98.JT98.JT98", trump=3)
    assert card_for(s) == "QS"


def test_lowest_of_four_small_and_top_of_two():
    # seed 001, necessary rules 19 and 2: the lowest of four small cards, the top of two
    s = state("8632.AKJ.9543.T9", "AKQ.QT9.AKQ.8765", "JT97.8765.T87.AK", "54.432.J62.QJ432", trump=1)
    assert card_for(s) == "2S"
    assert lead_rank(holding(hand("T9..."), 0)) == 8              # the ten of T-9
    assert lead_rank(holding(hand("K32..."), 0)) == 0             # necessary rule 18: not the king third
    assert lead_rank(holding(hand("KQ5..."), 0)) == 11            # necessary rule 15: K from K-Q


def test_second_hand_low():
    s = played(state("AK2.5432.432.432", "43.AKQ.765.7654", "T8765.76.AKQ.AKQ", "QJ9.JT98.JT98.JT9",
                     dealer=2, trump=3), "9S")     # W leads, N is second
    assert card_for(s) == "2S"


def test_second_hand_covers_an_honour():
    # seed 001, necessary rule 15: the lower of equal cards, here K over the queen led
    s = played(state("AK2.5432.432.432", "43.AKQ.765.7654", "T8765.76.AKQ.AKQ", "QJ9.JT98.JT98.JT9",
                     dealer=2, trump=3), "QS")
    assert card_for(s) == "KS"


def test_third_hand_high_the_lower_of_equals():
    # N leads 3S, E plays 9S, S holds K-Q-2: third hand high, the queen of K-Q (N15)
    s = played(state("3.AKQJT98765432..", "9JT.A.AKQJT98765.", "KQ2...AKQJT98765", "A87654...432",
                     dealer=3, trump=1), "3S", "9S")
    assert card_for(s) == "QS"


def test_no_overtaking_partner_when_sure():
    # seed 001, additional rule 4: partner's ace wins; fourth hand keeps its cards
    s = played(state("AK2.5432.432.432", "QJ9.AKQ.765.765", "T8765.76.AKQ.AKQ", "43.JT98.JT98.JT98",
                     dealer=3, trump=3), "AS", "9S", "TS")
    assert card_for(s) == "3S"


def test_ruff_the_opponents_card():
    # seed 001, necessary rule 3: void, partner not winning -> ruff with the lowest trump
    s = played(state("AK2.5432.432.432", "QJ9.AKQ.765.765", "T8765.76.AKQ.AKQ", "43.JT98.JT98.JT98",
                     dealer=0, trump=0), "AH", "6H")      # E leads AH, S follows, W void? no: W has hearts
    assert card_for(s) in [card_str(c) for c in s.legal_moves()]


def test_ruff_when_void():
    s = played(state("AK2.5432.432.432", "QJ9.AKQ.765.765", "T8765..AKQJ.AKQJ", "43.JT98765.T98.T98",
                     dealer=0, trump=0), "AH")           # E leads AH, S is void
    assert card_for(s) == "5S"


def test_discard_from_the_weakest_suit():
    # seed 001, necessary rule 8: void and no trump to ruff with -> the weakest plain suit
    s = played(state("AK2.5432.432.432", "QJ9.AKQ.765.765", "AKQJ..T98765.932", "T8765.JT9876.AKQ.",
                     dealer=0, trump=4), "AH")           # no trump; S void in hearts
    assert card_for(s) == "2C"


def test_avoid_partner_first_discard_suit():
    # seed 001, necessary rule 8: partner's first discard shows his weak suit
    robot = RulesRobot()
    s = state("AK2.5432.432.432", "QJ9.AKQ.765.765", "T8765.76.AKQ.AKQ", "43.JT98.JT98.JT98", trump=3)
    memory = robot._memory(0)
    memory.partner_weak = 2
    assert memory.partner_weak == 2
    assert card_str(robot.choose_card(s.view(0))) != "2D"


def test_trumps_led_only_with_four():
    # seed 001, necessary rule 4: three small trumps and a plain suit -> not a trump
    s = state("432.5432.8765.32", "AKQ.AKQ.AKQ.AKQJ", "JT9.JT98.JT9.T98", "8765.76.432.7654", trump=0)
    assert card_for(s)[1] != "S"


# --- the same robot on the fast view and on the JSON view -----------------------------

def test_fast_and_json_views_agree_on_plain_whist():
    for seed in range(20):
        rng = new_rng(seed)
        game = find_variant("short").new_game(rng)
        game.deal(rng)
        fast_robot, json_robot = RulesRobot(), RulesRobot()
        while game.phase == Phase.PLAY:
            seat = game.to_act
            hs: HandState = game.hand
            fast = card_str(fast_robot.choose_card(hs.view(SEATS.index(seat))))
            slow = str(json_robot.choose(game.view(seat)))
            assert fast == slow
            game.apply(slow)


def test_live_view_plays_as_the_seat_view():
    rng = new_rng(5)
    d = deal(0, rng, preset("short"))
    a, b = HandState.from_deal(d), HandState.from_deal(d)
    live = LiveView(d.dealer, d.trump, d.trump_card)
    r1, r2 = RulesRobot(), RulesRobot()
    while not a.complete:
        c1 = r1.choose_card(a.view(a.turn, look_back=13))
        c2 = r2.choose_card(live.show(b.turn, b.hands[b.turn]))
        assert c1 == c2
        a.play(c1)
        b.play(c2)
        live.advance(c2, b.winners[-1] if b.n == 0 else None)


# --- never an illegal action ---------------------------------------------------------

# Fixed seeds (bench/legal.py plays every robot in every variant over many more seeds): every
# variant for the quick robots; for the strong one at its real budget four families (plain,
# bidding, dummy, three-handed), since tests/engine/test_strong.py plays it in every variant
# on a small budget.
LEGAL_CASES = ([(robot, name, seed) for robot in ("random", "rules") for seed, name in enumerate(sorted(VARIANTS))]
               + [("strong", name, seed) for seed, name in enumerate(("short", "bid_min3", "dummy", "three_handed"))])


@pytest.mark.parametrize("robot, name, seed", LEGAL_CASES)
def test_robots_only_play_legal_actions(seed, name, robot):
    rng = new_rng(seed)
    game = find_variant(name).new_game(rng)
    players = {s: ROBOTS[robot](seed=seed) for s in game.variant.seats}
    for _ in range(1 if robot == "strong" else 2):       # two hands (one for the strong robot)
        if game.phase == Phase.OVER:
            break
        game.deal(rng)
        while game.phase not in (Phase.SCORED, Phase.OVER):
            view = game.view(game.to_act)
            action = players[game.to_act].choose(view)
            assert str(action) in view["legal"]
            game.apply(action)


@SOME
@given(seed=st.integers(0, 10**6), robot=st.sampled_from(["random", "rules"]))
def test_fast_robots_only_play_legal_cards(seed, robot):
    rng = new_rng(seed)
    hs = HandState.from_deal(deal(seed & 3, rng, preset("short")))
    robots = [ROBOTS[robot](seed=seed) for _ in range(4)]
    while not hs.complete:
        view = hs.view(hs.turn)
        card = robots[hs.turn].choose_card(view)
        assert card in view.legal
        hs.play(card)


# --- nothing seen but the view -------------------------------------------------------

def test_robots_take_no_state_object():
    """No robot module reaches the game state, the fast core or the deal
    (the match, which runs games, is the driver, not a robot)."""
    banned = {"state", "play", "variants", "games", "deal", "record", "game"}
    for path in ROBOT_DIR.glob("*.py"):
        if path.name in ("match.py", "__init__.py", "strong.py", "sampling.py", "solver.py"):
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 2:
                assert (node.module or "").split(".")[0] not in banned, (path.name, node.module)


def test_hidden_cards_do_not_change_a_decision():
    """Two deals alike for N and different elsewhere give N the same view and
    the same choice: the robot sees nothing else."""
    base = find_variant("short").new_game(first_dealer="W")
    base.deal(new_rng(3))
    raw = copy.deepcopy({k: v for k, v in base.deals[0].items() if k != "actions"})
    other = copy.deepcopy(raw)
    e, s = other["hands"]["E"], other["hands"]["S"]
    other["hands"]["E"], other["hands"]["S"] = s, e           # N cannot tell
    twin = find_variant("short").new_game(first_dealer="W")
    twin.start_deal(other)
    assert base.view("N")["hand"] == twin.view("N")["hand"]
    for name in ROBOTS:
        assert unclocked(name).choose(base.view("N")) == unclocked(name).choose(twin.view("N"))


def unclocked(name, seed=1):
    """A robot without the strong robot's wall-clock safety cap: on a loaded machine the
    cap may cut one decision short and not its twin, and these tests are about what a
    robot sees, not how fast the machine is."""
    return ROBOTS[name](seed=seed, cap_seconds=math.inf) if name == "strong" else ROBOTS[name](seed=seed)


def test_a_bare_view_is_enough():
    """A view holding only the seat's own cards, built by hand, is played."""
    view = {"rules": "short", "seat": "N", "phase": "play", "to_act": "N", "dealer": "W",
            "hands_played": 0, "legal": ["2S", "AS", "KH"], "hand": ["2S", "AS", "KH"], "trump": "H",
            "trump_card": None, "trick": [], "tricks": {"NS": 5, "EW": 5},
            "last_trick": {"leader": "E", "winner": "N",
                           "cards": [{"seat": "E", "card": "3C"}, {"seat": "S", "card": "4C"},
                                     {"seat": "W", "card": "5C"}, {"seat": "N", "card": "AC"}]},
            "auction": [], "open_hands": {}, "score": {}}
    for name in ROBOTS:
        assert str(ROBOTS[name](seed=2).choose(view)) in view["legal"]


def test_calls_from_hand_strength():
    rng = new_rng(11)
    for name in ("bid", "siberian", "dummy", "humbug"):
        game = find_variant(name).new_game(rng)
        game.deal(rng)
        robot = RulesRobot()
        while game.phase != Phase.PLAY and game.phase in (Phase.AUCTION, Phase.EXCHANGE):
            view = game.view(game.to_act)
            assert str(robot.choose(view)) in view["legal"]
            game.apply(robot.choose(view))


def test_random_robot_is_seeded():
    view = {"legal": ["2S", "3S", "4S", "5S"], "phase": "play"}
    picks = [str(RandomRobot(seed=9).choose(view)) for _ in range(3)]
    assert len(set(picks)) == 1
    assert parse_action(picks[0])


def test_hand_helper_is_sane():
    assert mask_of(cards("AS", "KS")) == hand("AK...")
    assert random.Random(1).random() == random.Random(1).random()
