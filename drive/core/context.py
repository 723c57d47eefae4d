"""What every page hands its scripts, defined once in Python: the live feed's change kinds
(broadcast.Change) and the round clock's warning (clock.WARN_SECONDS). The pages write it
as JSON (`page-constants`), read by static/js/constants.js."""
from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from drive.core.broadcast import Change
from drive.core.clock import WARN_SECONDS


def page_constants(request: HttpRequest) -> dict[str, Any]:
    return {"page_constants": {"kinds": {change.name: change.value for change in Change},
                               "warn_seconds": WARN_SECONDS}}
