"""One tap to play, in real Chromium on a phone (390x844): a signed-in player goes from
`/` to a game of short whist with three robots in at most two taps (the navigation, or
the home page's Play now), and nothing sticks out sideways on the home page."""
import pytest

from drive.games.models import PlayTable

from .test_play import fast_polls, signed_in  # noqa: F401  (fixture reused)


@pytest.mark.parametrize("path", ["home", "nav"])
def test_from_home_to_a_game_in_at_most_two_taps(path, make_user, new_page, live_server, fast_polls):  # noqa: F811
    from playwright.sync_api import expect

    me = make_user("tapper", first_name="Tess")
    page = signed_in(new_page, live_server, me, "tapper")
    page.goto("/")
    assert page.viewport_size == {"width": 390, "height": 844}
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    taps = 0
    if path == "nav":
        page.locator("header nav").get_by_role("link", name="Play online").click()  # tap 1
        taps += 1
        page.wait_for_url("**/play/")
    button = page.get_by_role("button", name="Play now")
    expect(button).to_be_visible()
    button.click()  # tap 1 (or 2)
    taps += 1
    page.wait_for_url("**/play/*/")
    assert taps <= 2
    expect(page.locator("#play-hand .pcard")).to_have_count(13)  # the game is on: my hand of 13
    table = PlayTable.objects.get(created_by=me)
    assert table.rules == "short" and sorted(s.robot for s in table.seats.all()) == ["", "rules", "rules", "rules"]
