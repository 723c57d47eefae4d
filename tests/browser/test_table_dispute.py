"""Two phones settle a disputed hand themselves in real Chromium: North-South enter 8,
East-West 6; North's phone then offers to agree with 6 or send its count again; one tap
on "Agree" settles it, and East's phone sees it confirmed without reloading."""
import re

import pytest

from .test_table_entry import hand, say_who, table_night  # noqa: F401  (fixture)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_two_phones_settle_a_dispute_without_the_organiser(table_night, new_page, shoot, settings):  # noqa: F811
    from playwright.sync_api import expect

    settings.LIVE_POLL_MS = 400  # the live server has no websocket: live.js polls, quickly here
    entry = f"/t/{table_night['token']}/"
    north, east = new_page("north"), new_page("east")
    north.goto(entry)
    say_who(north, "North", "Margaret Ellis")
    east.goto(entry)
    say_who(east, "East", "Tom Price")

    first = hand(north, 1)
    first.locator("label[for=h1-trump-H]").click()
    first.locator("label[for=h1-ns-8]").click()
    first.get_by_role("button", name="Send hand 1").click()
    expect(hand(north, 1)).to_contain_text("Sent. Waiting for the opponents to confirm.")

    expect(hand(east, 1)).to_contain_text("The opponents entered this", timeout=30_000)
    hand(east, 1).locator("summary").click()
    hand(east, 1).locator("label[for=h1-trump-H]").click()
    hand(east, 1).locator("label[for=h1-ns-6]").click()
    hand(east, 1).get_by_role("button", name="Send our count for hand 1").click()
    expect(hand(east, 1)).to_contain_text("Disputed: the organiser has been told.")
    expect(hand(east, 1)).to_contain_text("Count the tricks again together")

    # North's phone, live: the dispute, and a way to settle it.
    agree = hand(north, 1).get_by_role("button", name=re.compile(r"Agree: N-S 6 · E-W 7"))
    expect(agree).to_be_visible(timeout=30_000)
    expect(hand(north, 1)).to_contain_text("The sides entered different counts.")
    shoot(north, "table-12-dispute-offered")
    agree.click()
    expect(hand(north, 1)).to_contain_text("Settled: both sides entered the same count.")
    expect(hand(north, 1).locator(".badge")).to_contain_text("confirmed")
    expect(hand(north, 1)).to_contain_text("N-S 6 · E-W 7")
    shoot(north, "table-13-dispute-settled")

    expect(hand(east, 1).locator(".badge")).to_contain_text("confirmed", timeout=30_000)
    expect(hand(east, 1).get_by_role("button", name=re.compile("Agree"))).to_have_count(0)
