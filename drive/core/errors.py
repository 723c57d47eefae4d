"""Errors a service raises; the API and the pages turn them into 400/403/404/409/429."""
from __future__ import annotations

from typing import Any

from django.utils.functional import Promise


class ServiceError(Exception):
    """A refused request. `status` is the HTTP status it maps to."""

    status = 400
    code = "invalid"

    def __init__(self, message: str | Promise, *, field: str | None = None,
                 extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = str(message)
        self.field = field
        self.extra = extra or {}

    def as_dict(self) -> dict[str, Any]:
        if self.field:
            return {self.field: [self.message], **self.extra}
        return {"detail": self.message, "code": self.code, **self.extra}


class Invalid(ServiceError):
    status = 400
    code = "invalid"


class Forbidden(ServiceError):
    status = 403
    code = "forbidden"


class NotFound(ServiceError):
    status = 404
    code = "not_found"


class Conflict(ServiceError):
    status = 409
    code = "conflict"


class TooMany(ServiceError):
    """Past a limit on what one user may start (tables, strong robots): try again later."""

    status = 429
    code = "too_many"
