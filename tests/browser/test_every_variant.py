"""Every variant on one phone screen (issue 20): for each of the engine's presets a
signed-in player goes from `/` to a table with robots in at most two taps at 390x844,
plays the first hand to its end, and whenever they are to act every card or call they
may play is inside the screen, with nothing sticking out sideways; then the page is
read again in Russian and Ukrainian, as wide as the phone and with the acting area in
view. With a dummy the status says which hand to play from; no seat of a dummy or a
face-up hand is an "open seat". 1280x800 is held to the same for a few presets."""
import json

import pytest

from engine import VARIANTS

from .conftest import WORKER_WAIT_MS, screenshot, settle, waiting, wait_until
from .sheets import assert_sheet_matches
from .test_play import PLAY, fast_polls, my_turn, next_hand, play_one, quick_pace, signed_in  # noqa: F401
from .test_play import version
from .test_score_sheets import api_score

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PRESETS = list(VARIANTS)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SHOTS = ("short", "dummy", "bid", "two_handed", "prussian")  # screenshots in ru and uk too

# Where each legal card or call is, and what sticks out of the screen (no scrolling by the
# test: the layout, or the page itself, brings the acting area into view).
ACTING_JS = """() => {
  const w = innerWidth, h = innerHeight;
  return [...document.querySelectorAll('#play button[data-action]:not([disabled])')].map(b => {
    const r = b.getBoundingClientRect(), hand = b.closest('.open-hand, #play-hand, #play-calls');
    return {action: b.getAttribute('data-action'), top: r.top, bottom: r.bottom, left: r.left, right: r.right,
            height: r.height, from: hand ? (hand.getAttribute('data-hand') || hand.id) : '',
            inside: r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= h && r.right <= w};
  });
}"""
# Every tap target of the table page (the site's navigation too) that is shown: at least 44 px tall.
SMALL_TARGETS_JS = """() => [...document.querySelectorAll('a, button, select, summary')]
  .filter(e => e.offsetParent !== null && getComputedStyle(e).visibility !== 'hidden')
  .map(e => ({what: (e.getAttribute('data-action') || e.textContent || e.id).trim().slice(0, 40),
              height: e.getBoundingClientRect().height}))
  .filter(t => t.height < 44)"""
WIDTH_JS = "document.documentElement.scrollWidth"


def open_a_table(page, rules):
    """From `/`: the navigation's "Play online", then the lobby's quick game of `rules` (a
    rules robot in every other seat, the player in the first): two taps."""
    taps = 0
    page.goto("/")
    page.locator("header nav").get_by_role("link", name="Play online").click()
    taps += 1
    page.wait_for_url("**/play/")
    page.locator(f'form.quick-game[data-rules="{rules}"] button[type=submit]').click()
    taps += 1
    page.wait_for_url("**/play/*/")
    assert taps <= 2
    wait_until(page, lambda: version(page) >= 0, "the table's view")


def frame(page, name):
    """What the screen shows (not the whole page): test-artifacts/screenshots/<name>.png."""
    screenshot(page, name, full_page=False)


def check_the_screen(page, where, shot=None):
    """The player is to act: every legal card or call inside the screen, nothing wider
    than the screen, the status naming the hand to play from. `shot(sources)`: a
    screenshot's name for the hands played from, or None."""
    size = page.viewport_size
    acting = page.evaluate(ACTING_JS)
    name = shot and shot({a["from"] for a in acting})
    if name:
        frame(page, name)
    assert acting, f"{where}: my turn with nothing to play"
    outside = [a for a in acting if not a["inside"]]
    assert not outside, f"{where}: out of the {size['width']}x{size['height']} screen: {outside}"
    assert all(a["height"] >= 44 for a in acting), f"{where}: small targets {acting}"
    width = page.evaluate(WIDTH_JS)
    assert width <= size["width"], f"{where}: the page is {width} px wide"
    sources = {a["from"] for a in acting}
    status = page.locator("#play-status").inner_text()
    if any(s.startswith("dummy") for s in sources):  # a dummy's cards: the status says so
        assert page.locator("#play-status .turn.from-dummy").count() == 1, f"{where}: {status!r}"
    return sources


