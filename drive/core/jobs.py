"""Celery work a service asks for by the task's name.

Tasks import their services, never the other way round: a service names the task it
wants run and the name is looked up in Celery's registry when it is sent. Each app's
`ready()` imports its tasks module, so every process's registry holds them.
"""
from __future__ import annotations

from typing import Any

from celery import current_app

from drive.celery import RobustTask


def task(name: str) -> RobustTask:
    found = current_app.tasks[name]
    if not isinstance(found, RobustTask):  # the app's task class (task_cls): delay_on_commit is robust
        raise TypeError(f"task {name} is a {type(found).__name__}, not a RobustTask")
    return found


def after_commit(name: str, *args: Any) -> None:
    """Send the task once this transaction commits. A broker that cannot take it then is
    logged, never raised: the change is saved and its answer stays 2xx."""
    task(name).delay_on_commit(*args)
