"""The hand history: a finished hand of an online table trick by trick (who led, the
cards in playing order, who won), its calls and the deal. The double-dummy review is
made once by a worker and stored (drive.games.services.reviews, selectors.reviews)."""
from __future__ import annotations

from typing import Any

from engine import GameState, parse_action, replay_game


def hand_story(record: dict[str, Any]) -> dict[str, Any]:
    """The last deal of a game record (see `tables.hand_records`), replayed action by
    action: its calls and exchange in order, each trick as the table saw it, and the
    result as the engine scored it."""
    deals = record["deals"]
    last = deals[-1]
    state = replay_game({"rules": record.get("rules", "short"), "deals": deals[:-1],
                         "first_dealer": deals[0].get("dealer")})
    state.start_deal(last)
    watcher = state.variant.seats[0]
    calls: list[dict[str, str | None]] = []  # the seat: state.to_act, None when nobody is to act
    tricks: list[dict[str, Any]] = []
    seen = None
    for text in last.get("actions", []):
        action = parse_action(text)
        actor = state.to_act
        phase = str(state.phase)
        state.apply(action)
        if action.kind != "card" or phase != "play":
            calls.append({"seat": actor, "call": text, "phase": phase})
            continue
        done = _last_trick(state, watcher)
        if done is not None and done != seen:
            tricks.append(done)
            seen = done
    view = state.view(watcher)
    return {"dealer": last.get("dealer"), "hands": last.get("hands", {}), "calls": calls, "tricks": tricks,
            "trump": view.get("trump"), "taken": view.get("tricks", {}), "score": state.score(),
            **_seating(state)}


def _seating(state: GameState) -> dict[str, Any]:
    """How the variant names the hand's sides and dummies. The review (engine.analysis)
    names the side of the positions 0 and 2 "NS", the other "EW"; with dummies (two or
    three players) a side is its players, "N", "E+S", as the hand's tricks are counted.
    `dummies`: a dummy's label -> the player who plays it ("S" -> "N" for two players)."""
    seating = getattr(state, "seating", None)
    if seating is None:
        return {"sides": {"NS": "NS", "EW": "EW"}, "dummies": {}}
    return {"sides": {"NS": seating.side_name(0), "EW": seating.side_name(1)},
            "dummies": {seating.labels[p]: seating.players[p] for p in seating.dummies}}


def _last_trick(state: GameState, seat: str) -> dict[str, Any] | None:
    return state.view(seat).get("last_trick")

