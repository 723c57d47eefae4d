"""Which page may open a websocket: one of the site's own, as Django's CSRF check judges an
unsafe request's Origin.

A browser sends the victim's cookies with a websocket to any site, and the socket then acts
as the victim: the page that opens it must be ours. Channels' AllowedHostsOriginValidator
compares the origin's host with ALLOWED_HOSTS only, so `http://localhost:9999` (another
program on the same machine, or plain http beside https) passed. Here the origin must equal
the scheme, host and port the handshake itself came to (the Host header, the proxy's
X-Forwarded-Proto where SECURE_PROXY_SSL_HEADER trusts it), or be one of
CSRF_TRUSTED_ORIGINS (`https://*.example.org` for subdomains), exactly as CsrfViewMiddleware
does for a POST. Anything else is refused before the consumer runs (a handshake 403).
"""
from __future__ import annotations

import io
from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.utils.http import is_same_domain

HTTP_SCHEMES = {"ws": "http", "wss": "https"}


def origin_of(scope: dict[str, Any]) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"origin":
            return value.decode("latin-1")
    return None


def site_origin(scope: dict[str, Any]) -> str | None:
    """`scheme://host[:port]` of the site the handshake came to, as Django would see a
    request there (None if its host is not one of ALLOWED_HOSTS)."""
    scheme = HTTP_SCHEMES.get(scope.get("scheme", "ws"), scope.get("scheme", "http"))
    request = ASGIRequest({**scope, "type": "http", "method": "GET", "scheme": scheme}, io.BytesIO())
    try:
        host = request.get_host()
    except DisallowedHost:
        return None
    return f"{'https' if request.is_secure() else 'http'}://{host}"


def trusted(origin: str) -> bool:
    """One of CSRF_TRUSTED_ORIGINS, a `*.` entry matching its subdomains."""
    listed = settings.CSRF_TRUSTED_ORIGINS
    if origin in listed:
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return any(is_same_domain(parts.netloc, urlsplit(entry).netloc[1:])
               for entry in listed if "://*." in entry and urlsplit(entry).scheme == parts.scheme)


def same_site(scope: dict[str, Any]) -> bool:
    origin = origin_of(scope)
    if not origin:
        return False  # a browser always sends one: a socket without it is no page's
    return origin == site_origin(scope) or trusted(origin)


class SiteOriginValidator:
    """ASGI middleware for websockets: the handshake goes on only from the site's own pages."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not same_site(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
