"""The site's icon: an SVG in static/ linked by every page, and /favicon.ico (browsers and
bookmarks ask the site's root for it whatever a page links), never a 404."""
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.conf import settings

STATIC = Path(settings.BASE_DIR) / "drive" / "static"


def test_favicon_ico_is_an_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/x-icon"
    assert response.content[:4] == b"\x00\x00\x01\x00"  # an ICO file's header
    assert "max-age" in response["Cache-Control"]
    assert response.content == (STATIC / "favicon.ico").read_bytes()


def test_the_svg_icon_is_an_svg():
    root = ET.parse(STATIC / "favicon.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox") == "0 0 32 32"


@pytest.mark.django_db
def test_pages_link_both_icons(client, event):
    from drive.live.selectors.screen import screen_token
    from drive.live.services.screen import issue_screen_link

    html = client.get("/").content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in html
    assert '<link rel="icon" href="/favicon.ico"' in html
    screen = issue_screen_link(actor=event.club.organisers.get(), event=event)
    html = client.get(f"/screen/{screen_token(screen)}/").content.decode()  # the room's screen: a page of its own
    assert 'href="/static/favicon.svg"' in html and 'href="/favicon.ico"' in html
