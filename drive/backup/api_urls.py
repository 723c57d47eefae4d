from django.urls import path

from drive.backup.views import backup as views

urlpatterns = [
    path("events/<int:event_id>/export/", views.EventExportView.as_view(), name="api-event-export"),
]
