"""Errors a service raises; the API and the pages turn them into 400/403/404/409."""


class ServiceError(Exception):
    """A refused request. `status` is the HTTP status it maps to."""

    status = 400
    code = "invalid"

    def __init__(self, message, *, field=None, extra=None):
        super().__init__(message)
        self.message = str(message)
        self.field = field
        self.extra = extra or {}

    def as_dict(self):
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
