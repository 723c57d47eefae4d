"""The lobby a whist player would choose (issue 20), in real Chromium on a phone (390x844):
from `/` a quick game of any preset is two taps away (the navigation's "Play online", the
game's button) and the game is on; a second person sees a public table waiting for players
and sits at its open seat in one tap; nothing sticks out sideways in English, Russian or
Ukrainian, and every button is at least 44 px tall.

The tables are made before Playwright starts, or in a thread of their own (no ORM in the
test's thread once its event loop runs, see test_registration_flow)."""
import pytest

from drive.games.models import PlayTable
from drive.games.services import tables

from .test_play import fast_polls, fetched, signed_in  # noqa: F401  (fixture reused)

pytestmark = pytest.mark.browser

# Every visible element wider than the page, or reaching past its right edge.
OVERFLOW_JS = """() => [...document.querySelectorAll('body *')].filter(e => {
    const r = e.getBoundingClientRect();
    return e.offsetParent !== null && r.width > 0 && (r.right > innerWidth + 0.5 || r.left < -0.5);
}).map(e => e.tagName + '.' + e.className + ': ' + (e.textContent || '').trim().slice(0, 40))"""
# Every visible button of the page's content lower than 44 px (a finger's tap).
SMALL_BUTTONS_JS = """() => [...document.querySelectorAll('main button')].filter(b => b.offsetParent !== null)
    .filter(b => b.getBoundingClientRect().height < 44).map(b => b.textContent.trim())"""


def rules_and_seats(user):
    table = PlayTable.objects.get(created_by=user)
    return table.rules, {s.seat: (s.user_id, s.robot) for s in table.seats.all()}


@pytest.mark.parametrize("rules, label, seats", [
    ("bid", "Bid whist", {"N": "", "E": "rules", "S": "rules", "W": "rules"}),
    ("two_handed", "Whist for two", {"N": "", "E": "rules"}),
])
def test_from_home_to_a_quick_game_in_two_taps(rules, label, seats, make_user, new_page, live_server,
                                               fast_polls):  # noqa: F811
    from playwright.sync_api import expect

    me = make_user("tapper", first_name="Tess")
    page = signed_in(new_page, live_server, me, "tapper")
    page.goto("/")
    page.locator("header nav").get_by_role("link", name="Play online").click()  # tap 1
    page.wait_for_url("**/play/")
    button = page.locator(f'form.quick-game[data-rules="{rules}"]').get_by_role("button", name=label)
    expect(button).to_have_count(1)
    button.click()  # tap 2
    page.wait_for_url("**/play/*/")
    expect(page.locator("#play")).to_be_visible()
    expect(page.locator("#play-hand .pcard").first).to_be_visible()  # my hand: the game is on
    found_rules, found = fetched(lambda: rules_and_seats(me))
    assert found_rules == rules
    assert {seat: robot for seat, (_user, robot) in found.items()} == seats and found["N"][0] == me.pk


def test_a_second_player_sits_at_a_public_table_from_the_lobby(waiting, make_user, new_page, live_server,
                                                               fast_polls, shoot):  # noqa: F811
    from playwright.sync_api import expect

    table, guest = waiting, make_user("guest")
    page = signed_in(new_page, live_server, guest, "guest")
    page.goto("/play/")
    listed = page.locator(f'.open-table[data-table="{table.pk}"]')
    expect(listed).to_contain_text("Short whist, to 5 points")
    expect(listed).to_contain_text("Ann Host")
    shoot(page, "lobby-public-table-en")
    listed.get_by_role("button", name="Sit at E").click()  # one tap
    page.wait_for_url(f"**/play/{table.pk}/")
    expect(page.locator("#play-hand .pcard").first).to_be_visible()
    assert fetched(lambda: PlayTable.objects.get(pk=table.pk).seats.get(seat="E").user_id) == guest.pk


@pytest.fixture
def crowded(make_user):
    """A lobby with something in every list, long names and long games: a table of mine, one
    I sit at, a seat offered to me, public tables waiting. Made before the browser starts."""
    me = make_user("wide", first_name="Wilhelmina", last_name="Featherstonehaugh-Smythe")
    host = make_user("host", first_name="Bartholomew", last_name="Montgomery-Vasylenko")
    table = tables.create_table(user=host, rules="drive_rotation_nt", robots={"E": "rules", "W": "strong"}, public=True)
    tables.create_table(user=host, rules="prussian", robots={}, public=True)
    tables.take_seat(user=me, table_id=tables.create_table(user=host, rules="siberian", robots={"E": "rules", "W": "rules"}, public=True).pk, seat="S")
    tables.create_table(user=me, rules="bid_min3", robots={"E": "rules", "S": "rules", "W": "rules"})
    tables.offer_seat(user=host, table_id=table.pk, seat="S", username="wide")
    return me


@pytest.fixture
def waiting(make_user):
    """Ann's public table of short whist, E open for anyone; made before the browser starts."""
    host = make_user("host", first_name="Ann", last_name="Host")
    return tables.create_table(user=host, rules="short", robots={"S": "rules", "W": "rules"}, public=True)


@pytest.mark.parametrize("language", ["en", "ru", "uk"])
def test_the_lobby_fits_a_phone_in_every_language(language, crowded, new_page, live_server, shoot):
    me = crowded
    page = signed_in(new_page, live_server, me, "wide")
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page.goto("/play/")
    assert page.locator("html").get_attribute("lang") == language
    assert page.locator("form.quick-game").count() == 24
    shoot(page, f"lobby-{language}")
    assert page.evaluate(OVERFLOW_JS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(SMALL_BUTTONS_JS) == []
    page.goto("/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
