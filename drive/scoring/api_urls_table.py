"""REST API of the tables' phones (no login: the table card's token is the key)."""
from django.urls import path

from drive.scoring.api import table as api

urlpatterns = [
    path("tables/<str:token>/", api.TableView.as_view(), name="api-table"),
    path("tables/<str:token>/claims/", api.TableClaimsView.as_view(), name="api-table-claims"),
    path("tables/<str:token>/results/", api.TableResultsView.as_view(), name="api-table-results"),
]
