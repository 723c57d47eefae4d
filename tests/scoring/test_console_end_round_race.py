"""Ending a round with tables still out, clicked as soon as the console's evening page has
loaded: the refusal always comes with its "End anyway" button.

The page's websocket opens right after the load and asks for the live part of the page
(an htmx GET); a click on "End round" meanwhile sends the move (an htmx POST). Both
answers replace the same element: the GET's answer, arriving first, took the element the
POST's answer was bound to off the page, and the refusal came without its button. So the
page runs over real websockets here (daphne in a process of its own, the Redis channel
layer), as in the hall.
"""
import pytest
from django.conf import global_settings

from tests.asgi_server import AsgiServer
from tests.browser.conftest import LAUNCH_ARGS, PHONE, WAIT_MS, browser, wait_until  # noqa: F401  (fixture)
from tests.services import require_postgres, require_redis

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

LIVE = "/evening/live/"
END = "/moves/end-round/"


@pytest.fixture
def server(evening, organiser, settings):
    require_postgres()
    require_redis()
    # The server is a process of its own with the site's password hashers, not the tests' fast one.
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
    organiser.set_password("pw-Whist-2026")
    organiser.save(update_fields=["password"])
    asgi = AsgiServer("end-round-race").start()
    yield {"url": asgi.url, "event": evening.pk, "username": organiser.username}
    asgi.stop()


@pytest.fixture
def console(server, browser):  # noqa: F811  (the database first: no ORM once Playwright runs)
    """The organiser's page on the real server, logged in; fails on any JavaScript error."""
    context = browser.new_context(viewport=PHONE, base_url=server["url"], locale="en-GB")
    context.set_default_timeout(WAIT_MS)
    errors = []
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/accounts/login/")
    page.fill("#id_username", server["username"])
    page.fill("#id_password", "pw-Whist-2026")
    with page.expect_navigation():
        page.click("form button[type=submit]:has-text('Log in')")
    yield page, f"/console/events/{server['event']}/evening/"
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def track(page):
    """The set of the page's requests still out (their URLs' paths), kept up to date."""
    out = {}

    def started(request):
        out[id(request)] = request.url

    def ended(request):
        out.pop(id(request), None)

    page.on("request", started)
    page.on("requestfinished", ended)
    page.on("requestfailed", ended)
    return out


def assert_end_anyway_stays(page, out):
    from playwright.sync_api import expect

    expect(page.locator("#evening-messages")).to_contain_text("Tables not in yet")
    expect(page.locator(".end-anyway button.move-end-anyway")).to_have_text("End anyway")
    # Whatever the live updates still had in flight has landed by now: the button is still there.
    wait_until(page, lambda: not any(LIVE in url or END in url for url in out.values()), "the page's requests")
    expect(page.locator(".end-anyway button.move-end-anyway")).to_be_visible()
    expect(page.locator("button.move-end-round")).to_have_count(0)


def test_end_round_clicked_right_after_the_load_always_offers_end_anyway(console):
    page, url = console
    out = track(page)
    for _ in range(10):
        page.goto(url)  # waits for the load event; the socket opens about now
        page.click("button:has-text('End round 1')")
        assert_end_anyway_stays(page, out)


def test_the_live_refresh_answered_before_the_refusal_cannot_take_end_anyway_away(console):
    """The unlucky order, every time: the socket's refresh is out when the click comes,
    and it is answered before the refusal is."""
    page, url = console
    out = track(page)
    held = {"live": [], "end": []}
    page.route(f"**{LIVE}*", lambda route: held["live"].append(route))
    page.route(f"**{END}", lambda route: held["end"].append(route))
    page.goto(url)
    wait_until(page, lambda: held["live"], "the refresh the socket asks for when it opens")
    page.unroute(f"**{LIVE}*")  # later refreshes go straight through
    page.click("button:has-text('End round 1')")
    wait_until(page, lambda: held["end"], "the click's move")
    refresh = held["live"].pop()
    try:
        refresh.continue_()
    except Exception:  # noqa: BLE001 - the page gave that refresh up for the move: nothing to answer
        pass
    wait_until(page, lambda: not any(LIVE in u for u in out.values()), "the refresh's answer")
    held["end"].pop().continue_()
    assert_end_anyway_stays(page, out)
