"""The review's count of tricks given away cannot exceed the tricks played (issue 20:
a Siberian review said "Tricks given away by the cards played: 14" in a 13-trick hand).
The cards' costs are each right, but a side's mistake can be given back by the other
side's: their sum is not a count of tricks. ``lost`` is how far the side that fell
short of the double-dummy result fell short."""
import pytest

from engine.analysis import analyse, short_of_best

from .test_analysis import finished


@pytest.mark.parametrize("name, seed", [("siberian", 1), ("short", 7)])
def test_the_tricks_lost_are_at_most_the_hands_tricks(name, seed):
    out = analyse(finished(name, seed).record())           # random play: errors on both sides
    assert sum(p["cost"] or 0 for p in out["plays"]) > 13   # the old count, over 13
    assert 0 <= out["lost"] <= sum(out["tricks"].values()) == 13
    short = {side: out["double_dummy"][side] - out["tricks"][side] for side in out["tricks"]}
    assert out["lost"] == max(short.values()) > 0


def test_short_of_best():
    assert short_of_best({"NS": 9, "EW": 4}, {"NS": 8, "EW": 5}) == 1
    assert short_of_best({"NS": 9, "EW": 4}, {"NS": 9, "EW": 4}) == 0
    assert short_of_best({"NS": 9, "EW": 4}, {"NS": 11, "EW": 2}) == 2
    assert short_of_best(None, {"NS": 9, "EW": 4}) is None


def test_a_hand_thrown_in_has_no_review():
    """A Siberian hand all passed has no trick played: AnalysisError (stored as no
    review), not an AttributeError that left the page "being prepared" for ever."""
    from engine.analysis import AnalysisError
    from engine.state import ACTING
    import random
    from engine.variants import find_variant

    rng = random.Random(0)
    game = find_variant("siberian").new_game(rng=rng)
    game.deal(rng)
    while game.phase in ACTING:
        game.apply(next(a for a in game.legal_actions() if str(a) == "pass"))
    with pytest.raises(AnalysisError):
        analyse(game.record())
