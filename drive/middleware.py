"""Turns a service's refusal raised inside a page view into a readable error page."""
from django.http import JsonResponse
from django.shortcuts import render
from django.views.defaults import page_not_found

from drive.errors import ServiceError


class ServiceErrorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, ServiceError):
            return render(request, "error.html", {"message": exception.message}, status=exception.status)
        return None


def not_found(request, exception):
    """404: JSON under /api/ (clients parse it), the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found.", "code": "not_found"}, status=404)
    return page_not_found(request, exception)
