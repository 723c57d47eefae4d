"""The websockets against abuse: only the site's own pages open one (scheme, host and port,
as CSRF's origin check), a frame too large or too deeply nested is refused in words or with
a policy close (never 1011 and a traceback), and one socket, one user and one user's
sockets are limited as the REST API is."""
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from drive.asgi import application
from drive.core import sockets as socket_limits
from drive.core.tickets import issue_ticket
from drive.games.consumers import TOO_BIG, TOO_MANY_SOCKETS
from drive.games.models import PlayTable
from tests.play.test_websocket import WAIT, frame, open_socket, session_cookie
from tests.play.test_websocket import four, table_of_four  # noqa: F401 - fixtures

pytestmark = pytest.mark.embedded  # run in pass 2 too: it is about what the embedded default does



@pytest.fixture
def table_id(table_of_four):
    """A casual table of four people (tests.play.test_websocket's)."""
    return table_of_four


async def handshake(path, origin, host="testserver", extra=()):
    headers = [(b"host", host.encode())] if host else []
    if origin:
        headers.append((b"origin", origin.encode()))
    socket = WebsocketCommunicator(application, path, headers=headers + list(extra))
    connected, _ = await socket.connect(timeout=WAIT)
    if connected:
        await socket.disconnect()
    return connected


async def table_handshake(table_id, user, origin, host="testserver", extra=()):
    cookie = await sync_to_async(session_cookie)(user)
    return await handshake(f"/ws/play/{table_id}/", origin, host, [(b"cookie", f"sessionid={cookie}".encode()),
                                                                    *extra])


# --- the origin ----------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("origin", [
    "http://testserver:9999",  # another port: another program on the host
    "https://testserver",  # another scheme than the handshake's (ws://)
    "http://evil.example",
    "null",
    None,
])
async def test_a_table_socket_from_another_origin_is_refused(four, table_id, origin):
    assert await table_handshake(table_id, four["N"], origin) is False


@pytest.mark.django_db(transaction=True)
async def test_a_table_socket_from_the_sites_own_origin_opens(four, table_id):
    assert await table_handshake(table_id, four["N"], "http://testserver")
    assert await table_handshake(table_id, four["N"], "http://testserver:8000", host="testserver:8000")


