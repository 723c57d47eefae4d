"""A table's socket while the channel layer is down (Redis stopped, restarted, unreachable):
the socket is closed with "try again" (4013) after the handshake, never Channels' 1011 and
never a handshake 403 a page cannot tell from "not allowed"; a reconnect is accepted once
the layer is back; the table goes on through the REST API meanwhile (2xx)."""
import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import channel_layers
from rest_framework.test import APIClient

from drive.core.channel_layer import RedisChannelLayer
from drive.games.consumers import REFUSED, TRY_LATER
from drive.games.models import PlayTable
from engine import replay_game
from tests.live.test_hub_faults import FlakyLayer
from tests.play.test_websocket import WAIT, closed_with, frame, open_socket
from tests.play.test_websocket import four, table_of_four  # noqa: F401 - fixtures
from tests.private_redis import private_redis  # noqa: F401 - a fixture



@pytest.fixture
def table_id(table_of_four):
    """A casual table of four people (tests.play.test_websocket's)."""
    return table_of_four


@pytest.fixture
def flaky():
    layer = FlakyLayer()
    channel_layers.backends[DEFAULT_CHANNEL_LAYER] = layer
    return layer


def to_act(table_id):
    return replay_game(PlayTable.objects.get(pk=table_id).record).to_act


async def closing_code(socket):
    """The code the server closes an open socket with (frames before it skipped)."""
    while True:
        output = await socket.receive_output(timeout=WAIT)
        if output["type"] == "websocket.close":
            return output["code"]


async def play_through_rest(table_id, user):
    def post():
        api = APIClient()
        api.force_authenticate(user)
        table = PlayTable.objects.get(pk=table_id)
        legal = replay_game(table.record).view(to_act(table_id))["legal"]
        return api.post(f"/api/play/tables/{table_id}/actions/", {"action": legal[0], "version": table.version},
                        format="json")
    return await sync_to_async(post)()


@pytest.mark.django_db(transaction=True)
async def test_a_layer_down_at_connect_closes_with_try_again_after_the_handshake(four, table_id, flaky):
    flaky.stop()
    assert await closed_with(table_id, four["N"]) == TRY_LATER  # not a 403: the page polls and retries
    assert await closed_with(table_id) == REFUSED  # "not allowed" stays its own code
    flaky.start()
    socket, connected, _ = await open_socket(table_id, four["N"])
    assert connected and (await frame(socket))["seat"] == "N"
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_layer_lost_under_an_open_socket_closes_it_with_try_again_not_1011(four, table_id, flaky):
    sockets = []
    for seat in "NE":
        socket, connected, _ = await open_socket(table_id, four[seat])
        assert connected
        await frame(socket)
        sockets.append(socket)
    flaky.stop()  # the layer's receive raises ConnectionError
    for socket in sockets:
        assert await closing_code(socket) == TRY_LATER
        await socket.disconnect()
    response = await play_through_rest(table_id, four[await sync_to_async(to_act)(table_id)])
    assert response.status_code == 200  # the table goes on without the layer
    flaky.start()
    socket, connected, _ = await open_socket(table_id, four["N"])
    assert connected and (await frame(socket))["version"] == response.json()["version"]
    await socket.disconnect()


# --- the same on a real Redis that is stopped and started --------------------------------------

@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
async def test_redis_stopped_closes_table_sockets_with_try_again_and_they_reconnect_once_it_is_back(
        four, table_id, private_redis, monkeypatch):
    from drive.core import broadcast

    monkeypatch.setattr(broadcast, "_down_until", [0.0])
    channel_layers.backends[DEFAULT_CHANNEL_LAYER] = RedisChannelLayer(hosts=[{"address": private_redis.url}])
    socket, connected, _ = await open_socket(table_id, four["N"])
    assert connected
    await frame(socket)
    await sync_to_async(private_redis.stop)()
    assert await closing_code(socket) == TRY_LATER  # redis-py's ConnectionError: not 1011
    await socket.disconnect()
    assert await closed_with(table_id, four["N"]) == TRY_LATER  # a reconnect meanwhile: not a 403
    response = await play_through_rest(table_id, four[await sync_to_async(to_act)(table_id)])
    assert response.status_code == 200
    await sync_to_async(private_redis.start)()  # back, and empty
    for _ in range(int(WAIT / 0.2)):  # the page's next try, within its backoff
        socket, connected, _ = await open_socket(table_id, four["E"])
        first = await socket.receive_output(timeout=WAIT)
        if first["type"] == "websocket.send":
            break
        await socket.disconnect()
        await asyncio.sleep(0.2)
    assert json.loads(first["text"])["version"] == response.json()["version"]
    north, connected, _ = await open_socket(table_id, four["N"])
    await frame(north)
    answer = await play_through_rest(table_id, four[await sync_to_async(to_act)(table_id)])
    assert answer.status_code == 200
    heard = await frame(socket)  # a change made elsewhere reaches the reconnected sockets
    while heard["version"] < answer.json()["version"]:
        heard = await frame(socket)
    for each in (socket, north):
        await each.disconnect()
