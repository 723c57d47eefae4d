"""The interface language of a websocket. Django's LocaleMiddleware serves HTTP only; a
socket speaks what the page's language switcher chose (its cookie), else what the
browser asks for (Accept-Language), else the site's default: as a request would."""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header


def scope_language(scope: dict[str, Any]) -> str:
    """The supported language a socket's handshake asks for (its scope's cookies and headers)."""
    chosen = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    header = dict(scope.get("headers") or []).get(b"accept-language", b"").decode("latin-1")
    wanted = [chosen, *(code for code, _ in parse_accept_lang_header(header[:500]))]
    for code in wanted:
        if not code or code == "*":
            continue
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
