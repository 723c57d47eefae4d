"""Websocket: a page subscribes to one event and hears what changed."""
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer

from .hub import FeedDown, hub


class EventConsumer(AsyncWebsocketConsumer):
    """Joins the process's feed of the event (see `hub`): no channel-layer channel of its
    own, and never the database."""

    channel_layer_alias = None  # not a configured layer: Channels gives the socket no channel

    async def connect(self):
        self.event_id = int(self.scope["url_route"]["kwargs"]["event_id"])
        try:
            await hub().join(self.event_id, self)
        except FeedDown:  # the channel layer is down: refused, the page polls and tries again
            await self.close()
            return
        await self.accept()

    async def disconnect(self, code):
        await hub().leave(self.event_id, self)

    async def dispatch(self, message):
        # Channels closes stale database connections in a worker thread before every
        # message; this consumer has none, and that hop was most of its cost per update.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
