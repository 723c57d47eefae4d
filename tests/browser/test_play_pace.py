"""The table page at a human pace whatever the server (issue 20): on the embedded default
(eager Celery drops the robots' countdown: their cards reach the page all at once) the
page still shows a robot's card at least PACE.card after the card before it, a finished
trick at least PACE.trick, a hand's last trick and result until "Next hand" or PACE.hand
pass; the end of a game says who won, the final score, and offers a new game with the same
seats. Only lower bounds, the ones the page enforces itself (its own record, the `data-pace`
attribute), are asserted: never an upper bound on speed."""
import json
import random

import pytest
from django.utils import timezone

from drive.games.models import PlaySeat, PlayTable
from drive.games.services import tables
from engine import replay_game
from engine.state import Phase

from .conftest import WORKER_WAIT_MS, settle, waiting, wait_until
from .test_play import LEGAL, PLAY, fetched, my_turn, signed_in, version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PACE = {"card": 400, "trick": 1000, "hand": 4000}  # drive/static/js/play.js
ORDER = "NESW"  # the deal and the play pass to the left


def left_of(seat):
    return ORDER[(ORDER.index(seat) + 1) % 4]


@pytest.fixture
def eager_robots(settings):
    settings.PLAY_POLL_MS = 250
    settings.PLAY_ROBOT_DELAY = (0, 0)  # as eager Celery plays them: no pause at all


def pace_of(page):
    return json.loads(page.locator(PLAY).get_attribute("data-pace") or "null")


def robots_around(me, table, seat):
    """`me` at `seat`, rules robots in the other seats (the last one seated wakes them)."""
    PlaySeat.objects.filter(table=table).update(user=None, robot="", last_seen=None)
    PlaySeat.objects.filter(table=table, seat=seat).update(user=me, last_seen=timezone.now())  # present
    for other in ORDER:
        if other != seat:
            tables.seat_robot(user=me, table_id=table.pk, seat=other, robot="rules")


def first_hand_played(page, me, table, seat):
    """Seat `me` among robots at `table`, open its page and play my cards until the first
    hand's result shows, or the game is over with it."""
    fetched(lambda: robots_around(me, table, seat))  # in a thread: Playwright holds this one's event loop
    page.goto(f"/play/{table.pk}/")
    result = page.locator("#play-hand-result")
    for _ in waiting(WORKER_WAIT_MS * 3):
        if result.is_visible() or page.locator(PLAY).get_attribute("data-phase") == "over":
            return result  # over: the game ended with its first hand (the caller deals again)
        if my_turn(page):
            before = version(page)
            page.locator(LEGAL).first.click()
            wait_until(page, lambda: version(page) > before or result.is_visible(), "my card on the table")
        else:
            settle(page)
    raise AssertionError(f"the hand did not end: {page.locator(PLAY).get_attribute('data-queued')} queued, "
                         f"{page.locator('#play-status').inner_text()}, {pace_of(page)}")


def test_robot_cards_tricks_and_a_hands_end_are_shown_at_a_human_pace(make_user, new_page, live_server,
                                                                        eager_robots, shoot):
    me = make_user("paced")
    page = signed_in(new_page, live_server, me, "paced")
    # Short whist to five ends in one hand when a side takes eleven tricks (a few deals in a
    # hundred): this test is about the second hand, so such a game is dealt again.
    for _ in range(4):
        table = tables.create_table(user=me, rules="short", robots={})
        dealer = table.record["deals"][0]["dealer"]
        # I sit where, in the second hand, two robots play before me: its first cards reach
        # the server with my last card of the first hand.
        leader2 = left_of(left_of(dealer))
        seat = left_of(left_of(leader2))
        result = first_hand_played(page, me, table, seat)
        if fetched(lambda: PlayTable.objects.get(pk=table.pk).finished_at) is None:
            break
    else:
        raise AssertionError("four games in a row ended in their first hand")
    # The hand is over: its last trick is on the table with its winner and the result, while
    # the server is already in the second hand with two robots' cards played.
    # The robots' cards are sent once my last card's answer is out (and, eagerly, after the
    # hand's review), so the server may be a moment behind the page: wait for them.
    def second_hand_started():
        deals = fetched(lambda: PlayTable.objects.get(pk=table.pk).record["deals"])
        return len(deals) == 2 and len(deals[1]["actions"]) >= 2

    wait_until(page, second_hand_started, "the second hand's first two robots' cards on the server")
    assert page.locator("#play-table .played .pcard").count() == 4
    assert page.locator("#play-table .played.winner").count() == 1
    # who took the last trick, on a line shown whole at the phone's 390 px (not cut short)
    cut, shown, said = page.locator("#play-table .trick-won").evaluate(
        "e => [e.scrollWidth > e.clientWidth, e.clientWidth, e.textContent]")
    assert said.endswith(" wins the trick") and shown > 0 and not cut, (said, shown)
    assert "Hand 1 is over" in result.inner_text() and "Next hand" in result.inner_text()
    shoot(page, "play-pace-hand-over")
    # Nobody taps "Next hand": the next deal shows by itself, its robots' cards one by one.
    wait_until(page, lambda: page.locator("#play-table .played .pcard").count() == 2 and my_turn(page),
               "the second hand's first two cards")
    record = pace_of(page)
    robots = [(a, b) for a, b in zip(record["cards"], record["cards"][1:]) if not b["own"]]
    assert len(robots) >= 30, record["cards"]
    for before, card in robots:
        assert card["at"] - before["at"] >= PACE["card"], (before, card)
    finished = [t for t in record["tricks"] if t["hidden"] is not None]
    assert len(finished) >= 12, record["tricks"]
    for trick in finished:
        assert trick["hidden"] - trick["at"] >= PACE["trick"], trick
    hand = record["hands"][0]
    assert hand["hidden"] is not None and hand["hidden"] - hand["at"] >= PACE["hand"], hand


