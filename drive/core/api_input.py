"""The API's reading of a request body: one serializer, 400 with field messages if wrong."""
from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.serializers import BaseSerializer


def valid_data(serializer_class: type[BaseSerializer], request: Request, **kwargs: Any) -> Any:
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def valid_query(serializer_class: type[BaseSerializer], request: Request, **kwargs: Any) -> Any:
    """The same for a query string (?round=2): 400 with the parameter's message if wrong."""
    serializer = serializer_class(data=request.query_params, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
