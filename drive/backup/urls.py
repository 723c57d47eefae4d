from django.urls import path

from drive.backup.views import backup as views

urlpatterns = [
    path("console/events/<int:event_id>/export.json", views.console_export, name="console-export"),
]
