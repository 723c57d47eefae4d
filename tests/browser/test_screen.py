"""The room's screen in real Chromium: opened by its screen link at projector
size, it follows the evening by itself: before the start, a result entered through the
table API shows in the standings without a reload, the clock's last two minutes, "find
your table", and the prizes.

pytest-django's live server speaks WSGI only, so live.js falls back to polling (shortened
with LIVE_POLL_MS). The evening's state changes run in a short-lived thread of their own:
no ORM in the test's thread once Playwright's event loop runs (see test_registration_flow).
Screenshots go to test-artifacts/screenshots/screen-*.png.
"""
import threading
from datetime import timedelta

import pytest

from drive.events.models import Event, Player, Registration
from tests import seats
from tests.scoring.conftest import seat_round

from .test_table_entry import make_evening

PROJECTOR = {"width": 1920, "height": 1080}


def in_thread(work):
    """Run database work in a thread of its own (with its own connection), and wait."""
    failures = []

    def run():
        from django.db import connection

        try:
            work()
        except Exception as exc:  # noqa: BLE001  (surfaced in the test's thread below)
            failures.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    assert not thread.is_alive(), "database work did not finish"
    if failures:
        raise failures[0]


@pytest.fixture
def screen_night(transactional_db, make_event, organiser):
    from django.utils import timezone

    from drive.live.selectors.screen import screen_token
    from drive.live.services.screen import issue_screen_link
    from drive.scoring.models import Table

    event, _rounds = make_evening(make_event)
    Event.objects.filter(pk=event.pk).update(phase=Event.Phase.REGISTRATION)
    for name in ("Early Bird", "Second Comer", "Third Arrival"):
        Registration.objects.create(event=event, player=Player.objects.create(display_name=name),
                                    status=Registration.Status.CHECKED_IN, registered_at=timezone.now())
    event = issue_screen_link(actor=organiser, event=event)
    return {"event": event.pk, "screen": f"/screen/{screen_token(event)}/",
            "table": Table.objects.get(event=event, number=1).token}


def start_evening(event_id):
    Event.objects.filter(pk=event_id).update(phase=Event.Phase.IN_PROGRESS)


def last_two_minutes(event_id):
    from django.utils import timezone

    from drive.scoring.models import Round

    Round.objects.filter(event_id=event_id, number=1).update(deadline=timezone.now() + timedelta(seconds=95))


def close_round_one(event_id):
    from drive.scoring.models import Round

    Round.objects.filter(event_id=event_id, number=1).update(state=Round.State.CLOSED)


def seat_round_two(event_id):
    from drive.scoring.models import Round

    first, second = Round.objects.filter(event_id=event_id).order_by("number")
    Round.objects.filter(pk=first.pk).update(state=Round.State.CLOSED)
    seat_round(second, {1: (5, 6, 7, 9), 2: (2, 1, 4, 8)}, sit_out=(3,))
    Round.objects.filter(pk=second.pk).update(state=Round.State.SEATED)


def finish(event_id):
    Event.objects.filter(pk=event_id).update(phase=Event.Phase.FINISHED)


