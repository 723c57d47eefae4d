"""The event feed when the channel layer fails ("after Redis returns, live pages
get no updates for up to an hour while their sockets stay open, so they never fall back to
polling"), and "the live feed drops a whole room on one Redis timeout". A fake layer goes
down, hangs, fails one receive, or comes back having forgotten its groups (a Redis restarted
without persistence); the feed must notice within seconds, join again by itself without
closing a socket, and tell its pages to read afresh (RESYNC) once it serves again. The same with a real Redis: tests/integration/test_load_faults.py.
"""
import asyncio

import pytest
from channels.layers import InMemoryChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from channels.testing import WebsocketCommunicator

from drive.asgi import application
from drive.core.broadcast import event_group
from drive.live import hub as hubs
from drive.core.tickets import issue_ticket

pytestmark = pytest.mark.embedded  # run in pass 2 too: it is about what the embedded default does

ORIGIN = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


class FlakyLayer:
    """An in-memory layer that can go down (every call fails, a waiting receive too), hang
    (calls never answer) or forget its groups."""

    def __init__(self):
        self.inner = InMemoryChannelLayer()
        self.down, self.hanging = False, False
        self.outage = asyncio.Event()
        self.error = None

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
            error, self.error = self.error, None
            if error is not None:
                self.outage = asyncio.Event()
                raise error
            raise ConnectionError("connection to Redis lost")
        return message.result()

    def stop(self):
        self.down = True
        self.outage.set()

    def fail_next_receive(self, error):
        """The next receive (or the one waiting) fails once with `error`; the layer stays up."""
        self.error = error
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
    monkeypatch.setattr(hubs, "RETRY_SECONDS", 0.05)
    monkeypatch.setattr(hubs, "RETRY_MAX_SECONDS", 0.2)
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


RESYNC = '{"kind": "resync", "event": %d, "data": {}}'


async def test_a_layer_that_goes_down_keeps_the_sockets_and_the_feed_serves_them_again_once_it_is_back(layer):
    hub, sockets = hubs.Hub(), [Socket(), Socket()]
    for socket in sockets:
        await hub.join(9601, socket)
    feed = hub.feeds[9601]
    layer.stop()
    await asyncio.sleep(0.5)  # several failed tries to join again
    late = Socket()
    await asyncio.wait_for(hub.join(9601, late), 5)  # a page that comes meanwhile is taken, not refused
    layer.start()  # back, and empty
    everyone = [*sockets, late]
    assert await until(lambda: all(s.got == [RESYNC % 9601] for s in everyone))  # they may have missed changes
    await update(layer, 9601, table=4)
    assert await until(lambda: all(s.got[-1] == '{"kind": "results", "event": 9601, "data": {"table": 4}}'
                                   for s in everyone))
    assert all(s.closed == [] for s in everyone) and hub.feeds[9601] is feed
    for socket in everyone:
        await hub.leave(9601, socket)
    assert hub.feeds == {}


@pytest.mark.parametrize("error", [RedisTimeoutError("Timeout reading from 127.0.0.1:6379"),
                                   RedisConnectionError("Connection closed by server.")])
async def test_one_failed_receive_costs_no_socket_and_deliveries_resume(layer, error):
    """bench/fanout.py on a loaded machine: one receive too late closed a room's 500 sockets."""
    hub, sockets = hubs.Hub(), [Socket() for _ in range(20)]
    for socket in sockets:
        await hub.join(9606, socket)
    layer.fail_next_receive(error)
    assert await until(lambda: all(s.got == [RESYNC % 9606] for s in sockets))
    await update(layer, 9606, table=2)
    assert await until(lambda: all(len(s.got) == 2 for s in sockets))
    assert all(s.closed == [] for s in sockets)
    for socket in sockets:
        await hub.leave(9606, socket)


async def test_a_layer_that_came_back_having_forgotten_the_group_is_noticed(layer):
    """A Redis restarted between two probes: the feed's receive never failed, but its
    group is gone and updates would stop without a word."""
    hub, socket = hubs.Hub(), Socket()
    await hub.join(9602, socket)
    layer.inner.groups.clear()
    assert await until(lambda: socket.got == [RESYNC % 9602])
    await update(layer, 9602, hand=3)
    assert await until(lambda: len(socket.got) == 2) and socket.closed == []
    await hub.leave(9602, socket)


