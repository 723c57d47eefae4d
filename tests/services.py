"""Which real services this test run has, and what a missing one means.

Under CI=true a missing PostgreSQL, Redis or Chromium fails the test that needs it;
on a developer's machine it skips with the reason.
"""
import os
import shutil

import pytest
from django.conf import settings
from django.db import connection

CI = os.environ.get("CI", "").lower() == "true"
# Debian's headless shell (package chromium-headless-shell: Chromium's old headless mode, the
# one Playwright runs by default) renders with the same Blink for about 40% less CPU than the
# full browser run headless (docs/benchmarks.md); the full browser is the fallback.
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get("CHROMIUM_PATH") or (HEADLESS_SHELL if os.path.exists(HEADLESS_SHELL) else "/usr/bin/chromium")


def _missing(what):
    if CI:
        pytest.fail(f"{what} is required under CI=true but is not available", pytrace=False)
    pytest.skip(f"{what} not available on this machine")  # only off CI: under CI the line above fails


def require_postgres():
    if connection.vendor != "postgresql":
        _missing("PostgreSQL (set DATABASE_URL)")


def require_redis():
    if not settings.REDIS_URL:
        _missing("Redis (set REDIS_URL)")


def require_chromium():
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        _missing(f"Chromium at {CHROMIUM}")