def seats_are_named(page, rules):
    """No dummy and no face-up hand is an open seat: every seat has a robot or a person."""
    heads = page.locator("#play-table .place-head").all_inner_texts()
    assert heads and not any("open seat" in h for h in heads), f"{rules}: {heads}"
    if "dummy" in page.locator(PLAY).get_attribute("data-places"):
        assert any("dummy" in h for h in heads), f"{rules}: {heads}"


def hands_shown(page):
    return len(json.loads(page.locator(PLAY).get_attribute("data-pace") or '{"hands": []}')["hands"])


def play_the_first_hand(page, rules, prefix):
    """Play to the first hand's end by the first legal action, checking the screen at each
    turn; a screenshot of the first turn of each kind (phase and hand played from)."""
    seen = set()
    for turn, _ in enumerate(waiting(WORKER_WAIT_MS * 3)):  # a hang bound: three minutes for a hand
        if hands_shown(page) or page.locator(PLAY).get_attribute("data-phase") == "over":
            break
        if not my_turn(page):
            settle(page)
            continue
        phase = page.locator(PLAY).get_attribute("data-phase")

        def shot(sources):
            kind = f"{phase}-{'-'.join(sorted(sources))}"
            if kind in seen:
                return None
            seen.add(kind)
            return f"{prefix}-{rules}-{kind}"

        count = len(seen)
        check_the_screen(page, f"{rules} turn {turn} ({phase})", shot)
        if len(seen) > count:
            seats_are_named(page, rules)
        play_one(page)  # the first legal card or call: on the screen already, so no scrolling
    else:
        raise AssertionError(f"{rules}: the first hand did not end")
    next_hand(page)
    return seen


def sheet_after_the_hand(page, user):
    """Once the page shows the table as the API has it (robots may still be moving: ask
    again until both agree), its score sheet holds the API's score (no hand ends without
    the player, so the score is the first hand's)."""
    table_id = int(page.url.rstrip("/").split("/")[-1])
    for _ in range(100):
        view = api_score(user, table_id)
        wait_until(page, lambda: version(page) >= view["version"], "the page at the API's version")
        if version(page) == view["version"] and page.locator(PLAY).get_attribute("data-queued") in ("0", None):
            assert_sheet_matches(page, view["score"])
            return
        page.wait_for_timeout(100)
    raise AssertionError("the page and the API never agreed on the table's version")


def acting_again(page, rules, lang, shot=None):
    """After a reload in `lang`: as wide as the screen, and the acting area in view once
    the player is to act (the game may be over: then only the width)."""
    wait_until(page, lambda: page.locator(PLAY).get_attribute("data-phase") == "over" or my_turn(page),
               f"my turn in {lang}")
    if shot:
        frame(page, shot)
    width = page.evaluate(WIDTH_JS)
    assert width <= page.viewport_size["width"], f"{rules} in {lang}: the page is {width} px wide"
    if my_turn(page):
        check_the_screen(page, f"{rules} in {lang}")


@pytest.mark.parametrize("rules", PRESETS)
def test_every_variant_fits_a_phone_screen(rules, make_user, new_page, live_server, fast_polls):
    me = make_user("phone", first_name="Philippa", last_name="Fonseca-Whitworth")
    page = signed_in(new_page, live_server, me, "phone")
    assert page.viewport_size == PHONE
    quick_pace(page)
    open_a_table(page, rules)
    seats_are_named(page, rules)
    play_the_first_hand(page, rules, "variant")
    sheet_after_the_hand(page, me)
    small = page.evaluate(SMALL_TARGETS_JS)
    assert not small, f"{rules}: tap targets under 44 px: {small}"
    for lang in ("ru", "uk"):
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        page.reload()
        wait_until(page, lambda: version(page) >= 0, "the table's view")
        acting_again(page, rules, lang, f"variant-{rules}-{lang}" if rules in SHOTS else None)


@pytest.mark.parametrize("rules", ["short", "dummy", "bid"])
def test_a_desktop_screen_shows_the_hand_without_scrolling(rules, make_user, new_page, live_server, fast_polls):
    me = make_user("desk", first_name="Desmond")
    page = signed_in(new_page, live_server, me, "desk")
    page.set_viewport_size(DESKTOP)
    quick_pace(page)
    open_a_table(page, rules)
    play_the_first_hand(page, rules, "desktop")
    small = page.evaluate(SMALL_TARGETS_JS)
    assert not small, f"{rules}: tap targets under 44 px: {small}"


