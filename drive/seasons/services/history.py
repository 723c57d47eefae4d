"""Before a player's history is read: everything it shows brought up to the evenings
(the grades, the evenings' published standings, the season tables of the player's
clubs), as every read of final results does. Who may read it: drive.seasons.access."""
from __future__ import annotations

from drive.events.models import Player
from drive.scoring.selectors.standings import Freshness
from drive.scoring.services.freshness import fresh_standings
from drive.seasons.selectors import history as selectors
from drive.seasons.services.grades import fresh_grades
from drive.seasons.services.table import fresh_table


def fresh_history(*, player: Player, seasons: bool = True) -> dict[int, Freshness]:
    """Make the player's history fresh; {event: Freshness} of their published evenings,
    for the prizes. `seasons`: the season tables too (the page shows them, the API not)."""
    fresh = {event.pk: fresh_standings(event=event) for event in selectors.published_events(player)}
    fresh_grades()
    if seasons:
        for season in selectors.club_seasons(player):
            fresh_table(season=season)
    return fresh