def publish(event_id):
    Event.objects.filter(pk=event_id).update(phase=Event.Phase.RESULTS_PUBLISHED,
                                             prizes=["First prize", "Second prize", "Booby prize"])


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_screen_follows_the_evening_without_a_reload(screen_night, browser, live_server, shoot, settings):
    from playwright.sync_api import expect

    settings.LIVE_POLL_MS = 400  # no websocket on the WSGI live server: live.js polls, quickly here
    settings.SCREEN_LINES_PER_PAGE = 5  # nine players: two pages of standings
    settings.SCREEN_PAGE_MS = 3000
    event_id = screen_night["event"]
    context = browser.new_context(viewport=PROJECTOR, base_url=live_server.url, locale="en-GB")
    context.set_default_timeout(30_000)
    errors = []
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        assert page.request.get("/screen/not-the-link/").status == 404

        # --- before the start: title, QR code, arrivals --------------------------------------
        page.goto(screen_night["screen"])
        screen = page.locator("#screen")
        expect(screen).to_have_attribute("data-state", "before")
        expect(page.locator("h1")).to_have_text("St Mary's Friday Whist Drive")
        expect(page.locator("[data-arrivals]")).to_have_text("3")
        expect(page.locator("img.qr")).to_be_visible()
        assert page.evaluate("document.querySelector('img.qr').naturalWidth") > 0
        page.evaluate("window.notReloaded = true")
        shoot(page, "screen-01-before")

        # --- the evening starts: round 1 with its clock ---------------------------------------
        in_thread(lambda: start_evening(event_id))
        expect(screen).to_have_attribute("data-state", "playing")
        expect(page.locator("[data-hands-entered]")).to_have_text("0")
        clock = page.locator("[data-clock-time]")
        first = clock.text_content()
        expect(clock).not_to_have_text(first, timeout=30_000)  # counting down by itself
        assert first.startswith(("20:", "19:"))

        # --- a result through the table API reaches the open screen ---------------------------
        claim = page.request.post(f"/api/tables/{screen_night['table']}/claims/", data={"seat": "N"})
        assert claim.status == 201, claim.text()  # North's phone claims its seat first
        answer = page.request.post(f"/api/tables/{screen_night['table']}/results/",
                                   data={"seat": "N", "hand_number": 1, "ns_tricks": 9, "trump": "H"},
                                   headers={"X-Seat-Claim": claim.json()["claim"]})
        assert answer.status == 201, answer.text()
        expect(page.locator("[data-hands-entered]")).to_have_text("1")
        # Not confirmed by E-W yet: the standings leave it out and the screen says so.
        expect(page.locator("[data-awaiting]")).to_have_text("1 hand awaiting confirmation")
        east = page.request.post(f"/api/tables/{screen_night['table']}/claims/", data={"seat": "E"})
        assert east.status == 201, east.text()
        confirmed = page.request.post(f"/api/tables/{screen_night['table']}/results/",
                                      data={"seat": "E", "hand_number": 1, "ns_tricks": 9, "trump": "H"},
                                      headers={"X-Seat-Claim": east.json()["claim"]})
        assert confirmed.status == 200 and confirmed.json()["outcome"] == "confirmed", confirmed.text()
        expect(page.locator("[data-awaiting]")).to_have_count(0)
        leader = page.locator('.standings li[data-entrant="1"]')
        expect(leader).to_contain_text("Margaret Ellis")
        expect(leader.locator(".total")).to_have_text("9")
        assert page.evaluate("window.notReloaded") is True
        assert page.locator("#screen").count() == 1  # swapped in place, never nested
        pages = page.locator(".standings.page")
        expect(pages).to_have_count(2)
        expect(pages.nth(0)).to_be_visible()
        shoot(page, "screen-02-playing")
        expect(pages.nth(1)).to_be_visible(timeout=30_000)  # the page turns by itself
        expect(pages.nth(0)).to_be_hidden()
        expect(pages.nth(1)).to_contain_text("Ivan Petrov")
        shoot(page, "screen-02b-playing-page-2")

        # --- the last two minutes -------------------------------------------------------------
        in_thread(lambda: last_two_minutes(event_id))
        page.evaluate("document.body.dispatchEvent(new CustomEvent('live-update'))")
        expect(page.locator("#clock")).to_have_class("clock warn")
        expect(page.locator("[data-clock-warn]")).to_be_visible()
        shoot(page, "screen-03-last-minutes")

        # --- round 1 ends: the standings stay, the clock gives way ------------------------------
        in_thread(lambda: close_round_one(event_id))
        page.evaluate("document.body.dispatchEvent(new CustomEvent('live-update'))")
        expect(screen).to_have_attribute("data-state", "between")
        expect(page.locator(".ended")).to_have_text("Round 1 has ended.")
        expect(page.locator("#clock")).to_have_count(0)
        shoot(page, "screen-03b-between-rounds")

        # --- round 2 seated: find your table --------------------------------------------------
        in_thread(lambda: seat_round_two(event_id))
        expect(screen).to_have_attribute("data-state", "seating")
        expect(page.locator(".headline")).to_have_text("Round 2: find your table")
        names = page.locator(".seating .name").all_text_contents()
        assert names == sorted(names, key=str.casefold) and len(names) == 9
        expect(page.locator(".seating li", has_text="Ann Lee")).to_contain_text("table 1 North")
        shoot(page, "screen-04-find-your-table")

        # --- the last round played: thanks, while the organiser checks the results ---------------
        in_thread(lambda: finish(event_id))
        expect(screen).to_have_attribute("data-state", "finished")
        expect(page.locator(".finale")).to_contain_text("Thank you for playing!")
        shoot(page, "screen-04b-finished")

        # --- results published: the prizes ---------------------------------------------------
        in_thread(lambda: publish(event_id))
        expect(screen).to_have_attribute("data-state", "published")
        expect(page.locator(".prizes li").first).to_contain_text("First prize")
        shoot(page, "screen-05-prizes")

        assert page.evaluate("window.notReloaded") is True
        assert page.locator("#screen").count() == 1
        box = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        assert box[0] <= PROJECTOR["width"] and box[1] <= PROJECTOR["height"], f"the screen overflows: {box}"
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def enter_hand(table_token, hand):
    from drive.scoring.models import Table

    seats.enter(table=Table.objects.get(token=table_token), seat="N", hand_number=hand, ns_tricks=7,
                trump="H")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_change_during_a_slow_refresh_is_still_shown(screen_night, browser, live_server, settings):
    """htmx drops a request while the element's last one is in flight: a change that comes
    while the server is slow to answer must still reach the screen (it asks again)."""
    from playwright.sync_api import expect

    settings.LIVE_POLL_MS = 600_000  # no polling to the rescue: only the live updates count
    event_id = screen_night["event"]
    in_thread(lambda: start_evening(event_id))
    context = browser.new_context(viewport=PROJECTOR, base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(screen_night["screen"])
        expect(page.locator("[data-hands-entered]")).to_have_text("0")
        in_thread(lambda: enter_hand(screen_night["table"], 1))
        slowed = []

        def slow_answer(route):
            if not route.request.headers.get("hx-request") or slowed:
                route.continue_()
                return
            slowed.append(route.request.url)
            answer = route.fetch()  # the server has read the evening: one hand entered
            in_thread(lambda: enter_hand(screen_night["table"], 2))  # then a second comes in
            page.wait_for_timeout(600)  # while the answer is still on its way, another update
            route.fulfill(response=answer)

        page.route("**/screen/**", slow_answer)
        page.evaluate("""() => {
          document.body.dispatchEvent(new CustomEvent('live-update'));
          setTimeout(() => document.body.dispatchEvent(new CustomEvent('live-update')), 300);
        }""")
        expect(page.locator("[data-hands-entered]")).to_have_text("2", timeout=30_000)
        assert len(slowed) == 1
    finally:
        context.close()


def clock_at(event_id, seconds, chime=None):
    """Round 1's deadline `seconds` from now (in the past when negative): no waiting for it."""
    from django.utils import timezone

    from drive.live.models import Screen
    from drive.scoring.models import Round

    Round.objects.filter(event_id=event_id, number=1).update(deadline=timezone.now() + timedelta(seconds=seconds))
    if chime is not None:
        Screen.objects.update_or_create(event_id=event_id, defaults={"chime": chime})


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_at_zero_the_screen_says_time_is_up_and_chimes_once(screen_night, browser, live_server, shoot, settings):
    """The last two minutes warn; at 0:00 the screen says time is up (no longer "Last two
    minutes!") and chimes once; a screen opened after the deadline says so at once."""
    from playwright.sync_api import expect

    settings.LIVE_POLL_MS = 600_000  # the test sends the live updates itself
    event_id = screen_night["event"]
    in_thread(lambda: start_evening(event_id))
    in_thread(lambda: clock_at(event_id, 95, chime=True))
    context = browser.new_context(viewport=PROJECTOR, base_url=live_server.url, locale="en-GB")
    context.set_default_timeout(30_000)
    errors = []
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(screen_night["screen"])
        clock, warn, over = page.locator("#clock"), page.locator("[data-clock-warn]"), page.locator("[data-clock-over]")
        expect(warn).to_be_visible()
        expect(warn).to_have_text("Last two minutes!")
        expect(over).to_be_hidden()
        page.mouse.click(PROJECTOR["width"] // 2, PROJECTOR["height"] // 2)  # allows the chime
        expect(page.locator("#chime-hint")).to_be_hidden()

        in_thread(lambda: clock_at(event_id, -5))  # the deadline passes while the screen is open
        page.evaluate("document.body.dispatchEvent(new CustomEvent('live-update'))")
        expect(page.locator("[data-clock-time]")).to_have_text("0:00")
        expect(warn).to_be_hidden()  # no "Last two minutes!" at 0:00
        expect(over).to_be_visible()
        expect(over).to_have_text("Time is up!")
        expect(clock).to_have_class("clock over")
        page.wait_for_function("window.screenChimes === 1")
        shoot(page, "screen-06-time-is-up")
        page.evaluate("document.body.dispatchEvent(new CustomEvent('live-update'))")  # a refresh at zero
        expect(page.locator("[data-clock-time]")).to_have_text("0:00")
        assert page.evaluate("window.screenChimes") == 1  # once a round
        expect(warn).to_be_hidden()

        later = context.new_page()  # opened after the deadline: says so at once, stays quiet
        later.goto(screen_night["screen"])
        expect(later.locator("[data-clock-over]")).to_be_visible()
        expect(later.locator("[data-clock-warn]")).to_be_hidden()
        later.wait_for_timeout(600)  # a couple of the clock's ticks
        expect(later.locator("[data-clock-over]")).to_be_visible()
        assert later.evaluate("window.screenChimes") == 0
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"
