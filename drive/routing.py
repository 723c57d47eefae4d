from django.urls import path

from drive.live.consumers import EventConsumer
from drive.games.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/events/<int:event_id>/", EventConsumer.as_asgi()),
    path("ws/play/<int:table_id>/", TableConsumer.as_asgi()),
]