async def test_a_layer_that_hangs_is_noticed(layer):
    hub, socket = hubs.Hub(), Socket()
    await hub.join(9603, socket)
    layer.hanging = True
    await asyncio.wait_for(hub.join(9603, Socket()), 5)  # a join that is never answered does not hold the page
    layer.start()
    assert await until(lambda: socket.got == [RESYNC % 9603]) and socket.closed == []
    await hub.leave(9603, socket)


async def test_a_healthy_layer_keeps_its_sockets_and_ignores_other_processes_probes(layer):
    hub, socket = hubs.Hub(), Socket()
    await hub.join(9604, socket)
    await layer.group_send(event_group(9604), {"type": "feed.probe", "probe": "another process"})
    await asyncio.sleep(0.5)  # about ten probes
    assert socket.closed == [] and socket.got == []
    await update(layer, 9604, hand=1)
    assert await until(lambda: len(socket.got) == 1)
    await hub.leave(9604, socket)


@pytest.mark.django_db
async def test_through_the_consumer_pages_stay_open_and_hear_again_once_the_layer_is_back(layer):
    path = f"/ws/events/9605/?ticket={issue_ticket(9605)}"
    page = WebsocketCommunicator(application, path, headers=ORIGIN)
    assert (await page.connect())[0]
    layer.stop()
    assert await page.receive_nothing(timeout=0.5)  # not closed
    late = WebsocketCommunicator(application, path, headers=ORIGIN)
    assert (await late.connect(timeout=5))[0]  # accepted while the layer is down: never a 403
    layer.start()
    for socket in (page, late):
        assert await socket.receive_json_from(timeout=5) == {"kind": "resync", "event": 9605, "data": {}}
    await update(layer, 9605, table=1)
    for socket in (page, late):
        assert await socket.receive_json_from(timeout=5) == {"kind": "results", "event": 9605, "data": {"table": 1}}
        await socket.disconnect()


@pytest.mark.redis
@pytest.mark.django_db
@pytest.mark.parametrize("error", [RedisTimeoutError("Timeout reading from 127.0.0.1:6379"),
                                   RedisConnectionError("Connection closed by server.")])
async def test_on_redis_a_failed_receive_closes_no_page_and_deliveries_resume(monkeypatch, error):
    """The fan-out through a real Redis layer, its BZPOPMIN made to fail (a timeout as many
    times in a row as the layer gives up after, or a connection error)."""
    from channels.layers import get_channel_layer
    from redis.asyncio import Redis

    from drive.core.channel_layer import LATE_TRIES
    from tests.services import require_redis

    require_redis()
    monkeypatch.setattr(hubs, "RETRY_SECONDS", 0.05)
    path = f"/ws/events/9607/?ticket={issue_ticket(9607)}"
    pages = [WebsocketCommunicator(application, path, headers=ORIGIN) for _ in range(10)]
    for page in pages:
        assert (await page.connect(timeout=10))[0]
    failing = {"left": LATE_TRIES if isinstance(error, RedisTimeoutError) else 1}  # the layer retries a late answer
    real = Redis.bzpopmin

    async def bzpopmin(self, *args, **kwargs):
        if failing["left"] > 0:
            failing["left"] -= 1
            raise error
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(Redis, "bzpopmin", bzpopmin)
    for page in pages:  # the receive in flight ends within its block; the next one fails
        assert await page.receive_json_from(timeout=15) == {"kind": "resync", "event": 9607, "data": {}}
    assert failing["left"] == 0
    await get_channel_layer().group_send(event_group(9607), {"type": "event.changed", "kind": "results",
                                                             "event": 9607, "data": {"seq": 2}})
    for page in pages:
        assert await page.receive_output(timeout=10) == {
            "type": "websocket.send", "text": '{"kind": "results", "event": 9607, "data": {"seq": 2}}'}
        await page.disconnect()
