"""Limits on what a request may carry: the body's size and, for JSON, its nesting depth.

A body over DATA_UPLOAD_MAX_MEMORY_SIZE is refused before any view reads it (400: JSON
under /api/, the error page elsewhere); a JSON body nested deeper than JSON_MAX_DEPTH is
refused by the API's parser (400), instead of the decoder's RecursionError (a 500: ten
thousand `[` did that to every JSON endpoint, the login included).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import IO, Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.defaults import bad_request as page_bad_request
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json

from drive.core.errors import Invalid, ServiceError

JSON_MAX_DEPTH = 32


class TooLarge(Invalid):
    code = "too_large"


class TooDeep(Invalid):
    code = "too_deep"


def too_large() -> TooLarge:
    return TooLarge(_("The request is too large."))


def too_deep() -> TooDeep:
    return TooDeep(_("The JSON is nested too deeply (at most %(n)s levels).") % {"n": JSON_MAX_DEPTH})


def depth(data: Any, stop_after: int | None = None) -> int:
    """How deeply lists and objects nest in decoded JSON (a scalar is 0), level by level
    without recursion; with `stop_after`, counting stops one level past it."""
    level, frontier = 0, [data]
    while frontier:
        containers = [value for value in frontier if isinstance(value, (dict, list))]
        if not containers:
            break
        level += 1
        if stop_after is not None and level > stop_after:
            break
        frontier = [item for value in containers for item in (value.values() if isinstance(value, dict) else value)]
    return level


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, reading at most the size limit and refusing deep nesting."""

    def parse(self, stream: IO[bytes] | None, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise too_large()
        encoding = (parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET
        try:
            data = json.loads(raw.decode(encoding), parse_constant=json.strict_constant if self.strict else None)
        except RecursionError:  # deeper than the interpreter goes
            raise too_deep() from None
        except ValueError as exc:  # UnicodeDecodeError included
            raise ParseError("JSON parse error - %s" % exc)
        # No deeper than its brackets: most bodies need no walk (a flat list of a million, none).
        few = raw.count(b"[") + raw.count(b"{") <= JSON_MAX_DEPTH
        if not few and depth(data, stop_after=JSON_MAX_DEPTH) > JSON_MAX_DEPTH:
            raise too_deep()
        return data


def refusal(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse(exc.as_dict(), status=exc.status)
    return render(request, "error.html", {"message": exc.message}, status=exc.status)


class BodyLimitMiddleware:
    """Refuses a body over the limit by its Content-Length, before anything reads it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            return refusal(request, too_large())
        return self.get_response(request)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """400 for what Django itself refuses (a body too large, too many fields): JSON under
    /api/, the site's page elsewhere."""
    if request.path.startswith("/api/"):
        if isinstance(exception, RequestDataTooBig):
            return JsonResponse(too_large().as_dict(), status=400)
        return JsonResponse({"detail": _("Bad request."), "code": "bad_request"}, status=400)
    return page_bad_request(request, exception)


def bounded_json(text: str | bytes, max_depth: int = JSON_MAX_DEPTH) -> Any:
    """Decoded JSON no deeper than `max_depth`: ValueError if it is not JSON, TooDeep if it
    nests deeper (the decoder's RecursionError included), never the traceback of either."""
    try:
        data = json.loads(text)  # type: ignore[arg-type]  # DRF's stub says str; its loads is json.loads, bytes too
    except RecursionError:
        data, deep = None, True
    else:
        deep = depth(data, stop_after=max_depth) > max_depth
    if deep:
        raise TooDeep(_("The JSON is nested too deeply (at most %(n)s levels).") % {"n": max_depth})
    return data
