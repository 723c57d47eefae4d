"""Celery work a service asks for by the task's name.

Tasks import their services, never the other way round: a service names the task it
wants run and the name is looked up in Celery's registry when it is sent. Each app's
`ready()` imports its tasks module, so every process's registry holds them.
"""
from __future__ import annotations

from typing import Any

from celery import Task, current_app


def task(name: str) -> Task:
    return current_app.tasks[name]


def after_commit(name: str, *args: Any) -> None:
    """Send the task once this transaction commits. A broker that cannot take it then is
    logged, never raised: the change is saved and its answer stays 2xx."""
    task(name).delay_on_commit(*args)
