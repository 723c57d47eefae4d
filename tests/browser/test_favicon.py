"""A page opened in Chromium finds its icon: nothing the browser asks for is a 404."""
import pytest

pytestmark = pytest.mark.browser


def test_no_request_of_the_page_is_a_404(new_page, transactional_db, event):
    from playwright.sync_api import expect

    page = new_page("visitor")
    missing = []
    page.on("response", lambda response: response.status == 404 and missing.append(response.url))
    page.goto("/")
    expect(page.locator("h1")).to_be_visible()
    page.wait_for_load_state("load")
    icons = page.eval_on_selector_all("link[rel=icon]", "links => links.map(l => l.href)")
    assert len(icons) == 2
    for href in icons + [page.url.rstrip("/") + "/favicon.ico"]:
        assert page.request.get(href).status == 200, href
    assert missing == []
