"""The Celery app. Tasks take ids, call a service and are safe to run twice."""
import os

from celery import Celery
from celery.contrib.django.task import DjangoTask
from django.db import transaction

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "drive.settings")


class RobustTask(DjangoTask):
    """`.delay_on_commit()` sends a task only once its data is committed, and a broker that
    cannot take it then (Redis down) is logged, never raised: the change is saved and its
    answer stays 2xx. The standings have their own robust enqueue and beat's sweep; a
    movement or waitlist task lost this way is in the log for the organiser to retry."""

    def delay_on_commit(self, *args, **kwargs) -> None:
        transaction.on_commit(_named(self.delay, self.name, args, kwargs), robust=True)

    def apply_async_on_commit(self, *args, **kwargs) -> None:
        transaction.on_commit(_named(self.apply_async, self.name, args, kwargs), robust=True)


def _named(send, name, args, kwargs):
    """A function, not a functools.partial: Django logs a robust hook's failure by the
    hook's __qualname__, which a partial lacks (the log call itself would raise)."""

    def send_task():
        send(*args, **kwargs)

    send_task.__qualname__ = f"send {name}"
    return send_task


app = Celery("drive", task_cls=RobustTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
