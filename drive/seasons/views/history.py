"""A player's history page: every published evening (place of how many, total, prizes), the
season tables they are in, and their whist grade with its chart. Thin: the permission
(drive.seasons.access), the freshness (a service), then the selectors and the pure chart."""
from datetime import date

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from drive.seasons import access, chart
from drive.seasons.grade import PROVISIONAL_HANDS
from drive.seasons.selectors import history as selectors
from drive.seasons.services.history import fresh_history


@login_required
def player_history(request, player_id):
    player = access.history_player(request.user, player_id)
    fresh = fresh_history(player=player)
    lines = selectors.published_standings(player)
    prizes = selectors.prizes_won(player, lines, fresh)
    evenings = [{**line, "day": date.fromisoformat(line["date"]), "prizes": prizes.get(line["event"], [])}
                for line in selectors.evening_lines(lines)]
    steps = selectors.grade_steps(player)
    return render(request, "seasons/history.html", {
        "player": player, "own": player.user_id == request.user.pk, "evenings": evenings,
        "seasons": selectors.season_rows(player), "grade": selectors.grade_of(player),
        "provisional_hands": PROVISIONAL_HANDS,
        "chart": chart.chart([chart.Step(day=s["day"], value=s["value"], provisional=s["provisional"])
                              for s in steps]),
    })
