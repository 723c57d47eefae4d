"""The leaders' chart on the room's screen, drawn by Chromium: five leaders level or nearly
level, each line in a colour of its own (and its own dash and mark), and the labels at the
lines' ends, measured as drawn, clear of each other and of the axis.

The evening is made before Playwright starts (no ORM in the test's thread once its event
loop runs, see test_registration_flow).
"""
import pytest

from drive.events.models import Event, Player
from drive.live.selectors.screen import screen_token
from drive.live.services.screen import issue_screen_link
from drive.movements.models import Entrant
from drive.scoring.models import Round, Table
from tests import seats
from tests.scoring.conftest import seat_round

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1920, "height": 1080}

# Each label as drawn (its mark and its text), the axis's line and figures, in screen pixels.
BOXES = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const labels = [...document.querySelectorAll('.chart-line')].map(g => {
    const text = box(g.querySelector('.chart-label'));
    const marks = [...g.querySelectorAll('.chart-mark')];
    const mark = box(marks[marks.length - 1]);  // the label's mark, drawn last
    return [Math.min(text[0], mark[0]), Math.min(text[1], mark[1]), Math.max(text[2], mark[2]), Math.max(text[3], mark[3])];
  });
  const axis = [...document.querySelectorAll('.chart-axis, .chart-figure')].map(box);
  const svg = box(document.querySelector('.chart-svg'));
  const colours = [...document.querySelectorAll('.chart-run')].map(p => getComputedStyle(p).stroke);
  const labelColours = [...document.querySelectorAll('.chart-total')].map(t => getComputedStyle(t).fill);
  return {labels, axis, svg, colours, labelColours};
}"""


def overlap(a, b):
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.fixture
def level_leaders(transactional_db, make_event, organiser):
    """Sixteen players at four tables, two hands in: two on 14, twelve level on 13, two on 12."""
    event = make_event(title="Friday Drive", hands_per_round=2, rounds=4, phase=Event.Phase.IN_PROGRESS,
                       movement_kind="individual")
    names = ["Margaret Ellis", "Tom Price", "Joan Hartley", "Bill Okafor", "Ann Lee", "Dev Patel", "Rose Kim",
             "Ivan Petrov", "Olga Sidorenko", "Sam Wu", "Kate Moss", "Amir Khan", "Lee Park", "Eve Stone",
             "Max Roe", "Bernard Kovalenko"]
    for number, name in enumerate(names, start=1):
        Entrant.objects.create(event=event, player=Player.objects.create(display_name=name), number=number)
    tables = [Table.objects.create(event=event, number=n) for n in range(1, 5)]
    first = Round.objects.create(event=event, number=1)
    for n in range(2, 5):
        Round.objects.create(event=event, number=n)
    seat_round(first, {1: (1, 2, 3, 4), 2: (5, 6, 7, 8), 3: (9, 10, 11, 12), 4: (13, 14, 15, 16)})
    for table, tricks in zip(tables, ((7, 6), (6, 7), (7, 6), (6, 6)), strict=True):
        for hand, ns in enumerate(tricks, start=1):
            for seat in "NE":  # entered, then confirmed: the live standings count confirmed hands
                seats.enter(table=table, seat=seat, hand_number=hand, ns_tricks=ns, trump="H")
    event = issue_screen_link(actor=organiser, event=event)
    return f"/screen/{screen_token(event)}/"


def test_level_leaders_have_their_own_colours_and_labels_clear_of_each_other(level_leaders, browser, live_server,
                                                                              shoot):
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PROJECTOR, base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(level_leaders)
        expect(page.locator(".chart-line")).to_have_count(5)
        page.wait_for_load_state("load")
        page.evaluate("document.fonts.ready")
        drawn = page.evaluate(BOXES)
        shoot(page, "screen-chart-level-leaders")
    finally:
        context.close()
    assert len(set(drawn["colours"])) == 5, drawn["colours"]  # a colour a line
    assert sorted(drawn["labelColours"]) == sorted(drawn["colours"])  # each label in its line's colour
    labels, svg = drawn["labels"], drawn["svg"]
    for i, a in enumerate(labels):
        assert svg[0] <= a[0] and a[2] <= svg[2] + 0.5 and svg[1] <= a[1] and a[3] <= svg[3] + 0.5, (i, a, svg)
        for b in labels[i + 1:]:
            assert not overlap(a, b), ("labels", a, b)
        for b in drawn["axis"]:
            assert not overlap(a, b), ("the axis", a, b)
