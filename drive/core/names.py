"""What a name may be: display names, player and walk-in names, usernames.

Refused: control and format characters (Unicode Cc, Cf: zero-width spaces and joiners,
direction marks, the BOM), line and paragraph separators (Zl, Zp), the fillers that
draw nothing, and a name that is blank once stripped. Such names let two players look
the same on the standings or one look like nobody. One check for the services, the
forms and the serializers.
"""
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from drive.core.errors import Invalid

REFUSED_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}
# Zero-width and blank-drawing characters of other categories (U+200B-U+200F, U+2060 and
# U+FEFF are Cf already; the Hangul fillers are letters, the braille blank a symbol).
INVISIBLE = {chr(c) for c in range(0x200B, 0x2010)} | {"\u2060", "\ufeff", "\u115f", "\u1160", "\u3164",
                                                       "\uffa0", "\u2800"}


def name_problem(value: str) -> str | None:
    """Why `value` is no name, or None."""
    text = (value or "").strip()
    if any(ch in INVISIBLE or unicodedata.category(ch) in REFUSED_CATEGORIES for ch in text):
        return _("A name may not contain invisible or control characters.")
    if not text:
        return _("Enter a name.")
    return None


def clean_name(value: str, *, field: str = "display_name") -> str:
    """The name stripped, or Invalid with the field's message (services)."""
    problem = name_problem(value)
    if problem:
        raise Invalid(problem, field=field)
    return value.strip()


def validate_name(value: str) -> None:
    """Django validator (forms, model fields; DRF serializers take it as well)."""
    problem = name_problem(value)
    if problem:
        raise ValidationError(problem, code="invalid_name")
