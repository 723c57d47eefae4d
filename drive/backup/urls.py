from django.urls import path

from . import views

urlpatterns = [
    path("console/events/<int:event_id>/export.json", views.console_export, name="console-export"),
]
