"""The whist rules engine: pure Python, no Django, deterministic given a seed.

Every variant of docs/rules.md is one game-state interface (python-chess and OpenSpiel
are the models), and this module is the engine's whole public surface:

    from engine import find_variant, new_rng, replay_game
    game = find_variant("bid").new_game(rng := new_rng(7))
    game.deal(rng)
    game.phase, game.to_act, game.legal_actions(), game.apply("4 downtown")
    game.view("E"); game.copy(); replay_game(game.record()) == game

Games:
    GameState: one game of any variant: deal, legal_actions, apply, view, record, score.
    Phase: where a game stands (deal, auction, play, scored, over...), a str enum.
    Variant: a named preset of one game's rules; ``options`` is the classic games' ruleset.
    VARIANTS: every preset by name, the one registry (short, drive, long, bid, siberian...).
    find_variant: a preset by name, or ``{"name": preset, option: value}`` with options changed.
    new_rng: the seeded random generator every deal and robot draws from.
    replay_game: the GameState after every deal and action of a game record (RECORD.md).
    check_game: the ``python -m engine check`` answer for a game record: legal, or the rule broken.
    parse_action: an action from its text ("AS", "pass", "4 downtown", "discard 2C 3D").
    card_str: a card's text ("QH") from the engine's card number.

Errors:
    EngineError: the base of every error the engine raises (a ValueError).
    IllegalAction: an action the rules refuse; ``rule``, ``reason``, ``params``, ``seat``.
    REFUSALS: every ``reason`` an IllegalAction may give, with the names of its params.

Seats (rule S1), as letters:
    SEATS: the four seats clockwise, ("N", "E", "S", "W").
    SIDES: the two partnerships, ("NS", "EW").
    SIDE_OF: a seat's partnership, {"N": "NS", ...}.
    PARTNER: a seat's partner, {"N": "S", ...}.

A drive scored from paper (rules D1-D5, S6.5, L8):
    validate_tricks: tricks per side, each 0-13 and summing to 13, or an EngineError.
    revoke_adjustment: the tricks (or points) after a revoke penalty (L8).
    drive_hand_score: a partnership's score for a hand from its tricks (D3).
    hand_won: whether a partnership's tricks won the hand (seven or more; D4's tie-break).
    rank: the places of a prize list, ties broken as the event chose (D4).
    sit_out_score: the average scored for a round sat out (D5).

Double-dummy review and robots (the solver, endplay's DDS binding, is loaded at the first solve):
    analyse: the double-dummy review of a finished four-handed hand, card by card.
    ROBOTS: the robot players by name ("random", "rules", "strong").

Rules are cited by their numbers in docs/rules.md. The fast bitboard core of plain
four-handed whist (play.py, HandState) stays private beneath GameState.
"""

from .actions import parse_action
from .analysis import analyse
from .cards import card_str
from .deal import new_rng
from .drive_scoring import drive_hand_score, hand_won, rank, sit_out_score
from .errors import REFUSALS, EngineError, IllegalAction
from .games import check_game, replay_game
from .robots import ROBOTS
from .scoring import revoke_adjustment
from .seats import PARTNER, SEATS, SIDE_OF, SIDES
from .state import GameState, Phase
from .validate import validate_tricks
from .variant import Variant
from .variants import VARIANTS, find_variant

__all__ = [
    "GameState", "Phase", "Variant", "VARIANTS", "find_variant", "new_rng", "replay_game",
    "check_game", "parse_action", "card_str",
    "EngineError", "IllegalAction", "REFUSALS",
    "SEATS", "SIDES", "SIDE_OF", "PARTNER",
    "validate_tricks", "revoke_adjustment", "drive_hand_score", "hand_won", "rank", "sit_out_score",
    "analyse", "ROBOTS",
]
