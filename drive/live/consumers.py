"""Websocket: a page subscribes to one event and hears what changed."""
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer

from drive.core.tickets import ticket_admits

from drive.live.hub import hub

REFUSED = 4403  # no valid ticket for this event: the page keeps polling


class EventConsumer(AsyncWebsocketConsumer):
    """Joins the process's feed of the event (see `hub`): no channel-layer channel of its
    own, and never the database; the feed keeps it open while the layer is away. Only with a ticket for the event (drive.core.tickets), which
    the pages that may show it carry."""

    channel_layer_alias = None  # not a configured layer: Channels gives the socket no channel
    event_id = None

    async def connect(self):
        event_id = int(self.scope["url_route"]["kwargs"]["event_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        if not ticket_admits((query.get("ticket") or [""])[0], event_id):
            await self.close(code=REFUSED)
            return
        # Joined whatever the channel layer's state: the feed joins the layer again by itself
        # and sends a RESYNC once it has (never a refusal the page cannot tell from "not allowed").
        self.event_id = event_id
        await hub().join(event_id, self)
        await self.accept()

    async def disconnect(self, code):
        if self.event_id is not None:
            await hub().leave(self.event_id, self)

    async def dispatch(self, message):
        # Channels closes stale database connections in a worker thread before every
        # message; this consumer has none, and that hop was most of its cost per update.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
