"""One Chromium for a run of browser tests in a row, instead of one a test.

Launching Playwright's driver and Chromium costs about a second of CPU and up to four of
wall clock on a loaded machine; over some 150 browser tests that was minutes of the suite.
Each test still gets fresh contexts (cookies, storage, pages): what a test leaves open is
closed after it. Playwright's sync API keeps an event loop in the thread while it lives,
which would make channels' `async_to_sync` refuse to run, so the browser is stopped before
any test that does not ask for it (tests/conftest.py) and at the end of the run.
"""
import os
import shutil

from tests.services import CHROMIUM

LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

_running: dict = {}  # "playwright" (the started driver) and "browser", while they live


def shared_browser():
    """The running Chromium, launched now if none is (or the last one went away)."""
    browser = _running.get("browser")
    if browser is not None and browser.is_connected():
        return browser
    stop()
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    _running["playwright"] = playwright
    executable = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    _running["browser"] = playwright.chromium.launch(executable_path=executable, args=LAUNCH_ARGS, headless=True)
    return _running["browser"]


def close_contexts():
    """Close what a test left open, so the next one starts with a bare browser."""
    browser = _running.get("browser")
    if browser is not None and browser.is_connected():
        for context in list(browser.contexts):
            context.close()


def stop():
    """Close the browser and the driver (their event loop leaves the thread with them)."""
    browser, playwright = _running.pop("browser", None), _running.pop("playwright", None)
    try:
        if browser is not None and browser.is_connected():
            browser.close()
    finally:
        if playwright is not None:
            playwright.stop()
