"""The Redis cache degrades while Redis is away (issue 10): it holds only what can be lost,
so a read answers "not there" and a write is dropped instead of failing the request."""
import pytest

from drive.cache import TolerantRedisCache
from tests.asgi_server import free_port


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
