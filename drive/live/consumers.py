"""Websocket: a page subscribes to one event and hears what changed."""
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from drive.broadcast import event_group


class EventConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self):
        self.group = event_group(int(self.scope["url_route"]["kwargs"]["event_id"]))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def event_changed(self, message):
        await self.send_json({"kind": message["kind"], "event": message["event"], "data": message["data"]})
