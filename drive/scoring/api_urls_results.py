"""REST API of the evening (see the module name for the audience)."""
from django.urls import path

from drive.scoring.api import results as api

urlpatterns = [
    path("events/<int:event_id>/standings/", api.StandingsView.as_view(), name="api-standings"),
    path("events/<int:event_id>/results/", api.ResultsView.as_view(), name="api-results"),
    path("events/<int:event_id>/my-evening/", api.MyEveningView.as_view(), name="api-my-evening"),
]
