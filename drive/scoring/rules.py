"""The engine's ruleset for an event, and the trump of each hand of the evening."""
from engine import find_variant

TRUMP_MODES: dict[str, dict[str, object]] = {
    "turned_up": {"trump": "turned"},
    "rotation": {"trump": "rotation", "rotation": ("H", "D", "S", "C")},
    "rotation_nt": {"trump": "rotation", "rotation": ("H", "D", "S", "C", "NT")},
}


def event_ruleset(event):
    """The event's own preset (a classic variant: its options are its ruleset), played as
    a drive: every hand scored alone (rule D1) with the event's trump rule (D2).

    The drive preset scores the partnership's tricks or, if the event says so, the tricks
    over six (D3); a game preset such as short whist scores each hand by its own count,
    the tricks over six (S7.1), since a drive never plays to a target (D1). The services
    refuse a preset that tricks on paper cannot score (drive.events.services.events)."""
    base = find_variant(event.rules_preset).options
    if base.scoring == "drive":
        drive_score = "over_six" if event.scoring_rule == "over_six" else "tricks"
    else:
        drive_score = "over_six"
    return find_variant({"name": event.rules_preset, "drive_score": drive_score,
                         "hands_per_round": event.hands_per_round, **TRUMP_MODES[event.trump_rule]}).options


def evening_hand_index(event, round_number, hand_number):
    """Hands are counted over the whole evening (rule D2): 0 for the first hand of round 1."""
    return (round_number - 1) * event.hands_per_round + (hand_number - 1)


def rotation_trump(event, round_number, hand_number):
    """The trump a rotation fixes for a hand ("S", "H", "D", "C" or "NT"), or None if turned up."""
    rules = event_ruleset(event)
    if rules.trump != "rotation":
        return None
    return rules.rotation[evening_hand_index(event, round_number, hand_number) % len(rules.rotation)]
