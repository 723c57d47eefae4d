"""One subscription per event and server process, fanned out to that process's sockets.

A room has several screens and hundreds of phones on one event. With a channel-layer
channel per socket, every update costs the layer one message per socket (and Channels a
thread hop per message); here the process holds one channel in the event's group, encodes
each update once and writes it to every socket it serves. A socket is accepted once that
channel is in the group, so a page never misses an update sent after it connected (if the
layer does not answer in time it is accepted all the same, and gets a RESYNC once it does).

When the layer fails (Redis down, restarted, unreachable, or one answer too late on a
loaded machine) the feed notices within seconds (every PROBE_SECONDS it sends a probe to its
own group and waits for it to come back) and joins the layer again by itself, waiting a
little longer after each failed try (RETRY_SECONDS, doubling up to RETRY_MAX_SECONDS). Its
sockets stay open all along: closing a room's sockets in bulk on one timeout had hundreds
of pages reconnect at once, and lost their updates meanwhile. Once joined again it sends
them a RESYNC (updates may have been missed), on which every live page reads itself afresh.
"""
import asyncio
import json
import logging
import secrets
import weakref

from channels.layers import get_channel_layer

from drive.core.broadcast import Change, event_group

log = logging.getLogger(__name__)
REJOIN_SECONDS = 3600  # the Redis layer forgets a group member after a day (group_expiry)
PROBE_SECONDS = 5.0  # how often a feed checks that its group still reaches it
ANSWER_SECONDS = 5.0  # a join or a probe not answered by then: the layer is down
RETRY_SECONDS = 0.5  # the first wait before joining again after a failure (doubles each time)
RETRY_MAX_SECONDS = 10.0


class EventFeed:
    """The sockets of one event in this process, and the task that feeds them."""

    def __init__(self, event_id):
        self.event_id = event_id
        self.sockets = set()
        self.joined = asyncio.Event()  # the first try to join is over (joined or not)
        self.missed = False  # the feed was out of the group with sockets on it: they get a RESYNC
        self.probe = None  # (token, future) of the probe in flight
        self.task = asyncio.create_task(self._run())

    async def _run(self):
        wait = RETRY_SECONDS
        while True:
            if await self._serve():
                wait = RETRY_SECONDS  # it served a while: the next failure starts over
            self.missed = True
            self.joined.set()
            await asyncio.sleep(wait * (0.5 + secrets.randbelow(1000) / 1000))  # servers do not all knock at once
            wait = min(wait * 2, RETRY_MAX_SECONDS)

    async def _serve(self):
        """Join the group and feed the sockets until the layer fails; True if it joined."""
        layer = get_channel_layer()
        group = event_group(self.event_id)
        try:
            channel = await asyncio.wait_for(self._join(layer, group), ANSWER_SECONDS)
        except Exception as exc:  # noqa: BLE001 - down: tried again after a while
            log.warning("the feed of event %s could not join the channel layer (%r); trying again", self.event_id, exc)
            return False
        self.joined.set()
        if self.missed:
            self.missed = False
            await self._resync()
        try:
            async with asyncio.TaskGroup() as tasks:
                tasks.create_task(self._receive(layer, channel))
                tasks.create_task(self._keep_joined(layer, group, channel))
                tasks.create_task(self._keep_probing(layer, group))
        except* Exception as failure:
            log.warning("channel layer lost by the feed of event %s (%r): joining again, its %d sockets kept",
                        self.event_id, failure.exceptions[0], len(self.sockets))
        finally:
            await _quietly(layer.group_discard(group, channel))
        return True

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
        (its receive may not even have failed): the probe does not come back, and the feed
        joins again (and has its pages refresh) instead of missing updates without a word."""
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
        await self._write(json.dumps({"kind": message["kind"], "event": message["event"], "data": message["data"]}))

    async def _resync(self):
        """Updates may have passed while the feed was out of its group: every page reads afresh."""
        await self._write(json.dumps({"kind": str(Change.RESYNC), "event": self.event_id, "data": {}}))

    async def _write(self, text):
        for socket in list(self.sockets):
            try:
                await socket.send(text_data=text)
            except Exception:  # one closed socket must not cost the others their update
                log.debug("a socket of event %s did not take an update", self.event_id, exc_info=True)


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
        """Add the socket to the event's feed, once the feed has tried to join its group
        (joined: no update after this is missed; not: the socket gets a RESYNC when it does)."""
        feed = self.feeds.get(event_id)
        if feed is None:
            feed = self.feeds[event_id] = EventFeed(event_id)
        feed.sockets.add(socket)
        await feed.joined.wait()

    async def leave(self, event_id, socket):
        feed = self.feeds.get(event_id)
        if feed is None or socket not in feed.sockets:
            return
        feed.sockets.discard(socket)
        if not feed.sockets:
            del self.feeds[event_id]
            feed.task.cancel()


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()  # one hub per event loop: tests run several loops


def hub():
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = Hub()
    return _hubs[loop]
