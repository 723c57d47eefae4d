"""Content-Security-Policy and Permissions-Policy on every response.

The pages run only the site's own scripts (no inline script or handler, no eval: the
templates use static files and data attributes), load styles, images and sockets from
this site only and may not be framed. The one inline style allowed is the one htmx adds
for its request indicators (by its hash). The API's Swagger UI styles its widgets inline,
so /api/docs/ alone allows inline styles. No page needs a camera, microphone, location
and the like: Permissions-Policy denies them.
"""
from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable

from django.http import HttpRequest
from django.http.response import HttpResponseBase

# What htmx 2.0.11 inserts into <head> (includeIndicatorStyles), byte for byte.
HTMX_INDICATOR_STYLE = (".htmx-indicator{opacity:0;visibility: hidden} .htmx-request .htmx-indicator, "
                        ".htmx-request.htmx-indicator{opacity:1;visibility: visible;transition: opacity 200ms ease-in}")


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def policy(style_src: str) -> str:
    return "; ".join([
        "default-src 'self'",
        "script-src 'self'",
        f"style-src {style_src}",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self' ws: wss:",
        "media-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ])


CSP = policy(f"'self' {_hash(HTMX_INDICATOR_STYLE)}")
CSP_API_DOCS = policy("'self' 'unsafe-inline'")
RELAXED_PATHS = ("/api/docs/",)
# Features Chromium knows (an unknown one is a console warning); "autoplay" stays allowed:
# the screen's chime plays after the one click browsers ask for.
PERMISSIONS_POLICY = ", ".join(f"{feature}=()" for feature in (
    "accelerometer", "camera", "display-capture", "geolocation", "gyroscope", "hid", "magnetometer",
    "microphone", "midi", "payment", "publickey-credentials-get", "serial", "usb", "xr-spatial-tracking",
    "browsing-topics",
))


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        relaxed = request.path.startswith(RELAXED_PATHS)
        response.headers.setdefault("Content-Security-Policy", CSP_API_DOCS if relaxed else CSP)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response
