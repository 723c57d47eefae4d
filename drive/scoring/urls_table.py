"""Pages of a table: the phones' entry page opened by the table card, and the cards to print."""
from django.urls import path

from drive.scoring.views import table as views

urlpatterns = [
    path("t/<str:token>/", views.table_entry, name="table-entry"),
    path("t/<str:token>/panel/", views.table_panel, name="table-panel"),
    path("t/<str:token>/me/", views.table_me, name="table-me"),
    path("t/<str:token>/hands/", views.table_submit, name="table-submit"),
    path("console/events/<int:event_id>/table-cards/", views.table_cards, name="console-table-cards"),
]
