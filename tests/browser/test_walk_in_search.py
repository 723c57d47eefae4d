"""The door on a phone: the organiser types part of a name into the walk-in card, the club's
players who match appear as they type (htmx), and one tap checks the one picked in as
themselves. Screenshot: test-artifacts/screenshots/walk-in-search-phone.png."""
from datetime import timedelta

import pytest

from tests.browser.test_csp import PASSWORD, log_in

pytestmark = pytest.mark.browser

WIDE = """() => [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
    .map(e => `${e.tagName.toLowerCase()}.${e.className}`)"""


@pytest.fixture
def door(transactional_db, make_event, organiser):
    """Last week's walk-ins, and tonight's evening. Made before the browser starts."""
    from django.utils import timezone

    from drive.events.services import arrivals

    organiser.set_password(PASSWORD)
    organiser.save()
    before = make_event(title="Last week", starts_at=timezone.now() - timedelta(days=7))
    for name in ("Ada Lovelace", "Адам Смирнов", "Bob Babbage"):
        arrivals.add_walk_in(actor=organiser, event=before, display_name=name)
    return make_event(title="Tonight", starts_at=timezone.now() + timedelta(hours=1))


def test_a_known_player_is_found_as_you_type_and_checked_in(door, new_page, shoot):
    from playwright.sync_api import expect

    from drive.events.models import Player

    page = new_page("organiser")
    log_in(page, "organiser")
    page.goto(f"/console/events/{door.pk}/")
    page.fill("#walk-in-find", "ад")  # any case, Cyrillic too
    matches = page.locator("#walk-in-matches .match")
    expect(matches).to_have_count(1)
    expect(matches.first).to_contain_text("Адам Смирнов")
    page.fill("#walk-in-find", "LOVE")
    expect(matches).to_have_count(1)
    expect(matches.first).to_contain_text("Ada Lovelace")
    expect(matches.first).to_contain_text("1 evening here")
    page.wait_for_load_state("load")
    assert page.evaluate(WIDE) == []
    shoot(page, "walk-in-search-phone")
    matches.first.locator("button:has-text('Check in')").click()
    expect(page.locator(".messages")).to_contain_text("Ada Lovelace is checked in, with their evenings before.")
    expect(page.locator("#registrations tbody tr")).to_have_count(1)
    assert Player.objects.filter(display_name="Ada Lovelace").count() == 1
