"""One subscription per event and server process, fanned out to that process's sockets.

A room has several screens and hundreds of phones on one event. With a channel-layer
channel per socket, every update costs the layer one message per socket (and Channels a
thread hop per message); here the process holds one channel in the event's group, encodes
each update once and writes it to every socket it serves. A socket is accepted only once
that channel is in the group, so a page never misses an update sent after it connected.
"""
import asyncio
import json
import logging
import weakref

from channels.layers import get_channel_layer

from drive.broadcast import event_group

log = logging.getLogger(__name__)
REJOIN_SECONDS = 3600  # the Redis layer forgets a group member after a day (group_expiry)


class EventFeed:
    """The sockets of one event in this process, and the task that feeds them."""

    def __init__(self, event_id):
        self.event_id = event_id
        self.sockets = set()
        self.joined = asyncio.Event()
        self.error = None  # why the layer refused the join: the waiting sockets are refused too
        self.task = asyncio.create_task(self._listen())

    async def _listen(self):
        layer = get_channel_layer()
        group = event_group(self.event_id)
        try:
            channel = await layer.new_channel()
            await layer.group_add(group, channel)
        except Exception as exc:  # the next socket to come starts a new feed and tries again
            self.error = exc
            return
        finally:
            self.joined.set()
        rejoin = asyncio.create_task(self._keep_joined(layer, group, channel))
        try:
            while True:
                await self._send(await layer.receive(channel))
        finally:
            rejoin.cancel()
            await asyncio.shield(layer.group_discard(group, channel))

    async def _keep_joined(self, layer, group, channel):
        while True:
            await asyncio.sleep(REJOIN_SECONDS)
            await layer.group_add(group, channel)

    async def _send(self, message):
        if message.get("type") != "event.changed":
            return
        text = json.dumps({"kind": message["kind"], "event": message["event"], "data": message["data"]})
        for socket in list(self.sockets):
            try:
                await socket.send(text_data=text)
            except Exception:  # one closed socket must not cost the others their update
                log.debug("a socket of event %s did not take an update", self.event_id, exc_info=True)


class Hub:
    """The feeds of one event loop (the server process's)."""

    def __init__(self):
        self.feeds = {}

    async def join(self, event_id, socket):
        feed = self.feeds.get(event_id)
        if feed is None or feed.task.done():
            feed = self.feeds[event_id] = EventFeed(event_id)
        feed.sockets.add(socket)
        await feed.joined.wait()
        if feed.error is not None:  # the layer refused: so is the socket
            feed.sockets.discard(socket)
            raise feed.error

    async def leave(self, event_id, socket):
        feed = self.feeds.get(event_id)
        if feed is None:
            return
        feed.sockets.discard(socket)
        if not feed.sockets:
            del self.feeds[event_id]
            feed.task.cancel()


_hubs = weakref.WeakKeyDictionary()  # one hub per event loop: tests run several loops


def hub():
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = Hub()
    return _hubs[loop]
