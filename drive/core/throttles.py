"""Rate limits keyed on the client's real address (`drive.core.client.client_address`).

`ScopedThrottle` is DRF's scoped throttle with that address. `RouteLimitMiddleware` puts
the same counters (DRF's throttle cache and rates, so tests reset them alike) on the
routes DRF does not see or cannot judge before the view runs:
- logins (the HTML and the admin login): failed attempts, per address, scope "login"
  shared with the API token route;
- the HTML sign-up: every attempt, scope "signup", shared with the API;
- every route whose URL carries a secret (a table, screen or door token): misses (404),
  scope "token", so nobody can guess tokens while a hall behind one address is not slowed;
- result entry (page and API): every entry, per table and address, scope "results".
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import ResolverMatch
from django.utils.translation import gettext as _
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from drive.core.client import client_address

if TYPE_CHECKING:  # for the hints only: the middleware loads without them
    from drf_spectacular.generators import SchemaGenerator
    from rest_framework.request import Request
    from rest_framework.views import APIView

SECRET_KWARGS = ("token", "door_code")
RESULT_ROUTES = {"table-submit", "api-table-results"}
LOGIN_ROUTES = {"login", "admin:login"}


class ScopedThrottle(ScopedRateThrottle):
    """DRF's scoped throttle, keyed on the real client address, not on X-Forwarded-For."""

    def get_ident(self, request: Request) -> str:
        return client_address(request.META)


class Counter(SimpleRateThrottle):
    """One scope's counter for one key, in DRF's throttle cache: check first, count later
    (a route may count only its failures, known once the view has answered)."""

    cache_format = "throttle_%(scope)s_%(ident)s"  # DRF's own: the API and the pages share it

    def __init__(self, scope: str, ident: str) -> None:
        self.scope = scope
        requests, duration = self.parse_rate(self.get_rate())
        if requests is None or duration is None:  # a scope of the route limits must have a rate
            raise ImproperlyConfigured(f"DEFAULT_THROTTLE_RATES has no rate for {scope!r}")
        self.num_requests, self.duration = requests, duration
        self.key = self.cache_format % {"scope": scope, "ident": ident}
        self.now = self.timer()
        self.history = [t for t in self.cache.get(self.key, []) if t > self.now - self.duration]

    def full(self) -> bool:
        return len(self.history) >= self.num_requests

    def count(self) -> None:
        self.history.insert(0, self.now)
        self.cache.set(self.key, self.history, self.duration)

    def get_cache_key(self, request: Request, view: APIView) -> str | None:  # pragma: no cover - the key is fixed above
        return self.key


@dataclass
class Rule:
    scope: str
    ident: str
    counts: Callable[[HttpRequest, HttpResponseBase], bool]  # (request, response) -> bool


def _failed_login(request: HttpRequest, response: HttpResponseBase) -> bool:
    return request.method == "POST" and response.status_code == 200  # the form again: refused


def _miss(request: HttpRequest, response: HttpResponseBase) -> bool:
    return response.status_code == 404


def _entry(request: HttpRequest, response: HttpResponseBase) -> bool:
    return request.method == "POST"


def rules_for(request: HttpRequest, match: ResolverMatch) -> list[Rule]:
    address = client_address(request.META)
    rules = []
    if match.view_name in LOGIN_ROUTES:
        rules.append(Rule("login", address, _failed_login))
    if match.view_name == "signup":
        rules.append(Rule("signup", address, lambda rq, rs: rq.method == "POST"))
    if any(name in match.kwargs for name in SECRET_KWARGS):
        rules.append(Rule("token", address, _miss))
    if match.view_name in RESULT_ROUTES and request.method == "POST":
        # the token hashed: a cache key of safe characters whatever the URL holds
        table = hashlib.sha256(str(match.kwargs.get("token", "")).encode()).hexdigest()[:20]
        rules.append(Rule("results", f"{address}:{table}", _entry))
    return rules


def too_many(request: HttpRequest, wait: float | None) -> HttpResponse:
    message = _("Too many attempts: please wait a minute and try again.")
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": message, "code": "throttled"}, status=429)
    else:
        response = render(request, "error.html", {"message": message}, status=429)
    if wait:
        response["Retry-After"] = str(max(1, int(wait)))
    return response


class RouteLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        for rule, counter in getattr(request, "_route_limits", ()):
            if rule.counts(request, response):
                counter.count()
        return response

    def process_view(self, request: HttpRequest, view_func: Callable[..., HttpResponseBase],
                     view_args: tuple[Any, ...], view_kwargs: dict[str, Any]) -> HttpResponse | None:
        match = request.resolver_match
        if match is None:  # Django resolves before process_view: no match, no route to limit
            return None
        limits = [(rule, Counter(rule.scope, rule.ident)) for rule in rules_for(request, match)]
        for _rule, counter in limits:
            if counter.full():
                return too_many(request, counter.wait())
        setattr(request, "_route_limits", limits)  # read back in __call__, once the view has answered
        return None


def document_route_limits(result: dict[str, Any], generator: SchemaGenerator, request: Request | None,
                          public: bool) -> dict[str, Any]:
    """drf-spectacular hook: the API operations this middleware limits answer 429 too."""
    throttled = {"description": "Too many requests from this address: wait and try again (Retry-After).",
                 "content": {"application/json": {"schema": {"type": "object"}}}}
    for path, operations in result.get("paths", {}).items():
        if not any("{%s}" % name in path for name in SECRET_KWARGS):
            continue
        for operation in operations.values():
            if isinstance(operation, dict) and "responses" in operation:
                operation["responses"].setdefault("429", throttled)
    return result
