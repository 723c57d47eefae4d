"""Collected instead of sent, for the length of a block, in one thread: a table's socket
that runs an action in a thread answers its player first and sends what the action set
going (announcements, robots' moves) afterwards, from its event loop."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class Held:
    """A thread's collection of things to send later, open only inside `collecting()`."""

    def __init__(self) -> None:
        self._local = threading.local()

    @property
    def items(self) -> list[Any] | None:
        """The open collection of this thread, or None (send now)."""
        return getattr(self._local, "items", None)

    @contextmanager
    def collecting(self) -> Iterator[list[Any]]:
        held: list[Any] = []
        self._local.items = held
        try:
            yield held
        finally:
            self._local.items = None
