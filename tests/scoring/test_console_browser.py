"""The evening console in real Chromium on a phone: the clock counts down and pauses, a
round with tables out is ended only after "end anyway" and a confirmation."""
import re

import pytest

from drive.movements.models import Movement
from tests.browser.conftest import WAIT_MS, browser, new_page, shoot  # noqa: F401  (fixtures)

from .test_console_pages import PLAN


def fits_phone(page):
    return page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > innerWidth + 1).map(e => e.tagName + '.' + e.className)""")


@pytest.fixture
def planned(evening):
    Movement.objects.create(event=evening, kind="individual", players=9, rounds=2, status="ready", plan=PLAN)
    return evening


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_clock_pause_and_end_anyway(planned, organiser, new_page, shoot):
    # The ORM only before `new_page`: Playwright's event loop then runs in this thread,
    # and a query after it leaves a stray connection behind.
    evening, username = planned, organiser.username
    from playwright.sync_api import expect

    page = new_page("organiser")
    page.goto(f"/accounts/login/?next=/console/events/{evening.pk}/evening/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-Whist-2026")
    with page.expect_navigation():
        page.click("form button[type=submit]:has-text('Log in')")
    clock = page.locator(".clock-time")
    expect(page.locator(".round-title")).to_contain_text("Round 1 of 2")
    first = clock.inner_text()
    assert re.fullmatch(r"\d+:\d\d", first)
    expect(clock).not_to_have_text(first, timeout=WAIT_MS)  # counting down

    page.click("button:has-text('Pause the clock')")
    expect(page.locator(".clock-note")).to_have_text("Paused")
    expect(page.locator("#evening-messages")).to_contain_text("The clock is paused.")
    frozen = clock.inner_text()
    page.wait_for_timeout(1500)
    assert clock.inner_text() == frozen
    page.click("button:has-text('Resume the clock')")
    expect(page.locator(".clock-note")).to_contain_text("ends at")

    page.click("button:has-text('End round 1')")
    expect(page.locator("#evening-messages")).to_contain_text("Tables not in yet (still playing, or a hand disputed): 1, 2.")
    expect(page.locator(".end-anyway")).to_contain_text("table 1, table 2")
    assert not fits_phone(page)
    shoot(page, "console-evening-end-anyway")
    dialogs = []
    page.once("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    page.click("button:has-text('End anyway')")
    expect(page.locator(".round-title")).to_contain_text("Round 2 of 2")
    assert dialogs == ["End round 1 with tables still out? They are flagged as late."]
    expect(page.locator(".notice.late")).to_contain_text("Round 1 ended with tables still out: 1, 2.")
    expect(page.locator("button:has-text('Start the clock of round 2')")).to_be_visible()
    assert not fits_phone(page)
