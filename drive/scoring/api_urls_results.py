"""REST API of the evening (see the module name for the audience)."""
from django.urls import path

from . import api_results as api

urlpatterns = [
    path("events/<int:event_id>/standings/", api.StandingsView.as_view(), name="api-standings"),
    path("events/<int:event_id>/results/", api.ResultsView.as_view(), name="api-results"),
    path("events/<int:event_id>/results/corrections/", api.ResultsCorrectionsView.as_view(),
         name="api-results-corrections"),
    path("events/<int:event_id>/my-evening/", api.MyEveningView.as_view(), name="api-my-evening"),
]
