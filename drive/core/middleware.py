"""Page middleware: a service's refusal raised inside a page view becomes a readable error
page; an htmx fragment goes out without the whitespace around it. And the site's 404 and 500."""
from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.template import loader
from django.utils.translation import gettext as _
from django.views.defaults import page_not_found

from drive.core.errors import ServiceError


class ServiceErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, ServiceError):
            return render(request, "error.html", {"message": exception.message}, status=exception.status)
        return None


class HtmxFragmentMiddleware:
    """Strip the whitespace around a fragment an htmx request gets. An outerHTML swap puts
    every top-level node of the answer into the page, so a template's final newline would
    add a text node at each refresh: over an evening of live updates, thousands."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if (request.headers.get("HX-Request") and isinstance(response, HttpResponse)  # not streamed
                and response.get("Content-Type", "").startswith("text/html")):
            response.content = response.content.strip()
        return response


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404: JSON under /api/ (clients parse it), the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found.", "code": "not_found"}, status=404)
    return page_not_found(request, exception)


log = logging.getLogger(__name__)
# What a 500 says when even its page cannot be drawn (a missing static manifest, a broken
# template): no template, no translation, nothing that can fail.
PLAIN_500 = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Server error</title></head>'
             '<body><h1>Something went wrong</h1><p>The server could not show this page. Try again in a '
             'moment.</p><p><a href="/">Back to the events</a></p></body></html>')


def server_error(request: HttpRequest) -> HttpResponse:
    """500: JSON under /api/; elsewhere the site's page, drawn without the request's context
    or the database (either may be what failed), or plain words if even that fails."""
    if getattr(request, "path", "").startswith("/api/"):
        return JsonResponse({"detail": _("Something went wrong"), "code": "server_error"}, status=500)
    try:
        body = loader.get_template("500.html").render()
    except Exception:  # noqa: BLE001 - the error page of last resort must not fail in turn
        log.exception("the 500 page could not be drawn")
        body = PLAIN_500
    return HttpResponseServerError(body)
