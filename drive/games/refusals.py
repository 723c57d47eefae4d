"""The engine's refusals in the reader's language.

The engine refuses an action with a rule, a reason code of ``engine.REFUSALS`` and the
values its sentence needs (``IllegalAction.params``: a card "QH", a suit "H", a call
"4 downtown", a phase, a number); its ``detail`` is English, for the command line.
Here each code has its sentence and each value its words, as the table page shows
them (a card is its rank letter and suit symbol, "Д♥"), so a refusal on the table
speaks the interface's language. A code without a sentence falls back to the
engine's English (tests/play/test_refusals.py proves none is missing).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import pgettext

from engine import EngineError, IllegalAction, card_str, parse_action

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

# reason code -> its sentence; the placeholders are the code's params (engine.REFUSALS).
SENTENCES = {
    "not_in_hand": gettext_lazy("This card (%(card)s) is not in your hand."),
    "must_follow_suit": gettext_lazy("You must follow suit (%(suit)s): this card (%(card)s) may not be played."),
    "joker_lead": gettext_lazy("A joker may be led only when no other card is left (%(card)s)."),
    "joker_in_no_trump": gettext_lazy(
        "In no trump the jokers' rules apply: this card (%(card)s) may not be played now."),
    "not_a_card": gettext_lazy('The hand is in play: play a card, not "%(action)s".'),
    "not_in_play": gettext_lazy("No one acts now (%(phase)s)."),
    "not_a_call": gettext_lazy('The auction is on: bid or pass, not "%(action)s".'),
    "dealer_must_bid": gettext_lazy("All the others passed: the dealer must bid."),
    "bid_too_low": gettext_lazy("Your bid (%(action)s) does not beat %(to_beat)s."),
    "bid_out_of_range": gettext_lazy("A bid is %(min)s to %(max)s tricks over six, not %(level)s."),
    "forced_bid_minimum": gettext_lazy("After three passes the dealer may bid %(min)s only."),
    "must_declare": gettext_lazy("All have passed: the dealer must name a trump suit or no trump."),
    "call_not_higher": gettext_lazy(
        "Your call (%(action)s) does not beat %(to_beat)s (spades < clubs < diamonds < hearts < no trump)."),
    "discard_two": gettext_lazy(
        "The declarer puts away two of the dummy's cards, one at a time (not \"%(action)s\")."),
    "declare": gettext_lazy('The declarer names %(names)s (not "%(action)s").'),
    "must_name_ranking": gettext_lazy("In no trump the winner of the auction names the ranking: uptown or downtown."),
    "must_name_trump": gettext_lazy("The winner of the auction names trump first."),
    "discard_one": gettext_lazy("The winner of the auction puts away %(count)s cards, one at a time."),
    "kitty_jokers": gettext_lazy("The rules of this game say which jokers go to the kitty."),
    "already_decided": gettext_lazy("Keep or swap is chosen once, before play."),
    "keep_or_swap": gettext_lazy("First keep your cards or swap them."),
}


def card_words(text: str) -> str:
    """A card as the table page shows it: "Д♥" in Russian, "Q♥" in English; a joker by name."""
    if text in ("BJ", "LJ"):
        return _("big joker") if text == "BJ" else _("little joker")
    letters = {"A": pgettext("rank", "A"), "K": pgettext("rank", "K"), "Q": pgettext("rank", "Q"),
               "J": pgettext("rank", "J"), "T": "10"}
    return letters.get(text[0], text[0]) + SYMBOLS[text[1]]


def suit_words(text: str) -> str:
    """A suit as a word: "червы", "hearts"; "NT" is no trump."""
    if text == "NT":
        return _("No trump").lower()
    return {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")}[text]


def action_words(text: str | None) -> str:
    """A call or a card as the table's buttons say it: "4 вниз", "пас", "козырь: червы";
    None is the forced dealer's lowest bid (dummy whist)."""
    if text is None:
        return _("the forced minimum")
    act = parse_action(text)
    if act.kind == "card":
        return card_words(text)
    if act.kind == "bid":
        strain = _("No trump").lower() if act.strain == "NT" else ranking_words(act.strain)
        return f"{act.level} {strain}"
    if act.kind == "denomination":
        return suit_words(act.strain)
    if act.kind == "ranking":
        return ranking_words(act.strain)
    if act.kind == "trump":
        return f"{_('Trump').lower()}: {suit_words(act.strain)}"
    if act.kind == "discard":
        cards = ", ".join(card_words(card_str(c)) for c in act.cards)
        return f"{_('Put away').lower()} {cards}"
    return {"pass": _("Pass"), "keep": _("Keep"), "swap": _("Swap")}[act.kind].lower()


def ranking_words(text: str) -> str:
    return {"uptown": _("uptown"), "downtown": _("downtown")}[text]


def phase_words(text: str) -> str:
    return {"deal": _("Dealing"), "scored": _("Hand over"), "over": _("Game over")}.get(text, text).lower()


def names_words(text: str) -> str:
    return {"trump": _("a trump suit"), "ranking": _("the ranking, uptown or downtown")}[text]


def number_words(value: Any) -> str:
    return str(int(value))


# param name (engine.REFUSALS) -> how its value is worded
WORDERS: dict[str, Callable[[Any], str]] = {
    "card": card_words, "suit": suit_words, "action": action_words, "to_beat": action_words,
    "phase": phase_words, "names": names_words,
    "level": number_words, "min": number_words, "max": number_words, "count": number_words,
}


def refusal_text(exc: IllegalAction) -> str:
    """The refusal's sentence in the active language, its values worded; the engine's
    English only for a code with no sentence, or values its sentence cannot word."""
    sentence = SENTENCES.get(exc.reason)
    if sentence is None:
        return exc.detail
    try:
        words = {name: WORDERS[name](value) for name, value in exc.params.items()}
        return str(sentence) % words
    except (KeyError, TypeError, ValueError, IndexError, EngineError):
        return exc.detail

