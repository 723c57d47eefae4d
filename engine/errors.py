"""The one base class of every error the engine raises, and the illegal action.

Every engine error is a ``ValueError`` too, so callers that only know "bad input"
keep working; ``IllegalAction`` names the rule of docs/rules.md that refuses the action.

``REFUSALS`` is the engine's whole vocabulary of refusals: every ``reason`` an
``IllegalAction`` may give, with the names of the values (``params``) its sentence
needs. The English ``detail`` is for the command line and the logs; a front end
words the refusal in its reader's language from ``reason`` and ``params`` (the
online table: drive/games/refusals.py). A new refusal is declared here first.
"""

from collections.abc import Mapping


class EngineError(ValueError):
    """Base of every error the engine raises."""


# reason -> the names of its params. Their values are the engine's texts: a card
# "QH", a suit "H", an action or call "4 downtown", a phase "scored", a number.
REFUSALS: dict[str, tuple[str, ...]] = {
    # playing a card (S5, S6, B3, Y3)
    "not_in_hand": ("card",),               # S5, S6.1, B4: a card the hand does not hold
    "must_follow_suit": ("card", "suit"),   # S6.2: ``suit`` is the suit led
    "joker_lead": ("card",),                # B3: a joker led while other cards are left
    "joker_in_no_trump": ("card",),         # Y3: the jokers' rules of no trump
    "not_a_card": ("action",),              # S6.1, S6.5: a call while the hand is in play
    "not_in_play": ("phase",),              # S7.2, S7.3: no one acts between hands
    # auctions (B2, Y2, R1)
    "not_a_call": ("action",),
    "dealer_must_bid": (),
    "bid_too_low": ("action", "to_beat"),   # ``to_beat`` a bid, or None: the forced minimum
    "bid_out_of_range": ("level", "min", "max"),
    "forced_bid_minimum": ("min",),
    "must_declare": (),                     # R1: all passed, the dealer names a denomination
    "call_not_higher": ("action", "to_beat"),
    # after the auction (B4, Y1, Y3) and keep or swap (P1)
    "discard_two": ("action",),             # Y1: two of the dummy's cards
    "declare": ("action", "names"),         # Y3: ``names`` is "ranking" or "trump"
    "must_name_ranking": (),
    "must_name_trump": (),
    "discard_one": ("count",),              # B4: ``count`` cards, one at a time
    "kitty_jokers": (),
    "already_decided": (),
    "keep_or_swap": (),
}


class IllegalAction(EngineError):
    """An action the rules refuse in this state. ``rule`` is its number in
    docs/rules.md (``"S6.2"``), ``reason`` a short code of ``REFUSALS``
    (``"must_follow_suit"``), ``params`` the values its sentence needs (the
    names ``REFUSALS`` gives it), ``seat`` the seat that acted and ``action``
    its text. A replayed record sets ``deal`` and ``index``: where the action stands."""

    deal: int | None = None
    index: int | None = None

    def __init__(self, message: str, *, rule: str, reason: str,
                 seat: str | None = None, action: str | None = None,
                 params: Mapping[str, object] | None = None) -> None:
        self.rule, self.reason, self.seat, self.action = rule, reason, seat, action
        self.params = dict(params or {})
        self.detail = message
        super().__init__(f"{message} (rule {rule})")
