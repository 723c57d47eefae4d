"""Whole games of any variant: rebuild one from its record, check a record, and
play one out with random legal actions (the command line's ``play``).

A game record (the format is in engine/RECORD.md):

    {"rules": "bid",                        # a preset, or {"name": preset, ...options}
     "deals": [{"dealer": "E",
                "hands": {"N": [...], "E": [...], "S": [...], "W": [...], "kitty": [...]},
                "actions": ["pass", "4 downtown", ..., "AS", ...]}, ...]}

One deal may stand alone: ``{"rules", "dealer", "hands", ..., "actions"}``.
"""

import random
from typing import Any

from .actions import ActionError, parse_action
from .errors import EngineError, IllegalAction
from .rules import RulesError
from .state import BadRecord, GameState, Phase
from .variants import find_variant


class GameRecordError(EngineError):
    """A record that cannot be read at all (not an object, no deals, unknown rules)."""


def deals_of(record: object) -> list[dict[str, Any]]:
    if not isinstance(record, dict):
        raise GameRecordError("a record must be a JSON object")
    if "deals" in record:
        deals = record["deals"]
        if not isinstance(deals, list) or not all(isinstance(d, dict) for d in deals):
            raise GameRecordError("deals must be a list of objects")
        return deals
    return [{k: v for k, v in record.items() if k != "rules"}]


def new_state(record: dict[str, Any]) -> GameState:
    try:
        variant = find_variant(record.get("rules", "short"))
    except RulesError as exc:
        raise GameRecordError(str(exc)) from None
    deals = deals_of(record)
    first = deals[0].get("dealer") if deals else record.get("first_dealer")
    if first not in variant.seats:
        raise BadRecord(f"the first dealer must be one of {', '.join(variant.seats)}, not {first!r}",
                        rule="S3", deal=0)
    return variant.new_game(first_dealer=first)


def replay_game(record: object) -> GameState:
    """The state after every deal and action of a record. Raises
    GameRecordError, BadRecord (with ``deal``), ActionError, or IllegalAction
    (with ``deal`` and ``index`` set) at the first illegal action."""
    deals = deals_of(record)
    assert isinstance(record, dict)   # deals_of refuses any other record
    state = new_state(record)
    for number, deal in enumerate(deals):
        actions = deal.get("actions", [])
        if not isinstance(actions, list):
            raise GameRecordError(f"deal {number}: actions must be a list")
        try:
            state.start_deal(deal)
        except BadRecord as exc:
            exc.deal = number
            raise
        for index, text in enumerate(actions):
            action = parse_action(text)
            try:
                state.apply(action)
            except IllegalAction as exc:
                exc.deal, exc.index = number, index
                raise
    return state


def check_game(record: object) -> dict[str, Any]:
    """The ``check`` answer for a game record: legal (complete or partial) or
    the first illegal action or deal, with the rule it breaks. Unreadable
    records raise GameRecordError or ActionError."""
    try:
        state = replay_game(record)
    except BadRecord as exc:
        return {"valid": False, "error": {"reason": "bad_deal", "deal": exc.deal,
                                          "rule": exc.rule, "detail": str(exc)}}
    except IllegalAction as exc:
        return {"valid": False, "error": {"deal": exc.deal, "index": exc.index, "seat": exc.seat,
                                          "action": exc.action, "rule": exc.rule,
                                          "reason": exc.reason, "detail": exc.detail}}
    return {"valid": True, "complete": state.phase == Phase.OVER, "phase": str(state.phase),
            "deals": len(state.deals), "to_act": state.to_act,
            "legal": [str(a) for a in state.legal_actions()], "score": state.score()}


def play_random(state: GameState, rng: random.Random, max_deals: int = 10_000) -> GameState:
    """Deal and play with uniformly random legal actions until the game is over."""
    while state.phase != Phase.OVER:
        if state.phase in (Phase.DEAL, Phase.SCORED):
            if len(state.deals) >= max_deals:
                raise EngineError(f"no end after {max_deals} deals")
            state.deal(rng)
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


__all__ = ["ActionError", "GameRecordError", "check_game", "deals_of", "play_random", "replay_game"]
