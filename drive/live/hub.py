"""One subscription per event and server process, fanned out to that process's sockets.

A room has several screens and hundreds of phones on one event. With a channel-layer
channel per socket, every update costs the layer one message per socket (and Channels a
thread hop per message); here the process holds one channel in the event's group, encodes
each update once and writes it to every socket it serves. A socket is accepted only once
that channel is in the group, so a page never misses an update sent after it connected.

When the layer fails (Redis down, restarted, unreachable) the feed notices within seconds:
every PROBE_SECONDS it sends a probe to its own group and waits for it to come back. A
feed that cannot hear its group closes its sockets ("try again later"), so the pages poll
and reconnect by themselves; the first page back starts a new feed, which joins the layer
as soon as Redis answers, and the page refreshes on reconnecting (nothing missed stays off
it).
"""
import asyncio
import json
import logging
import secrets
import weakref

from channels.layers import get_channel_layer

from drive.core.broadcast import event_group

log = logging.getLogger(__name__)
REJOIN_SECONDS = 3600  # the Redis layer forgets a group member after a day (group_expiry)
PROBE_SECONDS = 5.0  # how often a feed checks that its group still reaches it
ANSWER_SECONDS = 5.0  # a join or a probe not answered by then: the layer is down
CLOSE_CODE = 4013  # "try again later" (1013, which daphne may not send): the page polls, then reconnects


class FeedDown(ConnectionError):
    """The channel layer cannot serve this event's feed now."""


class EventFeed:
    """The sockets of one event in this process, and the task that feeds them."""

    def __init__(self, event_id):
        self.event_id = event_id
        self.sockets = set()
        self.joined = asyncio.Event()
        self.error = None  # why the layer refused the join: the waiting sockets are refused too
        self.failed = False  # the layer failed under it: new sockets go to a new feed
        self.probe = None  # (token, future) of the probe in flight
        self.task = asyncio.create_task(self._run())

    @property
    def serving(self):
        return not self.failed and not self.task.done()

    async def _run(self):
        layer = get_channel_layer()
        group = event_group(self.event_id)
        try:
            channel = await asyncio.wait_for(self._join(layer, group), ANSWER_SECONDS)
        except Exception as exc:  # the next socket to come starts a new feed and tries again
            self.error, self.failed = exc, True
            return
        finally:
            self.joined.set()
        try:
            async with asyncio.TaskGroup() as tasks:
                tasks.create_task(self._receive(layer, channel))
                tasks.create_task(self._keep_joined(layer, group, channel))
                tasks.create_task(self._keep_probing(layer, group))
        except* Exception as failure:
            self.failed = True
            log.warning("channel layer lost by the feed of event %s (%r): closing its %d sockets",
                        self.event_id, failure.exceptions[0], len(self.sockets))
            await self._close_sockets()
        finally:
            await _quietly(layer.group_discard(group, channel))

    @staticmethod
    async def _join(layer, group):
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        return channel

    async def _receive(self, layer, channel):
        while True:
            message = await layer.receive(channel)
            if message.get("type") == "feed.probe":
                self._probed(message.get("probe"))
            else:
                await self._send(message)

    async def _keep_joined(self, layer, group, channel):
        while True:
            await asyncio.sleep(REJOIN_SECONDS)
            await asyncio.wait_for(layer.group_add(group, channel), ANSWER_SECONDS)

    async def _keep_probing(self, layer, group):
        """A Redis restarted between two probes no longer has this channel in the group
        (its receive may not even have failed): the probe does not come back, and the
        pages reconnect (and refresh) instead of missing updates without a word."""
        while True:
            await asyncio.sleep(PROBE_SECONDS)
            await asyncio.wait_for(self._probe(layer, group), ANSWER_SECONDS)

    async def _probe(self, layer, group):
        token = secrets.token_hex(8)
        self.probe = (token, asyncio.get_running_loop().create_future())
        await layer.group_send(group, {"type": "feed.probe", "probe": token})
        await self.probe[1]

    def _probed(self, token):
        if self.probe and self.probe[0] == token and not self.probe[1].done():
            self.probe[1].set_result(None)
        # other processes' feeds of this event probe the same group: theirs are ignored

    async def _send(self, message):
        if message.get("type") != "event.changed":
            return
        text = json.dumps({"kind": message["kind"], "event": message["event"], "data": message["data"]})
        for socket in list(self.sockets):
            try:
                await socket.send(text_data=text)
            except Exception:  # one closed socket must not cost the others their update
                log.debug("a socket of event %s did not take an update", self.event_id, exc_info=True)

    async def _close_sockets(self):
        for socket in list(self.sockets):
            try:
                await socket.close(code=CLOSE_CODE)
            except Exception:  # already gone
                log.debug("a socket of event %s did not close", self.event_id, exc_info=True)


async def _quietly(leaving):
    """Leave the group if the layer answers in time; a layer that is down forgets us anyway."""
    try:
        await asyncio.wait_for(asyncio.shield(leaving), ANSWER_SECONDS)
    except Exception:
        log.debug("leaving a group failed", exc_info=True)


class Hub:
    """The feeds of one event loop (the server process's)."""

    def __init__(self):
        self.feeds = {}

    async def join(self, event_id, socket):
        """Add the socket to the event's feed once it is in the group; FeedDown if the
        layer cannot serve it now (the page polls and tries again)."""
        feed = self.feeds.get(event_id)
        if feed is None or not feed.serving:
            feed = self.feeds[event_id] = EventFeed(event_id)
        feed.sockets.add(socket)
        await feed.joined.wait()
        if feed.error is not None:  # the layer refused: so is the socket
            feed.sockets.discard(socket)
            raise FeedDown(f"channel layer unavailable for event {event_id}") from feed.error

    async def leave(self, event_id, socket):
        feed = self.feeds.get(event_id)
        if feed is None or socket not in feed.sockets:
            return  # refused, or its feed failed and was replaced
        feed.sockets.discard(socket)
        if not feed.sockets:
            del self.feeds[event_id]
            if not feed.failed:  # a failed feed is still closing its sockets: it ends by itself
                feed.task.cancel()


_hubs = weakref.WeakKeyDictionary()  # one hub per event loop: tests run several loops


def hub():
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = Hub()
    return _hubs[loop]
