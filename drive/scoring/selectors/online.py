"""Which table of a round is played online: online play (drive.play, a floor up) lends
the answer from its AppConfig.ready(), since this floor cannot import it. With nothing
lent every table is on paper, as before.

A table played online takes no paper result (results.submit_result refuses it, 409), its
phone page says where it is played instead of asking for tricks, and the organiser's console
marks it, with a link to watch it (a round's tables at once: one question for the grid)."""
from __future__ import annotations

from collections.abc import Callable

from drive.scoring.models import Round, Table

# (event id, round number, table number) -> the online table's page, or None on paper.
OnlineTableFinder = Callable[[int, int, int], "str | None"]

# (event id, round number) -> {table number: its online table's page} for the round's
# tables played online (the others are on paper).
OnlineRoundFinder = Callable[[int, int], "dict[int, str]"]

_finders: list[OnlineTableFinder] = []
_round_finders: list[OnlineRoundFinder] = []


def on_online_table(finder: OnlineTableFinder) -> None:
    """Set how a round's table is found online: `finder(event_id, round_number, table_number)`."""
    _finders[:] = [finder]


def on_online_round(finder: OnlineRoundFinder) -> None:
    """Set how a round's tables are found online at once: `finder(event_id, round_number)`."""
    _round_finders[:] = [finder]


def online_table_url(round_: Round | None, table: Table) -> str | None:
    """The page where this table plays the round online, or None (played on paper)."""
    if round_ is None:
        return None
    for finder in _finders:
        return finder(round_.event_id, round_.number, table.number)
    return None


def online_table_urls(round_: Round | None) -> dict[int, str]:
    """Every table playing the round online, {table number: its page}, in one question
    (the console's grid of the round); a table not in it is played on paper."""
    if round_ is None:
        return {}
    for finder in _round_finders:
        return finder(round_.event_id, round_.number)
    return {}
