"""The online table by keyboard alone and by ear (issue 20), at 390x844 in real Chromium:
a player with three rules robots plays a whole game of short whist with Tab, the arrow
keys, Enter and Space only (no click, no script moving the focus); the page's live region
says each card as it is shown, in the order the cards were played, each trick's winner,
each hand's result and "Your turn"; and the four-colour deck and high contrast chosen on
the page are kept for the person: after a reload and in another browser signed in as them.
"""
import json
import re

import pytest

from drive.games.models import PlayTable
from drive.play.selectors.display import display_of
from drive.play.selectors.history import hand_story
from drive.games.selectors.tables import hand_records
from drive.games.services import tables

from .conftest import WORKER_WAIT_MS, settle, waiting, wait_until
from .test_play import LEGAL, PLAY, SHORT_GAMES, fast_polls, fetched, my_turn, quick_pace, signed_in, version  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROBOTS = {"E": "rules", "S": "rules", "W": "rules"}
NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
FOCUSED_CARD = "#play-hand-box button[data-card]:focus"
FOCUSED_LEGAL = "#play-hand-box button.legal:focus"

# Every line the live region gets, and every element that gets the focus, kept in the
# page's <html> as JSON (read as attributes: nothing evaluated in the page).
LISTEN = """
(() => {
  const said = [], focus = [];
  document.addEventListener("DOMContentLoaded", () => {
    const box = document.getElementById("play-announce");
    if (!box) return;
    new MutationObserver((changes) => {
      changes.forEach((c) => c.addedNodes.forEach((n) => said.push(n.textContent)));
      document.documentElement.setAttribute("data-said", JSON.stringify(said));
    }).observe(box, {childList: true});
  });
  document.addEventListener("focusin", (e) => {
    const t = e.target;
    focus.push(t.id || t.getAttribute("data-card") || t.tagName.toLowerCase());
    document.documentElement.setAttribute("data-focus", JSON.stringify(focus));
  });
})();
"""


def card_words(card):
    return f"{RANKS.get(card[0], card[0])} of {SUITS[card[1]]}"


def said(page):
    return json.loads(page.locator("html").get_attribute("data-said") or "[]")


def focus_log(page):
    return json.loads(page.locator("html").get_attribute("data-focus") or "[]")


def focused(page, selector):
    return page.locator(selector).count() > 0


def tab_into_the_hand(page, limit=40):
    for _ in range(limit):
        page.keyboard.press("Tab")
        if focused(page, "#play-hand-box:focus") or focused(page, FOCUSED_CARD):
            return
    raise AssertionError(f"Tab never reached the hand: {focus_log(page)}")


def hands_of(table_id):
    """Each finished hand's tricks as the engine played them: [(seat, card), ...] a trick."""
    table = PlayTable.objects.get(pk=table_id)
    return [[[(p["seat"], p["card"]) for p in t["cards"]] + [("winner", t["winner"])]
             for t in hand_story(item["record"])["tricks"]] for item in hand_records(table)]


def play_a_game_by_keyboard(page, shoot, look_away):
    """Play the game on the page to its end by keyboard only, the focus already in the hand:
    Enter or Space on the focused card (the arrows choose another), Enter on "Next hand"
    when it has the focus. `look_away`: once, Shift+Tab away while the robots play, and
    the focus must stay there when the turn comes, until Tab brings it back to the hand."""
    played, next_pressed = 0, 0
    for _ in waiting(WORKER_WAIT_MS * 10):
        if page.locator(PLAY).get_attribute("data-phase") == "over":
            return {"played": played, "next_pressed": next_pressed}
        if focused(page, "#play-next-hand:focus"):
            page.keyboard.press("Enter")
            next_pressed += 1
            continue
        if not my_turn(page):
            settle(page)
            continue
        # The turn comes with the focus on a playable card (the redraw puts it there).
        wait_until(page, lambda: focused(page, FOCUSED_LEGAL) or not my_turn(page), "the focus on a playable card")
        if not my_turn(page):
            continue
        if page.locator("#play-hand-box button.legal").count() > 1:  # the arrows move among the playable cards
            first = page.locator(FOCUSED_CARD).get_attribute("data-card")
            page.keyboard.press("ArrowRight")
            assert focused(page, FOCUSED_LEGAL)
            assert page.locator(FOCUSED_CARD).get_attribute("data-card") != first
            if played % 3 == 0:
                page.keyboard.press("ArrowLeft")
                assert page.locator(FOCUSED_CARD).get_attribute("data-card") == first
        before = version(page)
        page.keyboard.press("Space" if played % 2 else "Enter")
        # (a hand's end holds the last trick and Next hand before the next deal's view comes)
        wait_until(page, lambda: version(page) > before or focused(page, "#play-next-hand:focus"), "my card played")
        played += 1
        if look_away and played == 3:
            page.keyboard.press("Shift+Tab")  # to the Display control
            away = focus_log(page)[-1]
            assert away != "play-hand-box" and not focused(page, FOCUSED_CARD), focus_log(page)
            wait_until(page, lambda: my_turn(page), "my turn again")
            page.wait_for_timeout(300)  # a few redraws (polls) of my turn
            assert focus_log(page)[-1] == away, f"the focus was moved: {focus_log(page)}"
            assert not focused(page, FOCUSED_CARD)
            page.keyboard.press("Tab")
            assert focused(page, FOCUSED_LEGAL), f"Tab from {away} did not reach a playable card"
        if played == 13:
            shoot(page, "play-keyboard-first-hand-done")
    raise AssertionError(f"the game did not end: {page.locator('#play-status').inner_text()}")


