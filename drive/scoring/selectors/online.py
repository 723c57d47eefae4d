"""Which table of a round is played online: online play (drive.play, a floor up) lends
the answer from its AppConfig.ready(), since this floor cannot import it. With nothing
lent every table is on paper, as before.

A table played online takes no paper result (results.submit_result refuses it, 409) and
its phone page says where it is played instead of asking for tricks."""
from __future__ import annotations

from collections.abc import Callable

from drive.scoring.models import Round, Table

# (event id, round number, table number) -> the online table's page, or None on paper.
OnlineTableFinder = Callable[[int, int, int], "str | None"]

_finders: list[OnlineTableFinder] = []


def on_online_table(finder: OnlineTableFinder) -> None:
    """Set how a round's table is found online: `finder(event_id, round_number, table_number)`."""
    _finders[:] = [finder]


def online_table_url(round_: Round | None, table: Table) -> str | None:
    """The page where this table plays the round online, or None (played on paper)."""
    if round_ is None:
        return None
    for finder in _finders:
        return finder(round_.event_id, round_.number, table.number)
    return None
