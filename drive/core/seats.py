"""A seat's letter as the reader's language writes it: N E S W in English, С В Ю З in
Russian, Пн Сх Пд Зх in Ukrainian (the glossary). Codes stay N E S W everywhere else."""
from django.utils.translation import pgettext_lazy

LETTERS = {"N": pgettext_lazy("seat", "N"), "E": pgettext_lazy("seat", "E"),
           "S": pgettext_lazy("seat", "S"), "W": pgettext_lazy("seat", "W")}


def seat_letter(position: str) -> str:
    """The translated letter of a seat code; anything else (empty, unknown) as it is."""
    letter = LETTERS.get(position)
    return position if letter is None else str(letter)
