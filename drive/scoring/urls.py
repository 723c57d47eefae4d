"""The evening's pages (the tables' phones, the organiser's console, the results) and its API (under /api/)."""
from django.urls import include, path

from drive.scoring.api import claims as claims_api
from drive.scoring.api import console as console_api
from drive.scoring.api import players as players_api
from drive.scoring.api import results as results_api
from drive.scoring.api import table as table_api
from drive.scoring.selectors.console import MOVES
from drive.scoring.views import claims, console, players, results, table

EVENING = "console/events/<int:event_id>/evening/"
TABLE = EVENING + "rounds/<int:round_number>/tables/<int:table_number>/"

api_patterns = [
    path("tables/<str:token>/", table_api.TableView.as_view(), name="api-table"),
    path("tables/<str:token>/claims/", table_api.TableClaimsView.as_view(), name="api-table-claims"),
    path("tables/<str:token>/results/", table_api.TableResultsView.as_view(), name="api-table-results"),
    path("events/<int:event_id>/evening/", console_api.EveningView.as_view(), name="api-evening"),
    *(path(f"events/<int:event_id>/evening/{move}/", console_api.evening_move(move), name=f"api-evening-{move}")
      for move in MOVES),
    path("events/<int:event_id>/tables/<int:number>/claims/", claims_api.TableClaimsView.as_view(),
         name="api-table-claims-console"),
    path("events/<int:event_id>/tables/<int:number>/claims/<str:seat>/", claims_api.TableClaimView.as_view(),
         name="api-table-claim-release"),
    path("events/<int:event_id>/tables/<int:number>/link/", claims_api.TableLinkView.as_view(),
         name="api-table-link"),
    path("events/<int:event_id>/table-links/", claims_api.TableLinksView.as_view(), name="api-table-links"),
    path("events/<int:event_id>/rounds/<int:round_number>/tables/<int:table_number>/",
         console_api.RoundTableView.as_view(), name="api-round-table"),
    path("events/<int:event_id>/corrections/", console_api.CorrectionsView.as_view(), name="api-corrections"),
    path("events/<int:event_id>/evening/players/", players_api.EveningPlayersView.as_view(), name="api-evening-players"),
    path("events/<int:event_id>/evening/late-arrivals/", players_api.LateArrivalView.as_view(), name="api-late-arrivals"),
    path("events/<int:event_id>/evening/leavers/", players_api.LeaverView.as_view(), name="api-leavers"),
    path("events/<int:event_id>/standings/", results_api.StandingsView.as_view(), name="api-standings"),
    path("events/<int:event_id>/results/", results_api.ResultsView.as_view(), name="api-results"),
    path("events/<int:event_id>/results/corrections/", results_api.ResultsCorrectionsView.as_view(),
         name="api-results-corrections"),
    path("events/<int:event_id>/my-evening/", results_api.MyEveningView.as_view(), name="api-my-evening"),
]

urlpatterns = [
    path("t/<str:token>/", table.table_entry, name="table-entry"),
    path("t/<str:token>/panel/", table.table_panel, name="table-panel"),
    path("t/<str:token>/me/", table.table_me, name="table-me"),
    path("t/<str:token>/hands/", table.table_submit, name="table-submit"),
    path("console/events/<int:event_id>/table-cards/", table.table_cards, name="console-table-cards"),
    path(EVENING, console.evening, name="console-evening"),
    path(EVENING + "live/", console.evening_live, name="console-evening-live"),
    path(EVENING + "moves/<slug:action>/", console.evening_move, name="console-evening-move"),
    path(TABLE, console.table_page, name="console-evening-table"),
    path(TABLE + "claims/<str:seat>/release/", claims.release, name="console-release-claim"),
    path(TABLE + "link/", claims.reissue_link, name="console-reissue-link"),
    path(TABLE + "hands/<int:hand_number>/correct/", console.correct_hand, name="console-correct-hand"),
    path(TABLE + "hands/<int:hand_number>/revoke/", console.revoke_hand, name="console-revoke-hand"),
    path("console/events/<int:event_id>/corrections/", console.corrections, name="console-corrections"),
    path("console/events/<int:event_id>/players/", players.players, name="console-evening-players"),
    path("console/events/<int:event_id>/players/join/<int:registration_id>/", players.join, name="console-evening-join"),
    path("console/events/<int:event_id>/players/leave/<int:entrant_id>/", players.leave, name="console-evening-leave"),
    path("events/<int:event_id>/my-evening/", results.my_evening, name="my-evening"),
    path("events/<int:event_id>/standings/", results.standings, name="event-standings"),
    path("events/<int:event_id>/results/", results.results, name="event-results"),
    path("events/<int:event_id>/results.csv", results.results_csv, name="event-results-csv"),
    path("events/<int:event_id>/corrections.csv", results.corrections_csv, name="event-corrections-csv"),
    path("events/<int:event_id>/results.json", results_api.results_json, name="event-results-json"),
    path("console/events/<int:event_id>/scorecards/", results.scorecards, name="console-scorecards"),
    path("api/", include(api_patterns)),
]
