"""Duplicate matches between robots: ``python -m engine match``.

Each deal is played twice from the same cards, the robots swapping places: in
the first play robot A (``--ns``) holds N-S and robot B (``--ew``) E-W, in the
second the other way round. For three- and two-player variants A plays the
declarer (the auction's winner in dummy whist, the dummy's holder in three-
handed whist, player N where there is none: two-handed whist with two dummies
and the games of part P) and B the defenders; the auction that picks the declarer is bid by the rules robot at
every seat, so both plays of a deal reach the same contract.

A deal's advantage is A's tricks minus B's, averaged over its two plays;
``tricks_per_deal`` is its mean over the deals and ``se`` the standard error
of that mean. ``points_per_hand`` is the same for the score each hand adds
(``totals``, ``net`` or the games' points above and below the line, by side).
``decision_ms_p95`` is the 95th percentile of each robot's time in ``choose``
(``time.perf_counter``): reported, never asserted. Each deal is a fresh game's
first hand, dealt from a generator seeded by the seed and the deal's number,
so a match is the same on every run.
"""

import copy
import math
import random
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

from ..errors import EngineError
from ..seats import SEATS
from ..state import GameState, Phase
from ..variants import find_variant
from . import ROBOTS
from .base import Robot
from .rules import RulesRobot

OVER = (Phase.SCORED, Phase.OVER)
Maker: TypeAlias = Callable[..., Robot]      # a robot from its seed: ROBOTS[name](seed=...)


class UnknownRobot(EngineError):
    """A robot name that is not in ``ROBOTS``."""


def run_match(ns: str, ew: str, deals: int, seed: int, rules: str | dict[str, Any] = "short", *,
              first: int = 0, makers: Mapping[str, Maker] | None = None,
              samples: dict[str, Any] | None = None) -> dict[str, Any]:
    """The duplicate match of robot ``ns`` (A) against robot ``ew`` (B) over
    deals ``first`` .. ``first + deals - 1``. ``makers`` gives robots by name
    (``ROBOTS`` by default; a bench passes robots with other budgets);
    ``samples``, if given, receives the figures behind the summary: each
    deal's ``tricks`` and ``points`` and, by side (``"A"``, ``"B"``), each
    decision's ``wall_ms`` and ``cpu_ms`` (``time.process_time``, every
    thread of the process)."""
    variant = find_variant(rules)
    robots = ROBOTS if makers is None else makers
    for name in (ns, ew):
        if name not in robots:
            raise UnknownRobot(f"unknown robot {name!r}; robots: {', '.join(robots)}")
    tricks: list[float] = []
    points: list[float] = []
    times: dict[str, list[float]] = {"A": [], "B": []}   # ms per decision, robot A's and B's
    cpu: dict[str, list[float]] = {"A": [], "B": []}
    for number in range(first, first + deals):
        dealer = variant.seats[number % len(variant.seats)]
        rng = random.Random(f"{seed}|deal|{number}")
        one = variant.new_game(first_dealer=dealer)
        one.deal(rng)
        raw = {k: v for k, v in copy.deepcopy(one.deals[0]).items() if k != "actions"}
        two = variant.new_game(first_dealer=dealer)
        two.start_deal(raw)
        results = [_play(game, ew if swap else ns, ns if swap else ew, swap, f"{seed}|{number}", (times, cpu), robots)
                   for game, swap in ((one, False), (two, True))]
        tricks.append(sum(r[0] for r in results) / 2)
        points.append(sum(r[1] for r in results) / 2)
    if samples is not None:
        samples.update(tricks=tricks, points=points, wall_ms=times, cpu_ms=cpu)
    mean = sum(tricks) / deals if deals else 0.0
    var = sum((t - mean) ** 2 for t in tricks) / (deals - 1) if deals > 1 else 0.0
    return {"deals": deals, "tricks_per_deal": round(mean, 4), "se": round(math.sqrt(var / deals), 4) if deals else 0.0,
            "points_per_hand": round(sum(points) / deals, 4) if deals else 0.0,
            "decision_ms_p95": {"ns": _p95(times["A"]), "ew": _p95(times["B"])}}


