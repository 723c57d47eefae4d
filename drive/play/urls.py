"""Online play: its pages (/play/...) and its API (under /api/play/)."""
from django.urls import include, path

from drive.play.api import display as display_api
from drive.play.api import evening as evening_api
from drive.play.api import tables as tables_api
from drive.play.views import console, pages

api_patterns = [
    path("play/tables/", tables_api.TablesView.as_view(), name="api-play-tables"),
    path("play/tables/open/", tables_api.OpenTablesView.as_view(), name="api-play-open-tables"),
    path("play/tables/<int:table_id>/", tables_api.TableView.as_view(), name="api-play-table"),
    path("play/tables/<int:table_id>/seats/", tables_api.SeatsView.as_view(), name="api-play-seats"),
    path("play/tables/<int:table_id>/close/", tables_api.CloseView.as_view(), name="api-play-close"),
    path("play/tables/<int:table_id>/actions/", tables_api.ActionsView.as_view(), name="api-play-actions"),
    path("play/tables/<int:table_id>/hands/", tables_api.HandsView.as_view(), name="api-play-hands"),
    path("play/display/", display_api.DisplayView.as_view(), name="api-play-display"),
    path("play/events/<int:event_id>/tables/", evening_api.EveningTablesView.as_view(), name="api-play-evening"),
]

urlpatterns = [
    path("play/", pages.lobby, name="play-lobby"),
    path("play/<int:table_id>/", pages.table_page, name="play-table"),
    path("play/<int:table_id>/seat/", pages.take_seat, name="play-take-seat"),
    path("play/<int:table_id>/hands/", pages.hands_page, name="play-hands"),
    path("play/<int:table_id>/close/", pages.close_table, name="play-close"),
    path("console/events/<int:event_id>/online-tables/", console.online_tables, name="console-online-tables"),
    path("api/", include(api_patterns)),
]