def assert_all_was_said(page, table_id, on_the_table):
    """The live region said every card as shown, in the order played (less the cards on the
    table before the page opened), each trick's winner, each hand's result, the game's,
    and "Your turn: play a card" once before each of my cards."""
    hands = fetched(lambda: hands_of(table_id))
    assert hands
    lines = said(page)
    expected_cards, expected_winners = [], []
    for hand in hands:
        for trick in hand:
            for seat, card in trick[:-1]:
                expected_cards.append(f"You played {card_words(card)}" if seat == "N"
                                      else f"{NAMES[seat]} played {card_words(card)}")
            expected_winners.append(f"{NAMES[trick[-1][1]]} wins the trick")
    cards_said = [line for line in lines if re.fullmatch(r"(You|North|East|South|West) played .+", line)]
    assert cards_said == expected_cards[on_the_table:]
    assert [line for line in lines if line.endswith(" wins the trick")] == expected_winners
    results = [line for line in lines if re.fullmatch(r"Hand \d+ is over\. Tricks: N-S \d+ · E-W \d+\. "
                                                      r"Points this hand: .+\.", line)]
    assert [line for line in lines if line.startswith("Hand ")] == results
    assert len(results) == len(hands)
    assert re.fullmatch(r"Game over\. You (won|lost)\. Final score: N-S \d+ · E-W \d+\.", lines[-1]), lines[-3:]
    turns = [i for i, line in enumerate(lines) if line == "Your turn: play a card"]
    mine = [i for i, line in enumerate(lines) if line.startswith("You played ")]
    assert len(turns) == len(mine) == 13 * len(hands)
    assert all(t < m for t, m in zip(turns, mine))
    assert all(mine[k - 1] < turns[k] for k in range(1, len(turns)))
    return hands


def test_whole_games_by_keyboard_alone_and_every_card_said(make_user, new_page, live_server, fast_polls, seeded_deals,
                                                          shoot):
    seeded_deals(SHORT_GAMES["short"])  # a first game of two hands: "Next hand" pressed once, then "New game"
    me = make_user("keys", first_name="Kay")
    table = tables.create_table(user=me, rules="short", robots=ROBOTS)  # me at N, three rules robots
    page = signed_in(new_page, live_server, me, "keys")
    # The page's pace cut (as quick_pace does) to a quarter, not a twentieth: a hand's result
    # and its "Next hand" stay a second, long enough for a keyboard player to press it.
    page.add_init_script("window.PLAY_PACE_SCALE = 0.25;")
    page.add_init_script(LISTEN)
    page.goto(f"/play/{table.pk}/")
    table_id, next_pressed, games = table.pk, 0, []
    for game in range(3):  # until "Next hand" was pressed once: a game may end in one hand
        wait_until(page, lambda: version(page) >= 0, "the table's view")
        on_the_table = len(json.loads(page.locator("#play-view").text_content())["trick"])  # before the page
        tab_into_the_hand(page)  # the first Tab into the page, and from here the keyboard only
        if not my_turn(page):
            assert focused(page, "#play-hand-box:focus"), "while the robots play, the hand itself is the Tab stop"
        done = play_a_game_by_keyboard(page, shoot, look_away=game == 0)
        assert done["played"] >= 13
        next_pressed += done["next_pressed"]
        # "Next hand" after each hand but the game's last, and "New game" at the end, get the focus.
        wait_until(page, lambda: focused(page, "#play-new-game:focus"), "the focus on New game")
        hands = assert_all_was_said(page, table_id, on_the_table)
        assert focus_log(page).count("play-next-hand") >= len(hands) - 1, focus_log(page)
        games.append({"hands": len(hands), "next_pressed": done["next_pressed"],
                      "next_focused": focus_log(page).count("play-next-hand")})
        if game == 0:
            shoot(page, "play-keyboard-game-over")
        # New game, by Enter on the focused button: the same seats at a new table.
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(rf".*/play/(?!{table_id}/)\d+/$"))
        table_id = int(page.url.rstrip("/").split("/")[-1])
        if next_pressed:
            break
    assert next_pressed >= 1, f"no Next hand pressed in three games: {games}"