def _play(game: GameState, first_name: str, second_name: str, swap: bool, key: str,
          clocks: tuple[dict[str, list[float]], dict[str, list[float]]],
          makers: Mapping[str, Maker]) -> tuple[float, float]:
    """Play one hand; returns A's advantage in tricks and points. ``first_name``
    is the robot on the first side (N-S, or the declarer), A's unless swapped."""
    players = game.variant.seats
    robots: dict[tuple[str, str], Robot] = {}   # (seat, robot name) -> the robot playing it
    auctioneer = RulesRobot()
    a_first = not swap
    while game.phase not in OVER:
        seat = game.to_act
        assert seat is not None             # a hand in progress has a seat to act
        view = game.view(seat)
        if len(players) < 4 and view["phase"] == "auction" and _declarer(view) is None:
            game.apply(auctioneer.choose(view))         # the declarer is not known yet
            continue
        first_side = _a_side(game, seat, view)
        name = first_name if first_side else second_name
        robot = robots.get((seat, name))
        if robot is None:
            robot = robots[seat, name] = makers[name](seed=f"{key}|{swap}|{seat}")
        start, start_cpu = time.perf_counter(), time.process_time()
        action = robot.choose(view)
        side = "A" if first_side == a_first else "B"
        clocks[0][side].append((time.perf_counter() - start) * 1000)
        clocks[1][side].append((time.process_time() - start_cpu) * 1000)
        game.apply(action)
    final = game.view(players[0])
    first_set = _first_players(game, final)
    first_tricks, other_tricks = _split(final.get("tricks") or {}, first_set)
    first_points, other_points = _split(_points(final["score"]), first_set)
    sign = 1 if a_first else -1
    return sign * (first_tricks - other_tricks), sign * (first_points - other_points)


def _a_side(game: GameState, seat: str, view: dict[str, Any] | None = None) -> bool:
    """Whether ``seat`` is on the first side: N-S with four players, else the
    declarer (player N in part P, where there is none)."""
    if len(game.variant.seats) == 4:
        return SEATS.index(seat) % 2 == 0
    declarer = _declarer(view or game.view(seat))
    return seat == (declarer or "N")


def _declarer(view: dict[str, Any]) -> str | None:
    declarer: str | None = view.get("declarer") or view.get("dummy_holder")
    return declarer


def _first_players(game: GameState, view: dict[str, Any]) -> set[str]:
    if len(game.variant.seats) == 4:
        return {"N", "S"}
    return {_declarer(view) or "N"}


def _members(key: str) -> set[str]:
    if "+" in key:
        return set(key.split("+"))
    return set(key) if key in ("NS", "EW") else {key}


def _split(by_side: dict[str, Any], first: set[str]) -> tuple[float, float]:
    """Sum values by side: those of keys naming a first-side player, the rest."""
    mine: float = 0
    other: float = 0
    for key, value in by_side.items():
        if isinstance(value, (int, float)):
            if _members(key) & first:
                mine += value
            else:
                other += value
    return mine, other


def _points(score: dict[str, Any]) -> dict[str, Any]:
    """Points by side from a score sheet of any variant."""
    for key in ("totals", "net"):
        if isinstance(score.get(key), dict):
            points: dict[str, Any] = score[key]
            return points
    out: dict[str, Any] = {}
    for game in _games(score):
        for part in ("below", "above"):
            for side, value in (game.get(part) or {}).items():
                out[side] = out.get(side, 0) + value
    return out


def _games(score: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for game in score.get("games", []) or []:
        if isinstance(game, dict) and "games" in game:
            found += _games(game)
        elif isinstance(game, dict):
            found.append(game)
    if not found and ("below" in score or "above" in score):
        found.append(score)
    return found


def _p95(samples: list[float]) -> float:
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return round(ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)], 4)
