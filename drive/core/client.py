"""The address of the client a request comes from, for rate limits.

`X-Forwarded-For` is only as trustworthy as the proxies that wrote it: each proxy appends
the address it saw, so with N trusted proxies in front the client is the N-th entry from
the right (anything further left the client wrote itself). With none, the header is
ignored and the socket's address is the client (DJANGO_TRUSTED_PROXIES, default 0).
"""
from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Any

from django.conf import settings


def client_address(meta: Mapping[str, Any]) -> str:
    """The client's address from a request's META (Django's or DRF's request.META)."""
    remote = meta.get("REMOTE_ADDR") or ""
    proxies = int(getattr(settings, "TRUSTED_PROXIES", 0) or 0)
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
    if proxies <= 0 or not forwarded:
        return remote
    hops = [hop.strip() for hop in forwarded.split(",")]
    address = hops[-min(proxies, len(hops))]
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:  # not an address (a proxy count set too high): the socket's, not a made-up key
        return remote
