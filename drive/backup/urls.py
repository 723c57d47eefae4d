"""The backup download, page and API (under /api/)."""
from django.urls import include, path

from drive.backup.views import backup as views

api_patterns = [
    path("events/<int:event_id>/export/", views.EventExportView.as_view(), name="api-event-export"),
]

urlpatterns = [
    path("console/events/<int:event_id>/export.json", views.console_export, name="console-export"),
    path("api/", include(api_patterns)),
]
