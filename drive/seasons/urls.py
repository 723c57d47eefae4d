"""The seasons' pages and their API (under /api/)."""
from django.urls import include, path

from drive.seasons.api import players as players_api
from drive.seasons.api import history as history_api
from drive.seasons.api import seasons as api
from drive.seasons.views import console, history, pages

api_patterns = [
    path("clubs/<int:club_id>/seasons/", api.ClubSeasonsView.as_view(), name="api-club-seasons"),
    path("seasons/<int:season_id>/", api.SeasonDetailView.as_view(), name="api-season"),
    path("seasons/<int:season_id>/table/", api.SeasonTableView.as_view(), name="api-season-table"),
    path("players/<int:player_id>/history/", history_api.PlayerHistoryView.as_view(), name="api-player-history"),
    path("clubs/<int:club_id>/players/merge/", players_api.MergePlayersView.as_view(), name="api-club-players-merge"),
]

urlpatterns = [
    path("seasons/<int:season_id>/", pages.season_page, name="season-page"),
    path("seasons/<int:season_id>/table.csv", pages.season_csv, name="season-table-csv"),
    path("seasons/<int:season_id>/screen/", pages.season_screen, name="season-screen"),
    path("console/clubs/<int:club_id>/seasons/", console.club_seasons, name="console-seasons"),
    path("console/clubs/<int:club_id>/seasons/new/", console.season_create, name="console-season-create"),
    path("console/seasons/<int:season_id>/edit/", console.season_edit, name="console-season-edit"),
    path("console/seasons/<int:season_id>/delete/", console.season_delete, name="console-season-delete"),
    path("console/clubs/<int:club_id>/players/", console.club_players, name="console-players"),
    path("console/clubs/<int:club_id>/players/merge/", console.players_merge, name="console-players-merge"),
    path("players/<int:player_id>/history/", history.player_history, name="player-history"),
    path("api/", include(api_patterns)),
]
