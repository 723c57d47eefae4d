"""A standings line in words and cells, for the results page and its CSV: the score grid
(round by hand), round numbers as runs, the grid's cells as words. Pure: it formats what
the reads (drive.scoring.selectors.results) found."""
from __future__ import annotations

from django.utils.translation import gettext as _

from drive.scoring.prizes import StandingLine


def score_grid(line: StandingLine, columns: list[tuple[int, int]]) -> list[tuple[str, int | None]]:
    """A line's score in each (round, hand) column as (kind, score): kind is "score",
    "disputed", "sat_out" or "" (not played)."""
    scores = {(h["round"], h["hand"]): h for h in line.hands}
    sat_out = set(line.sat_out_rounds)
    cells = []
    for round_number, hand in columns:
        cell = scores.get((round_number, hand))
        if cell is not None:
            cells.append(("score", cell["score"]) if cell["counted"] else ("disputed", cell["score"]))
        elif round_number in sat_out:
            cells.append(("sat_out", None))
        else:
            cells.append(("", None))
    return cells


def grid_text(cells: list[tuple[str, int | None]]) -> list[int | str | None]:
    """The grid's cells as words, for the CSV."""
    words = {"disputed": _("disputed"), "sat_out": _("sat out"), "": ""}
    return [value if kind == "score" else words[kind] for kind, value in cells]
