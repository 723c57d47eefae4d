"""The words the table page's script shows, in the reader's language (the glossary's):
suits, ranks, seats, sides, calls and the page's sentences. The script gets them once,
as JSON in the page, so every translation stays in locale/*/django.po."""
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from drive.core.seats import seat_letter

SUITS = "SHDC"
RANK_CODES = "AKQJT98765432"


def suit_names() -> dict:
    return {"S": _("Spades"), "H": _("Hearts"), "D": _("Diamonds"), "C": _("Clubs")}


def suits_of() -> dict:
    """A card's suit as in "queen of clubs" (Russian and Ukrainian: the genitive)."""
    return {"S": pgettext("of suit", "spades"), "H": pgettext("of suit", "hearts"),
            "D": pgettext("of suit", "diamonds"), "C": pgettext("of suit", "clubs")}


def rank_letters() -> dict:
    """What a card shows: A K Q J 10 ... in English, Т К Д В 10 ... in Russian and Ukrainian."""
    return {"A": pgettext("rank", "A"), "K": pgettext("rank", "K"), "Q": pgettext("rank", "Q"),
            "J": pgettext("rank", "J"), "T": "10"}


def rank_names() -> dict:
    return {"A": _("ace"), "K": _("king"), "Q": _("queen"), "J": _("jack"), "T": "10"}


def page_words() -> dict:
    return {
        "suits": suit_names(),
        "suits_of": suits_of(),
        "ranks": rank_letters(),
        "rank_names": rank_names(),
        "card": _("%(rank)s of %(suit)s"),
        "jokers": {"BJ": _("big joker"), "LJ": _("little joker")},
        "seats": {code: seat_letter(code) for code in "NESW"},
        "dummy": _("dummy"),
        "dummy_of": _("dummy (%(player)s)"),
        "play_from": _("Play from dummy (%(player)s)"),
        "sides": {"NS": _("N-S"), "EW": _("E-W")},
        "calls": {"pass": _("Pass"), "NT": _("No trump"), "uptown": _("uptown"), "downtown": _("downtown"),
                  "keep": _("Keep"), "swap": _("Swap"), "trump": _("Trump"), "discard": _("Put away")},
        "phases": {"deal": _("Dealing"), "auction": _("Auction"), "exchange": _("Exchange"),
                   "play": _("Play"), "scored": _("Hand over"), "over": _("Game over")},
        "your_turn": _("Your turn"),
        "turn_of": _("%(seat)s to play"),
        "waiting": _("Waiting for %(seat)s"),
        "you": _("you"),
        "robot": _("robot"),
        "standin": _("a robot plays for now"),
        "robots": {"rules": _("rules robot"), "strong": _("strong robot"), "random": _("random robot")},
        "standin_robot": _("stand-in robot"),
        "manage_seat": _("Seat %(seat)s"),
        "manage_silent": _("silent: a robot plays for now"),
        "seat_robot": _("Seat a %(robot)s"),
        "substitute": _("Substitute (user name)"),
        "seat_substitute": _("Offer the seat"),
        "seated": _("Seat %(seat)s is filled."),
        "open_seat": _("open seat"),
        "trump": _("Trump"),
        "no_trump": _("No trump"),
        "turned": _("turned card"),
        "tricks": _("Tricks"),
        "trick_won": _("%(seat)s wins the trick"),
        "last_trick": _("Last trick"),
        "hide_last_trick": _("Hide the last trick"),
        "no_last_trick": _("No trick played yet."),
        "auction": _("Auction"),
        "contract": _("Contract"),
        "dealer": _("Dealer"),
        "kitty": _("Kitty"),
        "open_hand": _("%(seat)s's cards, face up"),
        "above": _("above the line"),
        "below": _("below the line"),
        "total": _("Total"),
        "game_n": _("Game %(n)s"),
        "hand_n": _("Hand %(n)s"),
        "score": _("Score sheet"),
        "winner": _("Winner: %(side)s"),
        "games_won": _("Games won"),
        "sheet": sheet_words(),
        "your_hand": _("Your hand"),
        "choose": _("Your call"),
        "sending": _("Sending…"),
        "stale": _("The table moved on: here it is now."),
        "refused": _("Not allowed: %(detail)s"),
        "offline": _("Connection lost: trying again…"),
        "hands_played": _("Hands played: %(n)s"),
        "last_hand": _("Last hand: %(result)s"),
        "watching": _("You are watching this table."),
        "hand_over": _("Hand %(n)s is over"),
        "score_change": _("Points this hand"),
        "next_hand": _("Next hand"),
        "you_won": _("You won"),
        "you_lost": _("You lost"),
        "side_won": _("%(side)s won"),
        "no_winner": _("Nobody won"),
        "final_score": _("Final score"),
        "new_game": _("New game with the same seats"),
        **announce_words(),
    }


def sheet_words() -> dict:
    """The score sheet's own words (play_sheet.js): its lines, a hand's details, what a
    Siberian hand wrote (engine.variants.siberian_scoring's entries, Prussian items)."""
    return {
        "rubber_n": _("Rubber %(n)s"),
        "with_dummy": _("%(seat)s with the dummy"),
        "special_suit": _("special suit: %(suit)s"),
        "carried": _("carried over"),
        "balance": _("Balance"),
        "points": _("Points"),
        "rubber_points": _("Rubber points"),
        "game_points": _("Points for the game"),
        "target": _("Points to win: %(n)s"),
        "books": _("tricks: %(n)s"),  # the engine's books: the side's tricks, a kitty included
        "made": _("made"),
        "not_made": _("not made"),
        "boston": _("Boston"),
        "hands_count": _("Hand by hand (%(n)s)"),
        "entries": {"tricks": _("tricks"), "undertricks": _("undertricks"), "honours": _("honours"),
                    "aces": _("aces"), "nt_aces": _("aces at no trump"), "slam": _("slam"),
                    "game": _("game bonus"), "rubber": _("rubber bonus")},
    }


def announce_words() -> dict:
    """What the table says to a screen reader (issue 20): seats by their names, each card
    played, and what is asked when it is the player's turn."""
    return {
        "seat_names": {"N": _("North"), "E": _("East"), "S": _("South"), "W": _("West")},
        "played": _("%(seat)s played %(card)s"),
        "you_played": _("You played %(card)s"),
        "turn_card": _("Your turn: play a card"),
        "turn_dummy": _("Your turn: play a card from dummy"),
        "turn_from": _("Your turn: play a card from %(seat)s's hand"),
        "turn_discard": _("Your turn: put a card away"),
        "turn_trump": _("Your turn: choose the trump"),
        "turn_call": _("Your turn: make a call"),
        "turn_choose": _("Your turn: choose (%(choices)s)"),
    }


# ---- the hand history's review in words (issue 20) --------------------------------------
def review_words() -> dict:
    """The hand history's review: who played a card, what it cost, how far a side fell
    short of the double-dummy result; the variant's sides and dummies by name."""
    return {
        "dummy_of": _("dummy (%(player)s)"),
        "below_best": _("Tricks below the best play: %(sides)s."),
        "at_best": _("Each side took what the best play gives."),
        "costly": _("Cards that gave tricks away"),
        "card_cost": _("%(seat)s played %(card)s: tricks lost %(n)s"),
    }
