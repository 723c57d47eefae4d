"""Renderings kept in the cache, for the live pages a whole room polls.

400 phones refreshing the standings of a 400-player evening asked for the same 148 KB
page over and over (4.6 a second under daphne, half the time in templates, 40% in the
selector). A live page keys its rendering on what it shows (e.g. the event and the
version of its standings), so every phone after the first gets it from the cache until
the next recomputation.

A new version is announced to every open page at once, and they all ask together: one
request renders it (in each process, one thread; across processes, the one that takes
the cache's "rendering" mark) while the others wait a moment for its result. A cache
that fails never fails the page: it renders.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from django.core.cache import cache
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe

log = logging.getLogger(__name__)
TIMEOUT = 600  # seconds: a stale key is never asked for again, so it only has to expire
WAIT = 3.0  # seconds a request waits for another's rendering before it renders itself


class _Rendering(threading.Event):
    """A rendering under way in this process: set once `html` holds its page (None if it failed)."""
    html: str | None = None


_inflight: dict[str, _Rendering] = {}  # this process's renderings under way
_inflight_lock = threading.Lock()
LOCAL_ENTRIES = 32  # renderings kept in this process: a few events, languages and pages
_local: OrderedDict[str, str] = OrderedDict()
_local_lock = threading.Lock()


def cached_html(key: str, render: Callable[[], str], timeout: int = TIMEOUT) -> SafeString:
    """The rendering stored under `key` (with the active language and time zone: numbers,
    words and times differ), or `render()`'s, stored for the next asker."""
    full = f"html:{key}:{translation.get_language()}:{timezone.get_current_timezone_name()}"
    html = _local_get(full)
    if html is not None:
        return mark_safe(html)
    try:
        html = cache.get(full)
    except Exception:  # Redis down: render, and do not try to store either
        log.warning("render cache unavailable, rendering %s", key, exc_info=True)
        return mark_safe(render())
    if html is None:
        html = _render_once(full, render, timeout)
    _local_put(full, html)
    return mark_safe(html)


def forget_local() -> None:
    """Drop this process's renderings (tests start each from an empty cache)."""
    with _local_lock:
        _local.clear()


def _local_get(full: str) -> str | None:
    with _local_lock:
        html = _local.get(full)
        if html is not None:
            _local.move_to_end(full)
        return html


def _local_put(full: str, html: str) -> None:
    with _local_lock:
        _local[full] = str(html)
        _local.move_to_end(full)
        while len(_local) > LOCAL_ENTRIES:
            _local.popitem(last=False)


def _render_once(full: str, render: Callable[[], str], timeout: int) -> str:
    with _inflight_lock:
        running = _inflight.get(full)
        if running is None:
            running = _inflight[full] = _Rendering()
            ours = True
        else:
            ours = False
    if not ours:  # another thread of this process renders it
        running.wait(WAIT)
        return running.html if running.html is not None else render()
    try:
        running.html = _shared_render(full, render, timeout)
        return running.html
    finally:
        with _inflight_lock:
            del _inflight[full]
        running.set()


def _shared_render(full: str, render: Callable[[], str], timeout: int) -> str:
    """Across processes: render if this one takes the mark, else wait for the one that did."""
    try:
        if not cache.add(f"{full}:rendering", 1, int(WAIT) + 1):
            html = _wait_for(full)
            if html is not None:
                return html
    except Exception:
        log.warning("render cache unavailable, %s rendered without it", full, exc_info=True)
        return render()
    html = render()
    try:
        cache.set(full, str(html), timeout)
    except Exception:
        log.warning("render cache unavailable, %s not stored", full, exc_info=True)
    return html


def _wait_for(full: str) -> str | None:
    deadline, pause = time.monotonic() + WAIT, 0.01
    while time.monotonic() < deadline:
        time.sleep(pause)
        pause = min(pause * 2, 0.1)
        html = cache.get(full)
        if html is not None:
            return html
    return None
