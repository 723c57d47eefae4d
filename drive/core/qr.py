"""QR codes as SVG (segno): one place for the door code, the table cards and the screen."""
from __future__ import annotations

import io
from typing import Any

import segno
from django.utils.safestring import SafeString, mark_safe


def _svg(url: str, **options: Any) -> bytes:
    buffer = io.BytesIO()
    segno.make(url, error=options.pop("error", "m")).save(buffer, kind="svg", border=2, **options)
    return buffer.getvalue()


def qr_svg_file(url: str) -> bytes:
    """A standalone SVG document (with its namespace, so it works in an <img>)."""
    return _svg(url, scale=8)


def qr_svg_inline(url: str) -> SafeString:
    """An SVG element sized by its viewBox, to put inline in a page."""
    markup = _svg(url, error="q", xmldecl=False, svgns=True, omitsize=True, svgclass="qr", lineclass=None)
    return mark_safe(markup.decode())  # noqa: S308 - segno's own markup, no user text in it
