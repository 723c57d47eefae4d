"""Turns a service's refusal raised inside a page view into a readable error page."""
from django.shortcuts import render

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