def auction_calls(table_id):
    """The first deal's calls in its auction, as the page words them ("East: 4 uptown")."""
    from drive.play.views.pages import call_words

    record = PlayTable.objects.get(pk=table_id).record
    story = hand_story({"rules": record["rules"], "deals": record["deals"][:1]})
    return [f"{NAMES[c['seat']]}: {call_words(c['call'])}" for c in story["calls"] if c["phase"] == "auction"]


def test_the_calls_of_an_auction_are_said_and_made_by_keyboard(make_user, new_page, live_server, fast_polls):
    me = make_user("caller")
    table = tables.create_table(user=me, rules="bid", robots=ROBOTS)
    page = signed_in(new_page, live_server, me, "caller")
    quick_pace(page)
    page.add_init_script(LISTEN)
    page.goto(f"/play/{table.pk}/")
    wait_until(page, lambda: version(page) >= 0, "the table's view")
    before = len(json.loads(page.locator("#play-view").text_content())["auction"])  # called before the page
    calls = "#play-call-buttons button[data-action]"
    for _ in range(60):  # the first Tab into the page, then the keyboard only
        page.keyboard.press("Tab")
        if focused(page, f"{calls}:focus") or focused(page, "#play-hand-box:focus"):
            break
    else:
        raise AssertionError(f"Tab never reached the calls or the hand: {focus_log(page)}")
    def calling():  # my turn, and what is asked is a call (a bid, or the trump once I won it)
        return my_turn(page) and page.locator(calls).count() > 0

    made = 0
    for _ in waiting(WORKER_WAIT_MS):
        if page.locator(PLAY).get_attribute("data-phase") != "auction" and not calling():
            break
        if calling():
            wait_until(page, lambda: focused(page, f"{calls}:focus"), "the focus on a call")
            page.keyboard.press("ArrowDown")  # from Pass to the lowest bids' row (the dealer may not pass)
            assert focused(page, f"{calls}:focus")
            was = version(page)
            page.keyboard.press("Enter")
            wait_until(page, lambda: version(page) > was, "my call")
            made += 1
        else:
            settle(page)
    wait_until(page, lambda: page.locator(PLAY).get_attribute("data-phase") != "auction", "the auction's end")
    assert made >= 1
    lines = said(page)
    called = [line for line in lines if re.fullmatch(r"(North|East|South|West): .+", line)]
    assert called == fetched(lambda: auction_calls(table.pk))[before:]
    # Each of my turns said once, with what is asked: a call; the trump, or at no trump the
    # ranking, once I won the bid.
    assert lines.count("Your turn: make a call") >= 1
    asked = [line for line in lines
             if re.fullmatch(r"Your turn: (make a call|choose the trump|choose \((uptown|downtown)(, \w+)*\))", line)]
    assert len(asked) == made, lines


def a_table_with_both_red_suits(me):
    """A new table where my hand holds hearts and diamonds (a void in either is rare)."""
    for _ in range(20):
        table = tables.create_table(user=me, rules="short", robots=ROBOTS)
        hand = table.record["deals"][0]["hands"]["N"]
        if any(c[1] == "H" for c in hand) and any(c[1] == "D" for c in hand):
            return table
        tables.close_table(user=me, table_id=table.pk)
    raise AssertionError("no hand with hearts and diamonds in 20 deals")


