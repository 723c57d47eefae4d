"""Redis away: the cache degrades (it holds only what can be lost, so a read
answers "not there" and a write is dropped instead of failing the request), and a cache,
channel layer or broker that hangs rather than refuses is left alone for a moment, so it
does not hold every request for its timeouts."""
import pytest

from drive.core.cache import TolerantRedisCache
from tests.asgi_server import free_port

pytestmark = pytest.mark.embedded  # run in pass 2 too: it is about what the embedded default does


@pytest.fixture
def unreachable():
    """A cache on a port nobody listens on: every call meets a refused connection."""
    return TolerantRedisCache(f"redis://127.0.0.1:{free_port()}/0",
                              {"OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}})


def test_reads_answer_not_there(unreachable):
    assert unreachable.get("k", "default") == "default"
    assert unreachable.get_many(["a", "b"]) == {}
    assert unreachable.has_key("k") is False


def test_writes_are_dropped(unreachable):
    unreachable.set("k", 1, 10)
    unreachable.set_many({"a": 1}, 10)
    unreachable.delete("k")
    unreachable.delete_many(["a"])
    assert unreachable.touch("k") is False


def test_add_says_added(unreachable):
    """The standings-pending mark: better one recomputation too many than none."""
    assert unreachable.add("k", 1, 10) is True


def test_incr_still_raises(unreachable):
    from redis.exceptions import ConnectionError as RedisConnectionError

    with pytest.raises(RedisConnectionError):
        unreachable.incr("k")


@pytest.fixture
def every_failure_slow(monkeypatch):
    """As if each failure had taken the timeouts of a Redis that hangs (no waiting here)."""
    from drive.core import broadcast
    from drive.core import cache
    from drive.scoring.services import recompute

    for module in (cache, broadcast, recompute):
        monkeypatch.setattr(module, "SLOW_FAILURE_SECONDS", 0)
    yield
    cache._down_until.clear()
    broadcast._down_until[0] = 0.0
    recompute._broker_down_until[0] = 0.0


def refusing(calls):
    from redis.exceptions import ConnectionError as RedisConnectionError

    def get_client(*args, **kwargs):
        calls.append(1)
        raise RedisConnectionError("hangs, then gives up")

    return get_client


def test_a_cache_that_hangs_is_left_alone_for_a_moment(unreachable, monkeypatch, every_failure_slow):
    from drive.core.cache import TolerantRedisCacheClient

    calls = []
    monkeypatch.setattr(TolerantRedisCacheClient, "get_client", refusing(calls))
    assert unreachable.get("k", "a") == "a" and unreachable.get("k", "b") == "b" and unreachable.add("k", 1) is True
    assert len(calls) == 1  # the later calls answered at once, without Redis


def test_a_cache_that_refuses_is_asked_again(unreachable, monkeypatch):
    from drive.core.cache import TolerantRedisCacheClient

    calls = []
    monkeypatch.setattr(TolerantRedisCacheClient, "get_client", refusing(calls))
    unreachable.get("k")
    unreachable.get("k")
    assert len(calls) == 2  # a refusal is quick: no pause needed


def test_a_channel_layer_that_hangs_is_left_alone_for_a_moment(monkeypatch, every_failure_slow):
    from drive.core import broadcast

    sent = []

    class Hanging:
        async def group_send(self, group, message):
            sent.append(group)
            raise TimeoutError("no answer")

    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: Hanging())
    broadcast.send_now(1, "results")  # logged, not raised
    broadcast.send_now(1, "results")
    assert sent == ["event.1"]


@pytest.mark.django_db
def test_a_broker_that_hangs_is_left_alone_for_a_moment(monkeypatch, every_failure_slow):
    from drive.scoring import tasks
    from drive.scoring.services import recompute

    sent = []

    def hanging(event_id):
        sent.append(event_id)
        raise TimeoutError("no answer")

    monkeypatch.setattr(tasks.recompute_standings, "delay", hanging)
    monkeypatch.setattr(recompute, "_mark", lambda event_id: True)
    recompute._enqueue(7)  # logged, not raised
    recompute._enqueue(7)
    assert sent == [7]  # the second entry did not wait for it; the sweep will recompute
