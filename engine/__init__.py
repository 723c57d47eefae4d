"""The whist rules engine: pure Python, no Django, deterministic given a seed.

    from engine import HandState, deal, new_rng, preset
    state = HandState.from_deal(deal(dealer=0, rng=new_rng(7), rules=preset("short")))
    state.legal_moves(); state.play(card); state.copy(); state.view(seat)

Rules are cited by their numbers in RULES.md (parts S, D and L).
"""

from .cards import NO_TRUMP, CardError, Suit, card_name, card_str, cards_of, mask_of, parse_card
from .deal import SEATS, Deal, cut_for_partners, deal, new_rng, trump_for_hand
from .drive_scoring import drive_hand_score, drive_hand_scores
from .game import Game, GameOver, Rubber, play_game
from .play import HandState, IllegalPlay, trick_winner
from .record import BadDeal, HandRecord, RecordError, parse_record, replay, to_record
from .rules import PRESETS, Ruleset, RulesError, preset
from .scoring import HandScore, hand_points, score_hand
from .validate import ResultError, check_record, validate_result, validate_tricks
from .views import SeatView

__all__ = [
    "NO_TRUMP", "CardError", "Suit", "card_name", "card_str", "cards_of", "mask_of", "parse_card",
    "SEATS", "Deal", "cut_for_partners", "deal", "new_rng", "trump_for_hand",
    "drive_hand_score", "drive_hand_scores", "Game", "GameOver", "Rubber", "play_game",
    "HandState", "IllegalPlay", "trick_winner",
    "BadDeal", "HandRecord", "RecordError", "parse_record", "replay", "to_record",
    "PRESETS", "Ruleset", "RulesError", "preset",
    "HandScore", "hand_points", "score_hand",
    "ResultError", "check_record", "validate_result", "validate_tricks", "SeatView",
]
