"""The player's evening and the live standings in real Chromium on a phone: they fit the
screen, and a correction made meanwhile shows up without a reload."""
import threading

import pytest
from django.db import connection

from drive.scoring.services import ranking

from drive.scoring.services import results
from drive.scoring.models import Table
from tests.browser.conftest import WAIT_MS, browser, new_page, shoot  # noqa: F401  (fixtures)

from .test_results_pages import played  # noqa: F401  (a fixture)


def overflowing(page):
    return page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > innerWidth + 1).map(e => e.tagName + '.' + e.className)""")


def in_a_thread(work):
    """ORM work once Playwright runs its loop in the test's thread: in a thread of its own,
    which closes its connection."""
    def run():
        try:
            work()
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_standings_and_my_evening_live_on_a_phone(played, organiser, new_page, shoot, settings):
    from playwright.sync_api import expect

    settings.LIVE_POLL_MS = 400  # the live server has no websocket: live.js polls, quickly here
    event, table_pk, organiser_pk = played["event"], played["tables"][1].pk, organiser.pk

    page = new_page("P1")
    page.goto(f"/accounts/login/?next=/events/{event.pk}/my-evening/")
    page.fill("#id_username", "p1")
    page.fill("#id_password", "pw-Whist-2026")
    with page.expect_navigation():
        page.click("form button[type=submit]:has-text('Log in')")
    expect(page.locator("h1")).to_have_text("My evening")
    expect(page.locator(".seat-line")).to_contain_text("North")
    expect(page.locator("tfoot")).to_contain_text("15")
    assert not overflowing(page)
    shoot(page, "results-my-evening")

    standings = new_page("room")
    standings.goto(f"/events/{event.pk}/standings/")
    p1 = standings.locator("#standings tbody tr", has_text="P1")
    expect(p1.locator("td").nth(3)).to_have_text("15")
    expect(standings.locator(".prizes")).to_contain_text("Booby prize")
    assert not overflowing(standings)
    shoot(standings, "results-standings")
    standings.evaluate("window.notReloaded = true")

    def correct():
        from django.contrib.auth import get_user_model

        results.correct_result(actor=get_user_model().objects.get(pk=organiser_pk),
                               table=Table.objects.get(pk=table_pk), round_number=1, hand_number=1, ns_tricks=4,
                               reason="Counted the wrong pile")
        ranking.recompute_standings(event_id=event.pk)

    in_a_thread(correct)
    # 4 + 6 for P1 now: both pages follow without a reload
    expect(p1.locator("td").nth(3)).to_have_text("10", timeout=WAIT_MS)
    assert standings.evaluate("window.notReloaded") is True
    expect(page.locator("tfoot")).to_contain_text("10", timeout=WAIT_MS)
