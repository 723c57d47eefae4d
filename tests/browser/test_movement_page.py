"""The organiser's movement page for a big evening (44 players at 11 tables, 8 rounds): the
whole plan scrolls inside its own box, the page never runs wider than the screen, on a
laptop (1280 px) or a phone (390 px)."""
import pytest


from drive.events.services import arrivals as arrival_services
from tests.browser.test_csp import PASSWORD, log_in

pytestmark = pytest.mark.browser

PLAYERS = 44
ROUNDS = 8
SURNAMES = ["Featherstonehaugh-Smythe", "Kovalenko", "Ellis", "Okafor", "Sidorenko-Vasylenko", "Price",
            "Hartley", "Montgomery-Whitworth", "Lee", "Petrov", "Kim"]


WIDE = """() => [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('.plan-scroll'))
    .map(e => `${e.tagName.toLowerCase()}.${e.className}`).slice(0, 10)"""


@pytest.fixture
def big_evening(transactional_db, make_event, organiser):
    """Made before Playwright starts (its event loop in this thread stops the broadcasts)."""
    from drive.scoring.services import evening

    organiser.set_password(PASSWORD)
    organiser.save()
    event = make_event(movement_kind="individual", rounds=ROUNDS, hands_per_round=4, capacity=PLAYERS)
    for n in range(PLAYERS):
        arrival_services.add_walk_in(actor=organiser, event=event, display_name=f"Margaret {SURNAMES[n % len(SURNAMES)]} {n}")
    evening.start_evening(actor=organiser, event=event)  # on commit, eager: the movement is stored
    return event


@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)])
def test_a_big_plan_fits_the_screen(big_evening, new_page, shoot, width, height):
    from playwright.sync_api import expect

    event = big_evening
    page = new_page("organiser")
    page.set_viewport_size({"width": width, "height": height})
    log_in(page, "organiser")
    page.goto(f"/console/events/{event.pk}/movement/")
    page.wait_for_load_state("load")  # measured with the stylesheets in
    plan = page.locator("table.plan")
    expect(plan.locator("tbody tr")).to_have_count(ROUNDS)
    expect(plan.locator("thead th")).to_have_count(1 + PLAYERS // 4 + 1)  # round, 11 tables, sitting out
    expect(plan).to_contain_text("Margaret Featherstonehaugh-Smythe")
    document = page.evaluate("document.documentElement.scrollWidth")
    assert document <= width, f"the page is {document} px wide at {width} px: {page.evaluate(WIDE)}"
    box = page.locator(".plan-scroll")
    inner, outer = box.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert outer <= width and inner > outer  # the plan scrolls inside its box
    shoot(page, f"movement-plan-{width}")

