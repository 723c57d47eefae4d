"""Bad rules for a new table are refused in words (issue 19): an unknown game, an unknown
option, a wrong type, a value out of range, each a field message of its own, never the
engine's or Python's internal text."""
import pytest

pytestmark = pytest.mark.django_db

INTERNALS = ("__init__", "keyword argument", "Ruleset", "Options", "Traceback", "Error", "unexpected", "'zzz'",
             "must be", "bad rule option")


def refusal(api, make_user, rules):
    api.force_authenticate(make_user())
    answer = api.post("/api/play/tables/", {"rules": rules}, format="json")
    assert answer.status_code == 400, answer.content
    messages = answer.json()["rules"]
    assert len(messages) == 1 and not any(word in messages[0] for word in INTERNALS), messages
    return messages[0]


@pytest.mark.parametrize("rules, message", [
    ({"name": "short", "zzz": 1}, "Unknown option “zzz” for short."),
    ({"name": "bid", "target": 5}, "Unknown option “target” for bid."),  # another game's option
    ({"name": "short", "target": "many"}, "Option “target” takes a value like 5."),
    ({"name": "short", "slams": 1}, "Option “slams” takes a value like false."),
    ({"name": "short", "target": 7.5}, "Option “target” takes a value like 5."),
    ({"name": "short", "rotation": "HDSC"}, "Option “rotation” takes a value like [\"H\", \"D\", \"S\", \"C\"]."),
    ({"name": "short", "target": 6}, "Option “target” does not allow the value 6."),
    ({"name": "bid", "min_bid": 99}, "Option “min_bid” does not allow the value 99."),
    ({"name": "short", "trump": "sometimes"}, "Option “trump” does not allow the value sometimes."),
])
def test_a_bad_option_is_named_and_said_what_is_wrong(api, make_user, rules, message):
    assert refusal(api, make_user, rules) == message


@pytest.mark.parametrize("rules", ["nonsense", {"name": "nonsense"}, ["short"], {"name": 3}, 12, None])
def test_an_unknown_game_or_a_shapeless_rules_is_refused_in_words(api, make_user, rules):
    message = refusal(api, make_user, rules)
    assert message.startswith(("Unknown game", "Rules are a game's name")) or "field may not be null" in message


def test_a_long_name_or_value_is_quoted_back_cut_short(api, make_user):
    message = refusal(api, make_user, {"name": "short", "x" * 500: 1})
    assert len(message) < 120 and message.startswith("Unknown option “xxxx")
