"""CSP and Permissions-Policy (no Content-Security-Policy). Every
response carries them; no template has an inline script, handler or style for the policy
to block (the browser tests fail on any CSP violation, tests/browser/conftest.py)."""
import re
from pathlib import Path

import pytest

from drive.core.security_headers import HTMX_INDICATOR_STYLE

pytestmark = pytest.mark.django_db
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
VENDOR_HTMX = Path(__file__).resolve().parents[2] / "drive" / "static" / "vendor" / "htmx-2.0.11.min.js"


def directives(response):
    return dict(part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";"))


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/api/events/", "/healthz", "/no-such-page/",
                                  "/api/no-such/", "/events/999999/standings/", "/admin/login/"])
def test_every_response_has_the_policies(client, path):
    response = client.get(path)
    policy = directives(response)
    assert policy["script-src"] == "'self'"
    assert policy["style-src"].startswith("'self'") and "unsafe-inline" not in policy["style-src"]
    assert policy["img-src"] == "'self' data:"
    assert policy["connect-src"] == "'self' ws: wss:"
    assert policy["frame-ancestors"] == "'none'" and policy["object-src"] == "'none'"
    permissions = response["Permissions-Policy"]
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert f"{feature}=()" in permissions


def test_the_api_docs_alone_allow_inline_styles_and_still_no_inline_script(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert directives(response)["script-src"] == "'self'"
    assert "'unsafe-inline'" in directives(response)["style-src"]
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", response.content.decode())  # every script a file


@pytest.mark.parametrize("template", sorted(p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.rglob("*.html")))
def test_no_template_has_inline_script_handler_or_style(template):
    html = (TEMPLATES / template).read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline <script>"
    assert not re.search(r"\son[a-z]+\s*=", html), "inline event handler"
    assert not re.search(r"<style\b|\sstyle\s*=", html), "inline style"
    assert not re.search(r"hx-(?:trigger|on)[^=]*=\"[^\"]*\[", html), "an htmx filter needs eval"
    assert "javascript:" not in html


def test_the_htmx_style_the_policy_allows_is_the_one_htmx_inserts():
    """Upgrading htmx must not silently break its indicators: its style is allowed by hash."""
    code = VENDOR_HTMX.read_text()
    opening, closing = HTMX_INDICATOR_STYLE.split(" .htmx-request .htmx-indicator, ")
    assert opening.replace(".htmx-indicator", "") in code and closing.replace(".htmx-request.htmx-indicator", "") in code
