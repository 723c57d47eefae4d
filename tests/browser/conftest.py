"""Debian's Chromium driven by Playwright's sync API, with phone-sized pages.

Never `playwright install`: the browser is the system's /usr/bin/chromium.
"""
import os
import time
from pathlib import Path

import pytest

from tests.chromium import LAUNCH_ARGS, close_contexts, shared_browser  # noqa: F401  (LAUNCH_ARGS: for tests that launch their own)
from tests.services import require_chromium

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
# Screenshots are for people to look at, never asserted on: taken only when asked for
# (TEST_SCREENSHOTS=1 bin/test tests/browser). The 183 of a browser pass cost about 36 s
# of CPU, 5% of it, in a run (CI's) whose files nobody opens (docs/benchmarks.md).
SCREENSHOTS_WANTED = os.environ.get("TEST_SCREENSHOTS") == "1"
# Waits for something to happen, generous enough for a slow, loaded laptop:
# they bound a hang, never a speed (bench/browser.py times what matters).
WAIT_MS = 30_000
WORKER_WAIT_MS = 60_000  # through a Celery worker and the channel layer
PHONE = {"width": 390, "height": 844}
# A test that waits for the page awaits its next change in the page instead of looking
# again every 50 ms: each look is a round trip through Playwright's driver into Chromium,
# about 1.3 ms of CPU over the three processes, and looks at a fixed pace cost the more, the
# slower a loaded machine runs the test (docs/benchmarks.md). The page may not eval a string
# (its Content-Security-Policy); Playwright's evaluate is the driver's, not the page's.
SETTLE_JS = """(ms) => new Promise(done => {
  const changed = new MutationObserver(() => { changed.disconnect(); clearTimeout(timer); done(true); });
  const timer = setTimeout(() => { changed.disconnect(); done(false); }, ms);
  changed.observe(document, {attributes: true, childList: true, subtree: true, characterData: true});
})"""
SETTLE_MS = 250  # the longest a look waits: what changes outside the page is seen this late


def settle(page, ms=SETTLE_MS):
    """Until the page changes (an attribute, a node, a text) or ``ms`` pass."""
    try:
        page.evaluate(SETTLE_JS, ms)
    except Exception as exc:  # a navigation ended the page's context meanwhile: it changed
        if "navigat" not in str(exc) and "context was destroyed" not in str(exc):
            raise


def waiting(ms):
    """The turns of a wait of at most ``ms`` of the clock: a hang bound, never a speed."""
    deadline = time.monotonic() + ms / 1000
    while time.monotonic() < deadline:
        yield


def wait_until(page, condition, what, ms=WAIT_MS):
    """Until ``condition()`` holds, looking again each time the page changes; what it
    found (a caller that needs it does not look again)."""
    for _ in waiting(ms):
        found = condition()
        if found:
            return found
        settle(page)
    found = condition()
    if not found:
        raise AssertionError(f"still waiting for {what}")
    return found


try:  # the default of every expect(...) wait: 5 s out of the box
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT_MS)
except ImportError:  # no Playwright: require_chromium() says so in each test
    pass


@pytest.fixture
def browser():
    """Debian's Chromium, shared with the browser tests just before and after this one
    (tests/chromium.py); whatever the test opened in it is closed after it."""
    require_chromium()
    yield shared_browser()
    close_contexts()


def csp_violation(message):
    """A console message saying the Content-Security-Policy blocked something."""
    return "Content Security Policy" in message.text


@pytest.fixture
def new_page(browser, live_server):
    """Pages with their own cookies (one per person), phone-sized, failing on any JS error
    and on anything the Content-Security-Policy blocks."""
    contexts, errors = [], []

    def make(name):
        context = browser.new_context(viewport=PHONE, base_url=live_server.url, locale="en-GB")
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{name}: {exc}"))
        page.on("console", lambda message: csp_violation(message) and errors.append(
            f"{name}: {message.text} ({message.location.get('url')}:{message.location.get('lineNumber')})"))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def screenshot(page, name, full_page=True):
    """test-artifacts/screenshots/<name>.png, when screenshots are asked for."""
    if SCREENSHOTS_WANTED:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)


@pytest.fixture
def shoot():
    return screenshot
