from django.urls import path

from . import views

urlpatterns = [path("console/events/<int:event_id>/movement/", views.movement_page, name="console-movement")]
