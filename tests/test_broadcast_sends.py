"""Sync code sends on the Redis channel layer over one event loop its process keeps
(`group_send_from_sync` in drive/core/broadcast.py): the layer's connections are kept from send
to send, a forked child sends over a loop of its own, and a layer replaced gives its
connections back."""
import asyncio
import multiprocessing
import threading

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers, get_channel_layer
from redis.asyncio.connection import Connection

from drive.core import broadcast
from tests.services import require_redis

pytestmark = pytest.mark.redis
MESSAGE = {"type": "play.changed", "table": 1, "version": 1, "change": "c"}


@pytest.fixture
def redis_layer():
    require_redis()
    return get_channel_layer()


@pytest.fixture
def connects(monkeypatch):
    """Each connection to Redis this process opens from now on (its socket, not a use)."""
    made = []
    original = Connection._connect

    async def connect(self):
        made.append(self)
        return await original(self)

    monkeypatch.setattr(Connection, "_connect", connect)
    return made


def test_sends_from_threads_without_a_loop_share_one_connection(redis_layer, connects):
    def sends():
        for _ in range(10):
            broadcast.group_send_from_sync(redis_layer, "play.1", MESSAGE)

    for _ in range(3):  # three threads in turn, as a worker's tasks or a server's requests come
        thread = threading.Thread(target=sends)
        thread.start()
        thread.join()
    assert len(connects) == 1
    # async_to_sync alone, as before: a loop, and a connection, for each send
    for _ in range(3):
        async_to_sync(redis_layer.group_send)("play.1", MESSAGE)
    assert len(connects) == 4


async def receive(layer, channel):
    return await asyncio.wait_for(layer.receive(channel), timeout=10)


async def test_a_table_change_sent_from_sync_code_reaches_a_listener(redis_layer):
    channel = await redis_layer.new_channel()
    await redis_layer.group_add(broadcast.table_group(424242), channel)
    try:
        await sync_to_async(broadcast.send_table_now)(424242, 7, "change-1")
        assert await receive(redis_layer, channel) == {"type": "play.changed", "table": 424242, "version": 7,
                                                       "change": "change-1"}
    finally:
        await redis_layer.group_discard(broadcast.table_group(424242), channel)


def send_in_a_child(group):
    # A forked child of a process whose loop thread did not come with it (Celery's prefork pool)
    broadcast.group_send_from_sync(get_channel_layer(), group, {"type": "forked.child"})


async def test_a_forked_child_sends_over_a_loop_of_its_own(redis_layer):
    group, child = "forked.424243", None
    channel = await redis_layer.new_channel()
    await redis_layer.group_add(group, channel)
    try:
        await sync_to_async(broadcast.group_send_from_sync)(redis_layer, group, {"type": "parent"})
        assert (await receive(redis_layer, channel))["type"] == "parent"
        child = multiprocessing.get_context("fork").Process(target=send_in_a_child, args=(group,))
        child.start()
        await sync_to_async(child.join)(30)
        assert child.exitcode == 0
        assert (await receive(redis_layer, channel))["type"] == "forked.child"
    finally:
        if child is not None and child.is_alive():  # a child that hung is not left behind
            child.kill()
        await redis_layer.group_discard(group, channel)


def test_a_layer_replaced_gives_back_its_connections(redis_layer):
    broadcast.group_send_from_sync(redis_layer, "play.1", MESSAGE)
    loop = broadcast.sends_loop()
    assert loop in redis_layer._layers
    channel_layers.backends.pop(DEFAULT_CHANNEL_LAYER, None)  # as the tests do between tests
    fresh = get_channel_layer()
    assert fresh is not redis_layer
    broadcast.group_send_from_sync(fresh, "play.1", MESSAGE)
    assert loop not in redis_layer._layers
    assert loop in fresh._layers


def test_a_send_that_hangs_is_given_up(redis_layer, monkeypatch):
    async def hangs(*args):
        await asyncio.sleep(60)

    monkeypatch.setattr(redis_layer, "group_send", hangs)
    monkeypatch.setattr(broadcast, "SEND_SECONDS", 0.2)
    with pytest.raises(TimeoutError):
        broadcast.group_send_from_sync(redis_layer, "play.1", MESSAGE)
