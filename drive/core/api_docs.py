"""Shared pieces of the API's OpenAPI documentation."""
from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse

ERROR = OpenApiResponse(OpenApiTypes.OBJECT, description="Error with `detail` or field messages")


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """The documented error answers of an operation: {400: ERROR, 403: ERROR, ...}."""
    return {code: ERROR for code in codes}
