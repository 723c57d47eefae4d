from django.urls import path

from . import views_results as views

urlpatterns = [
    path("events/<int:event_id>/my-evening/", views.my_evening, name="my-evening"),
    path("events/<int:event_id>/standings/", views.standings, name="event-standings"),
    path("events/<int:event_id>/results/", views.results, name="event-results"),
    path("events/<int:event_id>/results.csv", views.results_csv, name="event-results-csv"),
    path("events/<int:event_id>/corrections.csv", views.corrections_csv, name="event-corrections-csv"),
    path("events/<int:event_id>/results.json", views.results_json, name="event-results-json"),
    path("console/events/<int:event_id>/scorecards/", views.scorecards, name="console-scorecards"),
]
