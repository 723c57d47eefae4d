"""A player's history page on a phone (issue 22): from their own page /me/ to the history,
the grade with "provisional", its chart drawn on the server (styled by the page's CSS file,
nothing the CSP blocks) inside a 390 x 844 screen, the evenings below, nothing sticking out
sideways."""
import pytest
from django.contrib.auth import get_user_model

from tests.browser.test_csp import PASSWORD, log_in
from tests.seasons.conftest import local, make_season, people, play  # noqa: F401 - the seasons' fixtures

pytestmark = pytest.mark.browser

WIDE = """() => [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
    .map(e => `${e.tagName.toLowerCase()}.${e.getAttribute('class')}`)"""


@pytest.mark.django_db(transaction=True)
def test_the_history_page_with_its_chart_on_a_phone(new_page, play, people, make_season, shoot):  # noqa: F811
    from playwright.sync_api import expect

    ada, bob, cy, di, eve = people("Ada Featherstonehaugh-Smythe", "Bob", "Cy", "Di", "Eve")
    ada.user = get_user_model().objects.create_user("ada", password=PASSWORD)
    ada.save()
    season = make_season(name="Winter 2026")
    prizes = [{"name": "A bottle of the vicar's elderflower wine", "kind": "overall"}]
    for day, (partner, left, right), tricks in (
            (4, (bob, cy, di), [9, 8, 10]), (11, (cy, di, eve), [6, 7, 5]), (18, (di, bob, eve), [11, 9, 8]),
            (24, (eve, cy, bob), [7, 10, 9])):
        play([[((ada, left, partner, right), tricks)]], starts_at=local(2026, 12, day, 19, 30),
             title=f"Saturday whist drive at the church hall, {day} December", prizes=prizes)

    page = new_page("ada")
    log_in(page, "ada")
    page.goto("/me/")
    page.click("a:has-text('My history and grade')")
    expect(page).to_have_url(f"{page.url.split('/players/')[0]}/players/{ada.pk}/history/")
    expect(page.locator("h1")).to_have_text("Ada Featherstonehaugh-Smythe")
    expect(page.locator("[data-grade]")).to_be_visible()
    expect(page.locator("[data-provisional]")).to_have_text("provisional")  # 12 hands: under 60
    expect(page.locator(".grade-hands")).to_have_text("12 hands rated")
    expect(page.locator(f"a[href='/seasons/{season.pk}/']")).to_have_text("Winter 2026")
    expect(page.locator("table.history-evenings tbody tr")).to_have_count(4)
    expect(page.locator("table.history-evenings tbody tr").first).to_contain_text("24 December")
    expect(page.locator(".history-prizes").first).to_contain_text("elderflower")

    chart = page.locator("svg.grade-chart-svg")
    expect(chart).to_be_visible()
    expect(chart.locator("circle.grade-dot")).to_have_count(4)
    page.wait_for_load_state("load")  # the stylesheets in before anything is measured
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["width"] > 250 and box["height"] > 120
    # Drawn by the CSS file's classes (no style attribute: the CSP would refuse it).
    stroke = chart.locator("path.grade-line").evaluate("e => getComputedStyle(e).stroke")
    assert stroke not in ("", "none") and stroke != "rgb(0, 0, 0)"
    assert chart.locator("circle.grade-dot-provisional").count() == 4
    assert page.evaluate(WIDE) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(page, "history-phone")