def colour(page, suit):
    return page.locator(f"#play-hand .pcard.suit-{suit} .pip").first.evaluate("e => getComputedStyle(e).color")


def saved(page):
    return json.loads(page.locator("#play-display-form").get_attribute("data-saved") or "{}")


def test_the_four_colour_deck_and_high_contrast_are_kept_for_the_person(make_user, new_page, live_server,
                                                                        fast_polls, shoot):
    from playwright.sync_api import expect

    me = make_user("colours")
    table = fetched(lambda: a_table_with_both_red_suits(me))
    page = signed_in(new_page, live_server, me, "first")
    quick_pace(page)
    page.goto(f"/play/{table.pk}/")
    expect(page.locator("#play-hand .pcard.suit-D").first).to_be_visible()
    assert colour(page, "D") == colour(page, "H")  # the usual deck: both red
    page.get_by_text("Display", exact=True).click()
    four = page.get_by_label("Four-colour deck")
    contrast = page.get_by_label("High contrast")
    for box in (four, contrast):  # 44 px targets (the label around each box)
        target = page.locator("label.display-choice", has=box).bounding_box()
        assert target["height"] >= 44, target
    four.check()
    wait_until(page, lambda: saved(page).get("four_colour") is True, "the four-colour deck stored")
    assert "deck-four" in page.locator(PLAY).get_attribute("class")
    assert colour(page, "D") != colour(page, "H")
    shown = {suit: colour(page, suit) for suit in "SHDC" if page.locator(f"#play-hand .pcard.suit-{suit}").count()}
    if "C" in shown:  # clubs apart from every other suit in the hand (a void in spades asks nothing of them)
        assert shown["C"] not in [c for suit, c in shown.items() if suit != "C"], shown
    shoot(page, "play-deck-four-colour")
    contrast.check()
    wait_until(page, lambda: saved(page) == {"four_colour": True, "high_contrast": True}, "high contrast stored")
    assert fetched(lambda: display_of(user=me)) == {"four_colour": True, "high_contrast": True}

    mine = 0  # my cards played on the way to a turn where some may not be played (following suit)
    for _ in waiting(WORKER_WAIT_MS):
        if my_turn(page) and page.locator("#play-hand button.illegal").count() or mine == 12:
            break
        if my_turn(page):
            before = version(page)
            page.locator(LEGAL).first.click()
            wait_until(page, lambda: version(page) > before, "my card played")
            mine += 1
        else:
            settle(page)
    illegal = page.locator("#play-hand button.illegal").first
    if illegal.count():  # high contrast: striped and struck through, never faded
        assert illegal.evaluate("e => getComputedStyle(e).opacity") == "1"
        assert "line-through" in illegal.locator(".rank").evaluate("e => getComputedStyle(e).textDecorationLine")
    shoot(page, "play-deck-high-contrast")

    page.reload()
    expect(page.locator(PLAY)).to_have_class(re.compile(r"\bdeck-four\b.*\bhigh-contrast\b"))
    page.get_by_text("Display", exact=True).click()
    expect(page.get_by_label("Four-colour deck")).to_be_checked()
    expect(page.get_by_label("High contrast")).to_be_checked()
    assert colour(page, "D") != colour(page, "H")

    other = signed_in(new_page, live_server, me, "second")  # another browser, the same person
    other.goto(f"/play/{table.pk}/")
    expect(other.locator(PLAY)).to_have_class(re.compile(r"\bdeck-four\b.*\bhigh-contrast\b"))
    expect(other.locator("#play-hand .pcard.suit-D").first).to_be_visible()
    assert colour(other, "D") != colour(other, "H")
    other.goto(f"/play/{table.pk}/hands/")
    expect(other.locator("section.hand-history")).to_have_class(re.compile(r"\bdeck-four\b.*\bhigh-contrast\b"))

    # Turned off again in the second browser: the first one's next page load follows.
    other.goto(f"/play/{table.pk}/")
    other.get_by_text("Display", exact=True).click()
    other.get_by_label("Four-colour deck").uncheck()
    wait_until(other, lambda: saved(other) == {"four_colour": False, "high_contrast": True}, "the change stored")
    page.reload()
    expect(page.locator(PLAY)).not_to_have_class(re.compile(r"\bdeck-four\b"))
    expect(page.locator(PLAY)).to_have_class(re.compile(r"\bhigh-contrast\b"))
    assert colour(page, "D") == colour(page, "H")
