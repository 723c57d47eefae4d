"""How a person sees the cards (PlayerDisplay): read only. Nobody signed in, or a person
who never chose, gets the usual deck (two colours, normal contrast)."""
from __future__ import annotations

from typing import TypedDict

from drive.core.accounts import User
from drive.play.models import PlayerDisplay


class Display(TypedDict):
    four_colour: bool
    high_contrast: bool


DEFAULT: Display = {"four_colour": False, "high_contrast": False}


def display_of(*, user: User | None) -> Display:
    if user is None or not user.is_authenticated:
        return DEFAULT.copy()
    row = PlayerDisplay.objects.filter(user_id=user.pk).first()
    if row is None:
        return DEFAULT.copy()
    return {"four_colour": row.four_colour, "high_contrast": row.high_contrast}


def display_classes(display: Display) -> str:
    """The classes a page's root gets from it, each with a leading space ("" for none)."""
    return "".join([" deck-four" if display["four_colour"] else "", " high-contrast" if display["high_contrast"] else ""])
