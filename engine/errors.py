"""The one base class of every error the engine raises, and the illegal action.

Every engine error is a ``ValueError`` too, so callers that only know "bad input"
keep working; ``IllegalAction`` names the rule of RULES.md that refuses the action.
"""


class EngineError(ValueError):
    """Base of every error the engine raises."""


class IllegalAction(EngineError):
    """An action the rules refuse in this state. ``rule`` is its number in
    RULES.md (``"S6.2"``), ``reason`` a short code (``"must_follow_suit"``),
    ``seat`` the seat that acted and ``action`` its text."""

    def __init__(self, message: str, *, rule: str, reason: str,
                 seat: str | None = None, action: str | None = None):
        self.rule, self.reason, self.seat, self.action = rule, reason, seat, action
        self.detail = message
        super().__init__(f"{message} (rule {rule})")
