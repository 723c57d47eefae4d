"""The channel layer's receive (drive/core/channel_layer.py) on a real Redis: an answer later
than the read timeout costs the receive a new connection, not the table's socket (it used to
close with 1011 under load); and a receive whose cancellation was lost on the way (Python
3.11's asyncio.wait_for, around every redis-py write, can return a finished write's result
instead of raising it) still stops, instead of blocking again and again (a live feed's
shutdown hung for minutes). Each slow or lost answer is made to happen, not waited for."""
import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from redis.asyncio import Redis
from redis.exceptions import TimeoutError as RedisTimeoutError

from drive.core.broadcast import send_table_now
from drive.core.channel_layer import BLOCK_SECONDS, MARGIN_SECONDS, RedisChannelLayer
from drive.games.models import PlayTable
from drive.games.services import tables
from engine import replay_game
from tests.play.test_websocket import frame, open_socket
from tests.services import require_redis

pytestmark = pytest.mark.redis


@pytest.fixture(autouse=True)
def _redis():
    require_redis()


@pytest.fixture
def late_answers(monkeypatch):
    """The next `left` BZPOPMINs answer later than the read timeout: redis-py raises its
    TimeoutError (and drops that connection), as it does for a late answer."""
    real = Redis.bzpopmin
    late = {"left": 0, "raised": 0}

    async def bzpopmin(self, *args, **kwargs):
        if late["left"] > 0:
            late["left"] -= 1
            late["raised"] += 1
            raise RedisTimeoutError("Timeout reading from 127.0.0.1:6379")
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(Redis, "bzpopmin", bzpopmin)
    return late


def test_the_layer_reads_longer_than_it_blocks():
    from django.conf import settings

    layer = get_channel_layer()
    assert isinstance(layer, RedisChannelLayer) and layer.brpop_timeout == BLOCK_SECONDS
    assert all(host["socket_timeout"] >= BLOCK_SECONDS + MARGIN_SECONDS for host in layer.hosts)
    assert RedisChannelLayer(hosts=[{"address": settings.REDIS_URL}]).hosts[0]["socket_timeout"] >= BLOCK_SECONDS + MARGIN_SECONDS
    with pytest.raises(ValueError):
        RedisChannelLayer(hosts=[{"address": settings.REDIS_URL, "socket_timeout": BLOCK_SECONDS}])


async def test_a_receive_outlives_one_late_answer_but_not_two_in_a_row(late_answers):
    layer = get_channel_layer()
    channel = await layer.new_channel()
    late_answers["left"] = 1
    await layer.send(channel, {"type": "hello", "n": 1})
    assert (await layer.receive(channel))["n"] == 1
    assert late_answers["raised"] == 1
    late_answers["left"] = 2  # Redis does not answer at all: the receive says so
    with pytest.raises(RedisTimeoutError):
        await layer.receive(channel)


@pytest.fixture
def table_of_four(make_user):
    people = {seat: make_user(f"layer-{seat}") for seat in "NESW"}
    table = tables.create_table(user=people["N"], rules="short", robots={})
    for seat in "ESW":
        tables.take_seat(user=people[seat], table_id=table.pk, seat=seat, invite=table.invite)
    return table.pk, people


@pytest.mark.django_db(transaction=True)
async def test_a_table_socket_stays_open_when_redis_answers_its_receive_late(table_of_four, late_answers):
    table_id, people = table_of_four
    late_answers["left"] = 1  # the socket's first receive gets its answer too late
    socket, connected, _ = await open_socket(table_id, people["N"])
    assert connected
    view = await frame(socket)
    for _ in range(3):  # a change announced after the late answer still reaches the socket
        await sync_to_async(send_table_now)(table_id, view["version"])
        view = await frame(socket)
    assert late_answers["raised"] == 1 and view["seat"] == "N"
    game = await sync_to_async(lambda: replay_game(PlayTable.objects.get(pk=table_id).record))()
    mover = people[game.to_act]
    other, connected, _ = await open_socket(table_id, mover)
    theirs = await frame(other)
    await other.send_to(text_data=json.dumps({"action": theirs["legal"][0], "version": theirs["version"]}))
    while view["version"] < theirs["version"] + 1:  # the play reaches the first socket, still open
        view = await frame(socket)
    assert view["version"] == theirs["version"] + 1
    await other.disconnect()
    await socket.disconnect()


