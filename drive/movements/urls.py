from django.urls import path

from drive.movements.views import plan as views

urlpatterns = [path("console/events/<int:event_id>/movement/", views.movement_page, name="console-movement")]
