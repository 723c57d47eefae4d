"""Names use the room they have: on the room's screen (find your table, standings) a long
name that fits is shown in full, a little too long one steps down a size, and only a name
too long for its line at the smallest size is cut with an ellipsis; on the organiser's
table page a phone shows every name whole.

The evenings are made before Playwright starts (no ORM in the test's thread once its event
loop runs, see test_registration_flow).
"""
import pytest

from drive.events.models import Event, Player
from drive.live.selectors.screen import screen_token
from drive.live.services.screen import issue_screen_link
from drive.movements.models import Entrant
from drive.scoring.models import Round, Table
from tests import seats
from tests.browser.test_csp import PASSWORD, log_in
from tests.scoring.conftest import seat_round

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1920, "height": 1080}
FITS = "Bernard Kovalenko"  # long, but a line of the screen has room for it
FITS_SMALLER = "Olga Sidorenko-Vasylenko"  # a line's room at a size down
TOO_LONG = "Margaret Featherstonehaugh-Smythe-Montgomery of Little Snoring"  # no line has room
NAMES = [FITS, "Tom Price", TOO_LONG, "Bill Okafor", "Ann Lee", "Dev Patel", "Rose Kim", "Ivan Petrov",
         "Joan Hartley", FITS_SMALLER, "Sam Wu", "Kate Moss", "Amir Khan", "Lee Park", "Eve Stone", "Max Roe"]

# Per name: shown in full?, how far it stepped down, and whether its line had room left.
NAMES_JS = """sel => [...document.querySelectorAll(sel)].filter(e => e.offsetParent).map(e => ({
    name: e.textContent, full: e.scrollWidth <= e.clientWidth + 1,
    fit: [...e.classList].filter(c => c.startsWith('fit-')).join('')}))"""


def evening(make_event, organiser, state):
    event = make_event(title="Friday Drive", hands_per_round=2, rounds=2, phase=Event.Phase.IN_PROGRESS,
                       movement_kind="individual")
    for number, name in enumerate(NAMES, start=1):
        Entrant.objects.create(event=event, player=Player.objects.create(display_name=name), number=number)
    for number in range(1, 5):
        Table.objects.create(event=event, number=number)
    first = Round.objects.create(event=event, number=1)
    Round.objects.create(event=event, number=2)
    seat_round(first, {1: (1, 2, 3, 4), 2: (5, 6, 7, 8), 3: (9, 10, 11, 12), 4: (13, 14, 15, 16)})
    if state == "seating":
        Round.objects.filter(pk=first.pk).update(state=Round.State.SEATED)
    else:  # N-S of table 1 lead: the names to look at are on the standings' first page
        seats.enter(table=Table.objects.get(event=event, number=1), seat="N", hand_number=1, ns_tricks=10, trump="H")
        seats.enter(table=Table.objects.get(event=event, number=3), seat="E", hand_number=1, ns_tricks=3, trump="H")
    return issue_screen_link(actor=organiser, event=event)


@pytest.fixture
def evenings(transactional_db, make_event, organiser):
    organiser.set_password(PASSWORD)
    organiser.save()
    seated, playing = evening(make_event, organiser, "seating"), evening(make_event, organiser, "playing")
    return {"seating": f"/screen/{screen_token(seated)}/", "playing": f"/screen/{screen_token(playing)}/",
            "table": f"/console/events/{playing.pk}/evening/rounds/1/tables/1/"}


def check(shown, where, full=(FITS,), full_size=()):
    """`full` shown whole, `full_size` at the line's own size; a name is cut only at the
    smallest size, and the one too long for any line is."""
    by_name = {row["name"]: row for row in shown}
    for name in full:
        assert by_name[name]["full"], f"{where}: {by_name[name]}"
    for name in full_size:
        assert by_name[name]["fit"] == "", f"{where}: {by_name[name]}"
    assert [row for row in shown if not row["full"] and row["fit"] != "fit-2"] == [], where
    assert not by_name[TOO_LONG]["full"], f"{where}: {by_name[TOO_LONG]}"


def test_the_screen_shows_long_names_in_full_when_they_fit(evenings, browser, live_server, settings, shoot):
    from playwright.sync_api import expect

    settings.SCREEN_PAGE_MS = 600_000  # the first page (the leaders) stays while it is measured
    context = browser.new_context(viewport=PROJECTOR, base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(evenings["seating"])
        expect(page.locator(".seating.two-columns")).to_be_visible()
        page.wait_for_load_state("load")
        shoot(page, "screen-names-seating")
        check(page.evaluate(NAMES_JS, ".seating .name"), "find your table")

        page.goto(evenings["playing"])
        expect(page.locator(".standings li", has_text=FITS)).to_be_visible()
        page.wait_for_load_state("load")
        shoot(page, "screen-names-standings")
        check(page.evaluate(NAMES_JS, ".standings .name"), "standings", full=(FITS, FITS_SMALLER),
              full_size=(FITS,))
    finally:
        context.close()


def test_a_tables_page_on_a_phone_shows_whole_names(evenings, new_page, shoot):
    from playwright.sync_api import expect

    page = new_page("organiser")
    log_in(page, "organiser")
    page.goto(evenings["table"])
    expect(page.locator(".players dd").first).to_have_text(FITS)
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    sticking_out = page.evaluate("""() => [...document.querySelectorAll('.players dd, .claims-table td')]
        .filter(e => e.getBoundingClientRect().right > innerWidth || e.scrollWidth > e.clientWidth + 1)
        .map(e => e.textContent.trim())""")
    assert sticking_out == []
    shoot(page, "console-table-names-phone")
