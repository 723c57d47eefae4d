"""The event feed when the channel layer fails ("after Redis returns, live pages
get no updates for up to an hour while their sockets stay open, so they never fall back to
polling"). A fake layer goes down, hangs, or comes back having forgotten its groups (a
Redis restarted without persistence); the feed must notice within seconds, close its
sockets (the pages then poll and reconnect, see drive/static/js/live.js) and serve again
as soon as the layer answers. The same with a real Redis: tests/integration/test_load_faults.py.
"""
import asyncio

import pytest
from channels.layers import InMemoryChannelLayer
from channels.testing import WebsocketCommunicator

from drive.asgi import application
from drive.core.broadcast import event_group
from drive.live import hub as hubs
from drive.core.tickets import issue_ticket

ORIGIN = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


class FlakyLayer:
    """An in-memory layer that can go down (every call fails, a waiting receive too), hang
    (calls never answer) or forget its groups."""

    def __init__(self):
        self.inner = InMemoryChannelLayer()
        self.down, self.hanging = False, False
        self.outage = asyncio.Event()

    async def _call(self):
        if self.hanging:
            await asyncio.Event().wait()
        if self.down:
            raise ConnectionError("Redis is down")

    async def new_channel(self, prefix="specific."):
        return await self.inner.new_channel(prefix)

    async def group_add(self, group, channel):
        await self._call()
        await self.inner.group_add(group, channel)

    async def group_discard(self, group, channel):
        await self._call()
        await self.inner.group_discard(group, channel)

    async def group_send(self, group, message):
        await self._call()
        await self.inner.group_send(group, message)

    async def receive(self, channel):
        await self._call()
        message = asyncio.ensure_future(self.inner.receive(channel))
        outage = asyncio.ensure_future(self.outage.wait())
        await asyncio.wait({message, outage}, return_when=asyncio.FIRST_COMPLETED)
        outage.cancel()
        if not message.done():
            message.cancel()
            raise ConnectionError("connection to Redis lost")
        return message.result()

    def stop(self):
        self.down = True
        self.outage.set()

    def start(self):
        """Back, and empty: a Redis restarted without persistence."""
        self.down, self.hanging, self.outage = False, False, asyncio.Event()
        self.inner = InMemoryChannelLayer()


class Socket:
    def __init__(self):
        self.got, self.closed = [], []

    async def send(self, text_data):
        self.got.append(text_data)

    async def close(self, code=None):
        self.closed.append(code)


@pytest.fixture
def layer(monkeypatch):
    flaky = FlakyLayer()
    monkeypatch.setattr(hubs, "get_channel_layer", lambda: flaky)
    monkeypatch.setattr(hubs, "PROBE_SECONDS", 0.05)
    monkeypatch.setattr(hubs, "ANSWER_SECONDS", 0.3)
    return flaky


async def until(condition, seconds=5.0):
    for _ in range(int(seconds / 0.02)):
        if condition():
            return True
        await asyncio.sleep(0.02)
    return condition()


async def update(layer, event_id, **data):
    await layer.group_send(event_group(event_id), {"type": "event.changed", "kind": "results", "event": event_id,
                                                    "data": data})


async def test_a_layer_that_goes_down_closes_the_sockets_and_the_next_feed_serves_once_it_is_back(layer):
    hub, sockets = hubs.Hub(), [Socket(), Socket()]
    for socket in sockets:
        await hub.join(9601, socket)
    old = hub.feeds[9601]
    layer.stop()
    # closed with "try again later": live.js polls and reconnects on any close
    assert await until(lambda: all(s.closed == [hubs.CLOSE_CODE] for s in sockets))
    assert old.failed and not old.serving
    for socket in sockets:
        await hub.leave(9601, socket)
    # while it is down a page that reconnects is refused (and keeps polling)
    with pytest.raises(hubs.FeedDown):
        await hub.join(9601, Socket())
    layer.start()
    again = Socket()
    await hub.join(9601, again)
    assert hub.feeds[9601] is not old and hub.feeds[9601].serving
    await update(layer, 9601, table=4)
    assert await until(lambda: again.got == ['{"kind": "results", "event": 9601, "data": {"table": 4}}'])
    await hub.leave(9601, again)
    assert hub.feeds == {}


async def test_a_layer_that_came_back_having_forgotten_the_group_is_noticed(layer):
    """A Redis restarted between two probes: the feed's receive never failed, but its
    group is gone and updates would stop without a word."""
    hub, socket = hubs.Hub(), Socket()
    await hub.join(9602, socket)
    layer.inner.groups.clear()
    assert await until(lambda: socket.closed == [hubs.CLOSE_CODE])
    await hub.leave(9602, socket)


async def test_a_layer_that_hangs_is_noticed(layer):
    hub, socket = hubs.Hub(), Socket()
    await hub.join(9603, socket)
    layer.hanging = True
    assert await until(lambda: socket.closed == [hubs.CLOSE_CODE])
    await hub.leave(9603, socket)
    with pytest.raises(hubs.FeedDown):  # a join that is never answered is refused in time
        await asyncio.wait_for(hub.join(9603, Socket()), 5)


async def test_a_healthy_layer_keeps_its_sockets_and_ignores_other_processes_probes(layer):
    hub, socket = hubs.Hub(), Socket()
    await hub.join(9604, socket)
    await layer.group_send(event_group(9604), {"type": "feed.probe", "probe": "another process"})
    await asyncio.sleep(0.5)  # about ten probes
    assert socket.closed == [] and hub.feeds[9604].serving
    await update(layer, 9604, hand=1)
    assert await until(lambda: len(socket.got) == 1)
    await hub.leave(9604, socket)


async def test_through_the_consumer_the_page_is_closed_then_refused_then_served_again(layer):
    path = f"/ws/events/9605/?ticket={issue_ticket(9605)}"
    page = WebsocketCommunicator(application, path, headers=ORIGIN)
    assert (await page.connect())[0]
    layer.stop()
    closed = await page.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": hubs.CLOSE_CODE}
    await page.disconnect()
    refused = WebsocketCommunicator(application, path, headers=ORIGIN)
    assert (await refused.connect(timeout=5))[0] is False
    layer.start()
    back = WebsocketCommunicator(application, path, headers=ORIGIN)
    assert (await back.connect(timeout=5))[0]
    await update(layer, 9605, table=1)
    assert await back.receive_json_from(timeout=5) == {"kind": "results", "event": 9605, "data": {"table": 1}}
    await back.disconnect()
