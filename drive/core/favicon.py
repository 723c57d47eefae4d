"""/favicon.ico: browsers, bookmarks and feed readers ask the site's root for it whatever a
page links (the pages link the SVG in static/ and this one)."""
from __future__ import annotations

from functools import lru_cache

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse

ICON = "favicon.ico"  # drive/static/favicon.ico: 16, 32 and 48 px, drawn from favicon.svg


@lru_cache(maxsize=1)
def _icon() -> bytes:
    path = finders.find(ICON)
    if not path:
        raise Http404
    with open(path, "rb") as icon:
        return icon.read()


def favicon(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_icon(), content_type="image/x-icon")
    response["Cache-Control"] = "public, max-age=86400"
    return response
