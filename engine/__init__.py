"""The whist rules engine: pure Python, no Django, deterministic given a seed.

Every variant of docs/rules.md is one game-state interface (python-chess and OpenSpiel
are the models):

    from engine import find_variant, new_rng, replay_game
    game = find_variant("bid").new_game(rng := new_rng(7))
    game.deal(rng)
    game.phase, game.to_act, game.legal_actions(), game.apply("4 downtown")
    game.view("E"); game.copy(); replay_game(game.record()) == game

The fast core of plain four-handed whist stays underneath (robots' playouts):

    state = HandState.from_deal(deal(dealer=0, rng=new_rng(7), rules=preset("short")))
    state.legal_moves(); state.play(card); state.copy(); state.view(seat)

Rules are cited by their numbers in docs/rules.md; every error is an ``EngineError``.
"""

from .actions import Action, ActionError, ActionKind, Denomination, Ranking, Strain, parse_action
from .cards import Card, Hand, NO_TRUMP, CardError, Suit, card_name, card_str, cards_of, mask_of, parse_card
from .deal import SEATS, Deal, cut_for_partners, deal, new_rng, trump_for_hand
from .errors import REFUSALS, EngineError, IllegalAction
from .games import GameRecordError, check_game, play_random, replay_game
from .seats import Seat
from .state import BadRecord, GameState, Phase
from .variant import Variant
from .variants import VARIANTS, find_variant
from .drive_scoring import drive_hand_score, drive_hand_scores
from .game import Game, GameOver, Rubber, play_game
from .play import HandState, IllegalPlay, trick_winner
from .record import BadDeal, HandRecord, RecordError, parse_record, replay, to_record
from .rules import PRESETS, Ruleset, RulesError, preset
from .scoring import HandScore, hand_points, score_hand
from .validate import ResultError, check_record, validate_result, validate_tricks
from .views import SeatView

__all__ = [
    "Action", "ActionError", "ActionKind", "Denomination", "Ranking", "Strain", "parse_action",
    "Card", "Hand", "EngineError", "IllegalAction", "REFUSALS", "GameRecordError", "check_game", "play_random",
    "replay_game", "Seat", "BadRecord", "GameState", "Phase", "Variant", "VARIANTS", "find_variant",
    "NO_TRUMP", "CardError", "Suit", "card_name", "card_str", "cards_of", "mask_of", "parse_card",
    "SEATS", "Deal", "cut_for_partners", "deal", "new_rng", "trump_for_hand",
    "drive_hand_score", "drive_hand_scores", "Game", "GameOver", "Rubber", "play_game",
    "HandState", "IllegalPlay", "trick_winner",
    "BadDeal", "HandRecord", "RecordError", "parse_record", "replay", "to_record",
    "PRESETS", "Ruleset", "RulesError", "preset",
    "HandScore", "hand_points", "score_hand",
    "ResultError", "check_record", "validate_result", "validate_tricks", "SeatView",
]