async def test_a_cancelled_receive_stops_even_when_the_cancellation_is_lost_on_the_way(monkeypatch):
    """The cancellation arrives while a write has just finished, and is lost as Python 3.11's
    wait_for loses it; the receive must still end (at the latest after one block), not
    block again. Stopped by the count of BZPOPMINs, never by a clock."""
    layer = get_channel_layer()
    layer.brpop_timeout = 1  # one block of a second, no more, in this test
    channel = await layer.new_channel()
    real_eval, real_bzpopmin = Redis.eval, Redis.bzpopmin
    reached, blocks, again = asyncio.Event(), [], asyncio.Event()

    async def eval_losing_a_cancellation(self, *args, **kwargs):
        result = await real_eval(self, *args, **kwargs)
        if not reached.is_set():
            reached.set()
            try:
                await asyncio.sleep(3600)  # the test cancels the receive here...
            except asyncio.CancelledError:
                pass  # ...and the cancellation is lost, the write's result returned
        return result

    async def bzpopmin(self, *args, **kwargs):
        blocks.append(1)
        if len(blocks) >= 3:
            again.set()  # blocked again after the cancellation: it would never stop
        return await real_bzpopmin(self, *args, **kwargs)

    monkeypatch.setattr(Redis, "eval", eval_losing_a_cancellation)
    monkeypatch.setattr(Redis, "bzpopmin", bzpopmin)
    receive = asyncio.create_task(layer.receive(channel))
    await reached.wait()
    receive.cancel()
    blocked_again = asyncio.create_task(again.wait())
    await asyncio.wait([receive, blocked_again], return_when=asyncio.FIRST_COMPLETED)
    blocked_again.cancel()
    assert receive.done() and receive.cancelled(), f"still receiving after {len(blocks)} blocks"
    assert len(blocks) == 1
    await layer.send(channel, {"type": "after", "n": 2})  # the layer still serves the next receive
    assert (await layer.receive(channel))["n"] == 2


async def test_the_live_feed_of_an_event_stops_when_its_last_socket_leaves():
    """The feed's own shutdown, the one that hung: a socket joins and leaves, the feed's task ends."""
    from drive.live.hub import hub

    class Socket:
        async def send(self, text_data):
            pass

    socket = Socket()
    feeds = hub()
    await feeds.join(987654, socket)
    feed = feeds.feeds[987654]
    await feeds.leave(987654, socket)
    await asyncio.wait([feed.task])
    assert feed.task.done()


async def test_a_group_send_elsewhere_reaches_other_processes_channels_only():
    """A change made on this server is handed to its own sockets; through Redis it goes to
    the group's channels of other servers (another layer: another client prefix) only."""
    from django.conf import settings

    layer = get_channel_layer()
    other = RedisChannelLayer(hosts=[{"address": settings.REDIS_URL}])  # another server process's layer
    mine, theirs = await layer.new_channel(), await other.new_channel()
    group = f"play.elsewhere-{mine.rsplit('!', 1)[1]}"
    await layer.group_add(group, mine)
    await layer.group_add(group, theirs)
    await layer.group_send_elsewhere(group, {"type": "play.changed", "n": 1})
    assert (await other.receive(theirs))["n"] == 1
    await layer.group_send(group, {"type": "play.changed", "n": 2})  # a plain send reaches both
    assert (await layer.receive(mine))["n"] == 2  # the first this process's channel got: n=1 never came
    assert (await other.receive(theirs))["n"] == 2
    await layer.group_discard(group, mine)
    await layer.group_discard(group, theirs)
    await other.close_pools()