def near_the_end(table_id):
    """The table's game moved on (robots' random cards, in the engine) to the last trick of
    a hand after which the game is over however it is played, North to play."""
    table = PlayTable.objects.get(pk=table_id)
    rng = random.Random(20)
    for _ in range(200):
        game = replay_game(table.record)
        while game.phase in (Phase.PLAY, Phase.SCORED):
            if game.phase == Phase.SCORED:
                game.deal(rng)
                continue
            if game.to_act == "N" and len(game.view("N")["hand"]) == 1 and ends_anyway(game):
                table.record = game.record()
                table.version += 1
                table.phase = str(game.phase)
                table.save(update_fields=["record", "version", "phase"])
                return
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("no game found ending in one trick")


def ends_anyway(game):
    for seed in range(12):
        trial, rng = game.copy(), random.Random(seed)
        while trial.phase == Phase.PLAY:
            trial.apply(rng.choice(trial.legal_actions()))
        if trial.phase != Phase.OVER:
            return False
    return True


def test_the_end_of_a_game_says_who_won_the_score_and_offers_a_new_game(make_user, new_page, live_server,
                                                                       eager_robots, shoot):
    from playwright.sync_api import expect

    me = make_user("ender")
    table = tables.create_table(user=me, rules="short", robots={"E": "rules", "S": "rules", "W": "rules"}, seat="N")
    wait_until_mine = fetched(lambda: replay_game(PlayTable.objects.get(pk=table.pk).record).to_act)
    assert wait_until_mine == "N"
    fetched(lambda: near_the_end(table.pk))
    page = signed_in(new_page, live_server, me, "ender")
    page.goto(f"/play/{table.pk}/")
    wait_until(page, lambda: my_turn(page), "my last card")
    page.locator(LEGAL).first.click()
    over = page.locator("#play-over")
    expect(over).to_be_visible(timeout=WORKER_WAIT_MS)
    score, finished = fetched(lambda: (replay_game(PlayTable.objects.get(pk=table.pk).record).score(),
                                      PlayTable.objects.get(pk=table.pk).finished_at))
    assert finished is not None and score["winner"] in ("NS", "EW")
    said = "You won" if score["winner"] == "NS" else "You lost"
    expect(over.locator(".result")).to_have_text(said)
    # What is shown (the screen reader's live region, #play-announce, says it once more).
    text = page.locator("body").inner_text().replace(page.locator("#play-announce").inner_text(), "")
    assert text.count("You won") + text.count("You lost") == 1, text
    assert text.count("Game over") == 1, text
    assert text.count("Winner:") <= 1, text
    totals = {side: score["below"][side] + score["above"][side] for side in ("NS", "EW")}
    expect(over.locator(".final-score")).to_have_text(f"Final score: N-S {totals['NS']} · E-W {totals['EW']}")
    page.set_viewport_size({"width": 390, "height": 844})
    shoot(page, "play-pace-game-over")
    page.locator("#play-new-game").click()
    page.wait_for_url(lambda url: url.rstrip("/").split("/")[-1] not in ("", str(table.pk), "play"))
    new_id = int(page.url.rstrip("/").split("/")[-1])
    expect(page.locator(PLAY)).to_be_visible()
    new = fetched(lambda: (PlayTable.objects.get(pk=new_id).rules,
                           {s.seat: (s.robot, s.user_id) for s in PlaySeat.objects.filter(table_id=new_id)}))
    rules, seats = new
    assert (rules if isinstance(rules, str) else rules.get("name")) == "short"
    assert seats == {"N": ("", me.pk), "E": ("rules", None), "S": ("rules", None), "W": ("rules", None)}
