"""Page middleware: a service's refusal raised inside a page view becomes a readable error
page; an htmx fragment goes out without the whitespace around it."""
from django.http import JsonResponse
from django.shortcuts import render
from django.views.defaults import page_not_found

from drive.core.errors import ServiceError


class ServiceErrorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, ServiceError):
            return render(request, "error.html", {"message": exception.message}, status=exception.status)
        return None


class HtmxFragmentMiddleware:
    """Strip the whitespace around a fragment an htmx request gets. An outerHTML swap puts
    every top-level node of the answer into the page, so a template's final newline would
    add a text node at each refresh: over an evening of live updates, thousands."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (request.headers.get("HX-Request") and not response.streaming
                and response.get("Content-Type", "").startswith("text/html")):
            response.content = response.content.strip()
        return response


def not_found(request, exception):
    """404: JSON under /api/ (clients parse it), the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found.", "code": "not_found"}, status=404)
    return page_not_found(request, exception)
