"""The season's pages in real Chromium: the table on a phone (390x844) with nothing wider
than the screen, in English and Russian; the room's screen at projector size (1920x1080):
big type, nothing cut off or sticking out, a long table turning its pages by itself; the
console's seasons on a phone. Screenshots: test-artifacts/screenshots/season-*.png."""
import pytest

from tests.browser.test_csp import PASSWORD, log_in
from tests.seasons.conftest import local, make_season, people, play  # noqa: F401 - fixtures

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1920, "height": 1080}
WIDE = """() => [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
    .map(e => `${e.tagName.toLowerCase()}.${e.className}`)"""
NAMES = ["Margaret Featherstonehaugh-Smythe", "Ада Лавлейс-Кроуфорд", "Bob", "Cy Young", "Di Prince",
         "Eve Online", "Fay Wray", "Gus Grissom", "Hal Jordan", "Ivy Lee", "Jo March", "Kit Marlowe",
         "Len Deighton", "Mo Farah", "Ned Kelly", "Olive Oyl", "Pat Cash", "Quin Fabray", "Ray Mears", "Sue Perkins",
         "Tom Thumb", "Una Stubbs", "Vic Reeves", "Wes Craven", "Xena Warrior", "Yul Brynner", "Zoe Ball",
         "Abe Lincoln", "Bea Arthur", "Cal Ripken", "Dot Cotton", "Ed Byrne"]


@pytest.fixture
def long_season(transactional_db, make_season, play, people):
    """Two evenings, of 32 players (eight tables, a hand each) and of 28 of them: a season
    table of 32 rows, four of them unqualified; the longest names among them. Made before
    the browser starts (no ORM in the thread of Playwright's event loop)."""
    season = make_season(name="Winter League 2026–27, Thursday evenings", min_evenings=2, best_of=6)
    players = people(*NAMES)

    def evening(field, day, title):
        tables = [((field[i], field[i + 1], field[i + 2], field[i + 3]), [7 + (i // 4) % 5])
                  for i in range(0, len(field), 4)]
        return play([tables], starts_at=local(2026, 12, day, 19, 30), title=title)

    evening(players, 4, "Advent drive at the church hall")
    evening(players[:28][::-1], 11, "Christmas drive")  # the last four were not there
    return season


def overflow(page):
    page.wait_for_load_state("load")  # the stylesheets in: an unstyled table is wider than a phone
    return page.evaluate(WIDE)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_season_page_fits_a_phone(long_season, new_page, live_server, shoot, lang):
    from playwright.sync_api import expect

    page = new_page("reader")
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(f"/seasons/{long_season.pk}/")
    rows = page.locator("table.season-table tbody tr")
    expect(rows).to_have_count(32)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    assert overflow(page) == [], lang
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The phone keeps place, name, evenings, counted and score; an unqualified row is greyed.
    assert page.locator("th.col-qualified").is_hidden()
    assert page.locator("tr.unqualified").count() == 4
    shoot(page, f"season-phone-{lang}")


def test_the_season_on_the_rooms_screen(long_season, browser, live_server, shoot, settings):
    from playwright.sync_api import expect

    settings.SEASON_SCREEN_PAGE_MS = 1500  # the pages turn sooner than in the hall
    context = browser.new_context(viewport=PROJECTOR, base_url=live_server.url, locale="en-GB")
    errors = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"/seasons/{long_season.pk}/screen/")
        pages = page.locator("[data-pages] .page")
        expect(pages).to_have_count(4)  # 32 rows, ten a page
        first = pages.nth(0)
        expect(first).to_be_visible()
        assert overflow(page) == []
        fit = page.evaluate("""() => {
            const screen = document.getElementById('screen');
            const rows = [...document.querySelectorAll('[data-pages] .page:not([hidden]) li')];
            const last = rows[rows.length - 1].getBoundingClientRect();
            const name = getComputedStyle(rows[0].querySelector('.name'));
            return {bottom: last.bottom, height: innerHeight, screen: screen.scrollHeight,
                    size: parseFloat(name.fontSize), rows: rows.length,
                    title: parseFloat(getComputedStyle(document.querySelector('.title')).fontSize)};
        }""")
        assert fit["rows"] == 10 and fit["bottom"] <= fit["height"] and fit["screen"] <= fit["height"], fit
        assert fit["size"] >= 45 and fit["title"] >= 60, fit  # read from the back of the hall
        expect(first.locator("li").first).to_contain_text("1")
        shoot(page, "season-screen-1920")
        # The long name fits by stepping down a size (screen.js), else an ellipsis: never wider.
        expect(pages.nth(1)).to_be_visible()  # the pages turn by themselves
        expect(pages.nth(0)).to_be_hidden()
        expect(pages.nth(3)).to_be_visible()
        assert page.locator(".pager").inner_text().startswith("4 pages")
        assert overflow(page) == []
        shoot(page, "season-screen-1920-last-page")
    finally:
        context.close()
    assert errors == []


def test_the_consoles_seasons_on_a_phone(long_season, organiser, new_page, shoot):
    from playwright.sync_api import expect

    organiser.set_password(PASSWORD)
    organiser.save()
    page = new_page("organiser")
    log_in(page, "organiser")
    page.goto("/console/")
    page.click("a:has-text('Seasons of')")
    expect(page.locator(".season-item")).to_have_count(1)
    assert overflow(page) == []
    shoot(page, "season-console-phone")
    page.click(".season-item a:has-text('Edit')")
    page.fill("#id_ends_on", "2026-01-01")
    page.fill("#id_placing_points", "3, 5")
    page.click("main button[type=submit]:has-text('Save')")
    expect(page.locator("[data-field-errors=ends_on]")).to_contain_text("The season cannot end before it starts.")
    expect(page.locator("[data-field-errors=placing_points]")).to_contain_text(
        "A place cannot score more than the place above it.")
    assert overflow(page) == []
    shoot(page, "season-console-form-errors-phone")
    page.goto("/console/")
    page.click("a:has-text('Seasons of')")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click(".season-item button:has-text('Delete')")
    expect(page.locator(".messages")).to_contain_text("is deleted; its evenings stay as they are.")
    expect(page.locator(".season-item")).to_have_count(0)