def steer(table_id, wanted):
    """The table's game moved on (in the engine) to where `wanted(game)` holds with North to
    act: North makes the first bid it may and the others pass, so North declares; every
    other choice random. The page then opens on that turn."""
    import random

    from drive.games.models import PlayTable
    from engine import replay_game

    table = PlayTable.objects.get(pk=table_id)
    game, rng = replay_game(table.record), random.Random(5)
    for _ in range(400):
        legal = [str(a) for a in game.legal_actions()]
        if game.to_act == "N" and wanted(game):
            table.record, table.version, table.phase = game.record(), table.version + 1, str(game.phase)
            table.save(update_fields=["record", "version", "phase"])
            return
        if str(game.phase) == "auction":
            bids = [a for a in legal if a != "pass"]
            action = (bids[0] if bids else "pass") if game.to_act == "N" else ("pass" if "pass" in legal else legal[0])
        else:
            action = rng.choice(legal)
        game.apply(action)
    raise AssertionError("no such turn")


def from_dummy(game):
    view = game.view("N")
    dummies = [cards for label, cards in (view.get("open_hands") or {}).items()
               if (view.get("seating") or {}).get(label) == "N" and label != "N"]
    return str(game.phase) == "play" and any(str(a) in cards for a in view["legal"] for cards in dummies)


def kitty(game):
    return str(game.phase) == "exchange" and any(str(a).startswith("discard ") for a in game.legal_actions())


@pytest.mark.parametrize("rules, wanted, screen, contrast", [
    pytest.param("dummy", from_dummy, PHONE, False, id="dummy-phone"),
    pytest.param("double_dummy", from_dummy, PHONE, False, id="double_dummy-phone"),
    pytest.param("bid", kitty, PHONE, False, id="bid-kitty-phone"),
    pytest.param("dummy", from_dummy, PHONE, True, id="dummy-phone-high-contrast"),
    pytest.param("bid", kitty, PHONE, True, id="bid-kitty-phone-high-contrast"),
    pytest.param("dummy", from_dummy, DESKTOP, False, id="dummy-desktop"),
    pytest.param("bid", kitty, DESKTOP, False, id="bid-kitty-desktop")])
def test_the_hand_to_play_from_is_first_and_in_view(rules, wanted, screen, contrast, make_user, new_page,
                                                    live_server, fast_polls):
    """Playing the dummy's card: the status says "Play from dummy (N)", the dummy's cards
    are first, right under the table, and the player's own cards rest below them; taking
    the kitty (bid whist's declarer): the hand and the kitty in view, every card to put away."""
    from .test_play import fetched

    me = make_user("declarer", first_name="Dora")
    if contrast:  # the display preference's high contrast: bigger cards, the same one screen
        from drive.play.services.display import set_display

        set_display(actor=me, high_contrast=True)
    page = signed_in(new_page, live_server, me, "declarer")
    page.set_viewport_size(screen)
    quick_pace(page)
    open_a_table(page, rules)
    table_id = int(page.url.rstrip("/").split("/")[-1])
    fetched(lambda: steer(table_id, wanted))
    page.reload()
    wait_until(page, lambda: my_turn(page), "my turn")
    name = f"{'variant' if screen == PHONE else 'desktop'}-{rules}-{wanted.__name__}{'-contrast' if contrast else ''}"
    sources = check_the_screen(page, f"{rules} {wanted.__name__}", lambda _: name)
    if wanted is from_dummy:
        assert sources and all(s.startswith("dummy-") for s in sources), sources
        status = page.locator("#play-status .turn.from-dummy")
        assert status.inner_text().startswith("Play from dummy ("), status.inner_text()
        dummy = page.locator("#play-hand-box .open-hand.acting").bounding_box()
        mine = page.locator("#play-hand").bounding_box()
        assert dummy["y"] < mine["y"] or dummy["x"] != mine["x"], (dummy, mine)  # the dummy's cards first
        assert page.locator("#play-hand.resting").count() == 1
        assert page.locator("#play-table .place.dummy.to-act").count() == 1
    else:
        assert {"mine", "kitty"} <= sources, sources  # the hand's cards and the kitty's, all in view
    seats_are_named(page, rules)
    play_the_first_hand(page, rules, "variant" if screen == PHONE else "desktop")
