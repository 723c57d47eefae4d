"""The Celery app. Tasks take ids, call a service and are safe to run twice."""
import os
from collections.abc import Callable
from typing import Any

from celery import Celery
from celery.contrib.django.task import DjangoTask
from django.db import transaction
from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "drive.settings")


class RobustTask(DjangoTask):
    """`.delay_on_commit()` sends a task only once its data is committed, and a broker that
    cannot take it then (Redis down) is logged, never raised: the change is saved and its
    answer stays 2xx. The standings have their own robust enqueue and beat's sweep; a
    movement or waitlist task lost this way is in the log for the organiser to retry."""

    # celery-types says these return an AsyncResult; Celery's own DjangoTask returns None (on_commit's)
    def delay_on_commit(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        transaction.on_commit(_named(self.delay, self.name, args, kwargs), robust=True)

    def apply_async_on_commit(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        transaction.on_commit(_named(self.apply_async, self.name, args, kwargs), robust=True)


def _named(send: Callable[..., object], name: str, args: tuple[Any, ...],
           kwargs: dict[str, Any]) -> Callable[[], None]:
    """A function, not a functools.partial: Django logs a robust hook's failure by the
    hook's __qualname__, which a partial lacks (the log call itself would raise)."""

    def send_task() -> None:
        send(*args, **kwargs)

    send_task.__qualname__ = f"send {name}"
    return send_task


class RedisChannel(kombu_redis.Channel):
    """kombu's Redis channel, closing cleanly on a broker that went away mid-read.

    Celery 5.7 with kombu 5.7 killed the worker ("Unrecoverable error: AttributeError:
    'NoneType' object has no attribute 'hostname'") when Redis stopped while it held
    unacknowledged messages (countdown or acks_late tasks: robot moves). On the lost
    connection the consumer calls `connection.collect()`, then `connection.close()`:
    collect's `channel.close()` first reads the pending BRPOP answer, which raises the
    ConnectionError before the channel is marked closed (kombu swallows it); collect then
    drops the transport's client; close's second `channel.close()` reaches
    `restore_unacked`, which builds a new pool from the client it no longer has. Here the
    failed read ends the poll and the close goes on at once, while the client is still
    there; restoring the messages then fails as a connection error (Redis is down) and is
    swallowed, and Redis hands them out again after the visibility timeout."""

    def close(self) -> None:
        try:
            super().close()
        except self.connection.connection_errors:  # the channel's own connection_errors is this tuple
            if self.closed:
                raise
            self._in_poll = None  # the dead connection's BRPOP answer cannot be read
            super().close()

    def _connparams(self, asynchronous: bool = False) -> dict[str, Any]:
        # a late call on a closed transport is a lost connection (celery reconnects),
        # never an AttributeError that stops the worker
        if self.connection.client is None:
            raise RedisConnectionError("the broker connection is closed")
        # kombu-stubs leave out Channel._connparams (kombu.transport.redis defines it)
        return super()._connparams(asynchronous=asynchronous)  # type: ignore[misc]


class RedisTransport(kombu_redis.Transport):
    """The broker transport for redis:// URLs (settings.CELERY_BROKER_TRANSPORT)."""

    Channel = RedisChannel


app = Celery("drive", task_cls=RobustTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
