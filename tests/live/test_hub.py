"""The event feed of a server process (drive.live.hub): one channel-layer subscription per
event, fanned out to every socket on it. Runs on the layer of the run: in-memory when
embedded, Redis in the first pass."""
import asyncio

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from drive.asgi import application
from drive.core.broadcast import event_group
from drive.live import hub as hubs
from drive.core.tickets import issue_ticket

# Run in pass 2 too: it is about what the embedded default does. Database access allowed:
# channels closes stale connections at each disconnect, and a connection an earlier test left
# in that thread made the check open it (a failure that depended on the tests' order).
pytestmark = [pytest.mark.embedded, pytest.mark.django_db(transaction=True)]

ORIGIN = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


async def connect(event_id):
    socket = WebsocketCommunicator(application, f"/ws/events/{event_id}/?ticket={issue_ticket(event_id)}", headers=ORIGIN)
    connected, _ = await socket.connect()
    assert connected
    return socket


async def send(event_id, kind, **data):
    await get_channel_layer().group_send(event_group(event_id),
                                         {"type": "event.changed", "kind": kind, "event": event_id, "data": data})


async def test_sockets_of_one_event_share_one_feed_and_each_gets_every_update():
    first, second, elsewhere = await connect(9101), await connect(9101), await connect(9102)
    feeds = hubs.hub().feeds
    assert set(feeds) >= {9101, 9102} and len(feeds[9101].sockets) == 2
    # accepted only once the feed is in the group: an update right after connect arrives
    await send(9101, "results", table=3)
    for socket in (first, second):
        assert await socket.receive_json_from(timeout=5) == {"kind": "results", "event": 9101, "data": {"table": 3}}
        assert await socket.receive_nothing(timeout=0.2)  # once, not once per socket
    assert await elsewhere.receive_nothing(timeout=0.2)
    for socket in (first, second, elsewhere):
        await socket.disconnect()


async def test_the_feed_goes_when_its_last_socket_leaves():
    first, second = await connect(9201), await connect(9201)
    feed = hubs.hub().feeds[9201]
    await first.disconnect()
    assert 9201 in hubs.hub().feeds and not feed.task.done()
    await send(9201, "standings")
    assert (await second.receive_json_from(timeout=5))["kind"] == "standings"
    await second.disconnect()
    assert 9201 not in hubs.hub().feeds
    await asyncio.wait_for(asyncio.gather(feed.task, return_exceptions=True), 5)
    assert feed.task.cancelled()
    # a page that comes back later gets a new feed, and its updates
    again = await connect(9201)
    await send(9201, "clock", round=2)
    assert await again.receive_json_from(timeout=5) == {"kind": "clock", "event": 9201, "data": {"round": 2}}
    await again.disconnect()


async def test_a_socket_that_fails_does_not_cost_the_others_their_update():
    class Socket:
        def __init__(self, broken):
            self.broken, self.got = broken, []

        async def send(self, text_data):
            if self.broken:
                raise ConnectionResetError("gone")
            self.got.append(text_data)

    hub = hubs.Hub()
    sockets = [Socket(broken=False), Socket(broken=True), Socket(broken=False)]
    for socket in sockets:
        await hub.join(9301, socket)
    await send(9301, "round", round=1)
    for _ in range(50):
        if sockets[0].got and sockets[2].got:
            break
        await asyncio.sleep(0.05)
    assert sockets[0].got == sockets[2].got == ['{"kind": "round", "event": 9301, "data": {"round": 1}}']
    for socket in sockets:
        await hub.leave(9301, socket)
    assert hub.feeds == {}


async def test_a_layer_that_refuses_the_join_takes_the_socket_and_joins_later(monkeypatch):
    """A refusal would reach the page as a 403 it cannot tell from "not allowed": the socket
    is taken, and told to read afresh once the feed has joined."""
    monkeypatch.setattr(hubs, "RETRY_SECONDS", 0.05)
    layer = get_channel_layer()
    real_add = layer.group_add
    down = [True]

    async def refuse(group, channel):
        if down[0]:
            raise ConnectionError("Redis is down")
        await real_add(group, channel)

    monkeypatch.setattr(layer, "group_add", refuse)
    hub = hubs.Hub()

    class Page:
        got = []

        async def send(self, text_data):
            self.got.append(text_data)

    page = Page()
    await asyncio.wait_for(hub.join(9401, page), 5)
    assert hub.feeds[9401].sockets == {page}
    down[0] = False
    for _ in range(250):
        if page.got:
            break
        await asyncio.sleep(0.02)
    assert page.got == ['{"kind": "resync", "event": 9401, "data": {}}']
    await hub.leave(9401, page)


async def test_the_feed_renews_its_place_in_the_group(monkeypatch):
    """The Redis layer drops a group member after a day: a feed open all evening and
    beyond joins again from time to time."""
    layer = get_channel_layer()
    joins = []
    real_add = layer.group_add

    async def counted(group, channel):
        joins.append(group)
        await real_add(group, channel)

    monkeypatch.setattr(layer, "group_add", counted)
    monkeypatch.setattr(hubs, "REJOIN_SECONDS", 0.05)
    socket = await connect(9501)
    await asyncio.sleep(0.4)
    assert joins.count(event_group(9501)) >= 3
    await send(9501, "event")
    assert (await socket.receive_json_from(timeout=5))["kind"] == "event"
    await socket.disconnect()
