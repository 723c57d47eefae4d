"""The engine's ruleset for an event, and the trump of each hand of the evening."""
from engine.rules import preset

TRUMP_MODES = {
    "turned_up": {"trump": "turned"},
    "rotation": {"trump": "rotation", "rotation": ("H", "D", "S", "C")},
    "rotation_nt": {"trump": "rotation", "rotation": ("H", "D", "S", "C", "NT")},
}


def event_ruleset(event):
    """A drive is scored hand by hand (rule D1) with the event's trump rule (D2) and scoring (D3)."""
    return preset(
        "drive",
        drive_score="over_six" if event.scoring_rule == "over_six" else "tricks",
        hands_per_round=event.hands_per_round,
        **TRUMP_MODES[event.trump_rule],
    )


def evening_hand_index(event, round_number, hand_number):
    """Hands are counted over the whole evening (rule D2): 0 for the first hand of round 1."""
    return (round_number - 1) * event.hands_per_round + (hand_number - 1)


def rotation_trump(event, round_number, hand_number):
    """The trump a rotation fixes for a hand ("S", "H", "D", "C" or "NT"), or None if turned up."""
    rules = event_ruleset(event)
    if rules.trump != "rotation":
        return None
    return rules.rotation[evening_hand_index(event, round_number, hand_number) % len(rules.rotation)]
