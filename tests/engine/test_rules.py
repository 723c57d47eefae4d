import dataclasses

import pytest

from engine.game import Game
from engine.rules import PRESETS, SHORT, Ruleset, RulesError, preset


def test_short_whist_is_the_default():
    # part S: five points, one point a trick over six, turned trump, no honours
    r = preset("short")
    assert r is SHORT and r == Ruleset()
    assert (r.target, r.trick_value, r.trump, r.honours) == (5, 1, "turned", None)


def test_ruleset_cannot_change_once_fixed():
    # rule S9: agreements are fixed before play and never introduced mid-game
    r = preset("short")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.target = 7
    game = Game(r)
    with pytest.raises(AttributeError):
        game.rules = preset("long")
    assert game.rules is r


@pytest.mark.parametrize("target", [5, 7, 10])
def test_targets_five_seven_ten(target):
    # rule L3 (and S9): an event may pick 5, 7 or 10
    assert Ruleset(target=target).target == target


def test_other_targets_refused():
    # rule L3
    with pytest.raises(RulesError):
        Ruleset(target=6)


def test_named_presets_cover_the_options():
    # presets for short, drive, long and the classic options of part L
    for name in ("short", "drive", "long", "russian", "special_suit", "enfilade", "no_trump",
                 "short7", "short10", "drive_over_six", "drive_rotation", "drive_rotation_nt"):
        assert PRESETS[name].name == name
    assert PRESETS["russian"].trick_value == 2          # rule L5
    assert PRESETS["no_trump"].trump == "none"           # rule L11
    assert PRESETS["drive_rotation_nt"].rotation[-1] == "NT"  # rule D2


def test_preset_overrides_and_json_round_trip():
    r = preset("short", revoke_penalty="points", honours="two", honours_ten=True)
    assert Ruleset.from_json(r.to_json()) == r
    assert preset("long").to_json() == "long"
    assert Ruleset.from_json({"name": "short", "target": 7}).target == 7


@pytest.mark.parametrize("bad", ["nonsense", {"name": "short", "colour": "red"},
                                 {"name": "short", "trump": "sideways"}, 7])
def test_bad_rules(bad):
    with pytest.raises(RulesError):
        Ruleset.from_json(bad)
