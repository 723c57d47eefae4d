"""Words of the scoring pages in the reader's language.

{{ position|seat_letter }}: a seat's letter (N E S W; Russian С В Ю З, Ukrainian Пн Сх Пд
Зх, as in the glossary). {{ reason|change_reason }}: why a hand's result changed, the
table's own reasons translated, the organiser's typed reason as typed.
"""
from functools import lru_cache

from django import template
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from drive.core import seats
from drive.scoring.services.results import TABLE_REASONS

register = template.Library()


@register.filter
def seat_letter(position: str) -> str:
    return seats.seat_letter(position)


@lru_cache(maxsize=1)
def _table_reasons() -> dict[str, str]:
    """Each table reason, and its translation in every language, -> the English text.
    Rows written before the history kept English hold the writing phone's language."""
    known = {reason: reason for reason in TABLE_REASONS}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            known.update({gettext(reason): reason for reason in TABLE_REASONS})
    return known


@register.filter
def change_reason(reason: str) -> str:
    english = _table_reasons().get(reason)
    return reason if english is None else gettext(english)