@pytest.mark.django_db(transaction=True)
async def test_the_origin_follows_the_proxys_scheme_and_the_trusted_origins(four, table_id, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    behind_tls = [(b"x-forwarded-proto", b"https")]
    assert await table_handshake(table_id, four["N"], "https://testserver", extra=behind_tls)
    assert await table_handshake(table_id, four["N"], "http://testserver", extra=behind_tls) is False
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.org", "https://*.whist.example"]
    for trusted in ("https://play.example.org", "https://club.whist.example"):
        assert await table_handshake(table_id, four["N"], trusted)
    for other in ("http://play.example.org", "https://play.example.org:444", "https://whist.example.evil"):
        assert await table_handshake(table_id, four["N"], other) is False


@pytest.mark.django_db(transaction=True)
async def test_a_host_not_allowed_opens_nothing_even_from_its_own_origin(four, table_id):
    assert await table_handshake(table_id, four["N"], "http://evil.example", host="evil.example") is False


@pytest.mark.django_db
@pytest.mark.parametrize("origin, opens", [("http://testserver", True), ("http://testserver:9999", False),
                                           ("https://testserver", False)])
async def test_the_live_socket_checks_the_origin_alike(origin, opens):
    assert await handshake(f"/ws/events/7301/?ticket={issue_ticket(7301)}", origin) is opens


# --- frames ----------------------------------------------------------------------------------

async def seated_socket(four, table_id, seat="N"):
    socket, connected, _ = await open_socket(table_id, four[seat])
    assert connected
    view = await frame(socket)
    return socket, view


async def next_error(socket):
    while True:
        answer = await frame(socket)
        if "error" in answer:
            return answer["error"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("nesting", [5, 50, 2000])  # 2000: deeper than the decoder goes (RecursionError)
async def test_a_deeply_nested_frame_is_refused_in_words_and_the_socket_lives_on(four, table_id, nesting):
    socket, view = await seated_socket(four, table_id)
    await socket.send_to(text_data='{"action": ' + "[" * nesting + "]" * nesting + ', "version": 1}')
    error = await next_error(socket)
    assert error["status"] == 400 and error["code"] == "too_deep" and "nested" in error["detail"]
    await socket.send_to(text_data=json.dumps({"no": "action"}))
    assert (await next_error(socket))["code"] == "invalid"  # still open, still judging
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_frame_over_the_size_limit_is_refused_with_1009(four, table_id, settings):
    socket, view = await seated_socket(four, table_id)
    await socket.send_to(text_data=json.dumps({"action": "A" * settings.PLAY_FRAME_MAX_BYTES, "version": 1}))
    closed = await socket.receive_output(timeout=WAIT)
    assert closed == {"type": "websocket.close", "code": TOO_BIG}
    await socket.disconnect()


# --- rates -----------------------------------------------------------------------------------

async def answers(socket, count):
    return [await frame(socket) for _ in range(count)]


@pytest.mark.django_db(transaction=True)
async def test_a_sockets_actions_past_its_rate_are_refused_429_and_not_applied(four, table_id, settings):
    settings.PLAY_SOCKET_ACTIONS = "5/minute"
    settings.PLAY_USER_ACTIONS = "1000/minute"
    socket, view = await seated_socket(four, table_id)
    for _ in range(8):
        await socket.send_to(text_data=json.dumps({"action": "XYZ", "version": view["version"]}))
    got = [a["error"] for a in await answers(socket, 8)]
    assert [e["status"] == 429 for e in got] == [False] * 5 + [True] * 3  # judged (400 or 409), then refused
    assert got[-1]["code"] == "throttled" and got[-1]["detail"]
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_users_actions_over_all_their_sockets_are_limited(four, table_id, settings):
    settings.PLAY_SOCKET_ACTIONS = "5/minute"
    settings.PLAY_USER_ACTIONS = "7/minute"
    game_to_act = await sync_to_async(lambda: PlayTable.objects.get(pk=table_id))()
    first, view = await seated_socket(four, table_id)
    second, _ = await seated_socket(four, table_id)
    statuses = []
    for socket in (first, second):
        for _ in range(5):
            await socket.send_to(text_data=json.dumps({"action": "XYZ", "version": view["version"]}))
        statuses += [a["error"]["status"] for a in await answers(socket, 5)]
    assert sorted(s == 429 for s in statuses) == [False] * 7 + [True] * 3
    table = await sync_to_async(lambda: PlayTable.objects.get(pk=table_id))()
    assert table.version == game_to_act.version  # nothing applied
    for socket in (first, second):
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_user_holds_a_limited_number_of_sockets_and_the_next_is_closed_1008(four, table_id, settings):
    settings.PLAY_SOCKETS_PER_USER = 3
    held = [(await seated_socket(four, table_id))[0] for _ in range(3)]
    extra, connected, _ = await open_socket(table_id, four["N"])
    assert connected  # accepted, then closed with the policy code: the page can read it
    told = await frame(extra)
    assert told["error"]["status"] == 429 and told["error"]["code"] == "too_many_sockets"
    assert await extra.receive_output(timeout=WAIT) == {"type": "websocket.close", "code": TOO_MANY_SOCKETS}
    await extra.disconnect()
    other, _ = await seated_socket(four, table_id, "E")  # another user's are theirs
    await held.pop().disconnect()
    again, _ = await seated_socket(four, table_id)  # one closed: one more may open
    for socket in (*held, again, other):
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_socket_count_fails_open_when_the_cache_is_away(four, table_id, settings, monkeypatch):
    class Away:
        def add(self, *args, **kwargs):
            raise ConnectionError("Redis is down")

        incr = decr = add

    monkeypatch.setattr(socket_limits, "_cache", lambda: Away())
    settings.PLAY_SOCKETS_PER_USER = 1
    settings.PLAY_USER_ACTIONS = "1/minute"
    opened = [(await seated_socket(four, table_id))[0] for _ in range(3)]
    await opened[0].send_to(text_data=json.dumps({"action": "XYZ", "version": 0}))
    await opened[0].send_to(text_data=json.dumps({"action": "XYZ", "version": 0}))
    assert 429 not in [a["error"]["status"] for a in await answers(opened[0], 2)]  # judged, not throttled
    for socket in opened:
        await socket.disconnect()


def test_a_socket_lease_ends_with_its_minute(monkeypatch):
    """A server killed with its sockets open: their counts end with the minute, not never."""
    from django.core.cache.backends.locmem import LocMemCache

    cache = LocMemCache("leases-test", {})
    monkeypatch.setattr(socket_limits, "_cache", lambda: cache)
    now = [6000.0]
    monkeypatch.setattr(socket_limits.time, "time", lambda: now[0])
    crashed = [socket_limits.SocketLease(7, 2) for _ in range(2)]
    assert all(lease._take() for lease in crashed)
    assert not socket_limits.SocketLease(7, 2)._take()  # full this minute
    now[0] += socket_limits.LEASE_SECONDS  # no renewal came: their server is gone
    assert socket_limits.SocketLease(7, 2)._take()


@pytest.mark.redis
def test_sockets_are_counted_in_redis_across_processes_and_a_stopped_redis_refuses_none(monkeypatch):
    """Two server processes share the count through Redis (each lease below is what one
    process's socket takes); with the cache's Redis stopped, nothing is refused."""
    import uuid

    from django.core.cache.backends.redis import RedisCache
    from django.conf import settings

    from drive.core.cache import TolerantRedisCache
    from tests.services import require_redis

    require_redis()
    shared = TolerantRedisCache(settings.REDIS_URL, {"OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}})
    assert isinstance(shared, RedisCache)
    monkeypatch.setattr(socket_limits, "_cache", lambda: shared)
    user = uuid.uuid4().int % 10**9  # a user of this run only (the Redis outlives runs)
    here, there = socket_limits.SocketLease(user, 2), socket_limits.SocketLease(user, 2)
    assert here._take() and there._take()
    assert not socket_limits.SocketLease(user, 2)._take()  # a third, on either process
    there._release()
    third = socket_limits.SocketLease(user, 2)
    assert third._take()
    for lease in (here, third):
        lease._release()
    away = TolerantRedisCache("redis://127.0.0.1:1/0", {"OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}})
    monkeypatch.setattr(socket_limits, "_cache", lambda: away)
    assert all(socket_limits.SocketLease(user, 1)._take() for _ in range(3))
    assert all(socket_limits.user_may_act(user, "1/minute") for _ in range(3))
