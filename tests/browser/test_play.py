"""Online play in real Chromium (issue 14): four people at one table play a whole hand by
clicks; one person and three robots play whole games of short whist, bid whist and
Siberian whist, and the score sheet on the page is the engine's. The test server is
WSGI, so the pages run on their fallback (polling the view); the websocket has its own
tests (tests/play/test_websocket.py). Robots move in-process (eager Celery)."""
import pytest
from django.test import Client

from drive.games.models import PlayTable
from drive.games.services import tables
from engine import replay_game

from .conftest import settle, waiting, wait_until
from .test_screen import in_thread

PLAY = "#play"
LEGAL = "#play button[data-action]:not([disabled])"
# Seeds (the seeded_deals fixture) whose games, played by the first legal action against
# rules robots, end in few deals: short whist 2, bid whist 2, Siberian 9 (of seeds 1-26
# tried; random deals took 9 to 23).
SHORT_GAMES = {"short": 8, "bid": 4, "siberian": 7}


@pytest.fixture
def fast_polls(settings):
    settings.PLAY_POLL_MS = 250
    settings.PLAY_ROBOT_DELAY = (0, 0)


def signed_in(new_page, live_server, user, name):
    client = Client()
    client.force_login(user)
    page = new_page(name)
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                               "url": live_server.url}])
    return page


def version(page):
    return int(page.locator(PLAY).get_attribute("data-version") or -1)


def play_one(page):
    """Click the first action the page offers (a card, or the first call) and wait for
    the table to move on past it."""
    before = version(page)
    page.locator(LEGAL).first.click()
    wait_until(page, lambda: version(page) > before, "the table to move on")


def my_turn(page):
    return page.locator(f"{PLAY}.my-turn").count() > 0 and page.locator(LEGAL).count() > 0


def fetched(work):
    """The value of database work run in a thread of its own (its own connection)."""
    box = []
    in_thread(lambda: box.append(work()))
    return box[0]


def score_of(table_id):
    table = PlayTable.objects.get(pk=table_id)
    return replay_game(table.record).score(), table.finished_at


def assert_sheet_is_the_engines(page, table_id):
    score, finished = fetched(lambda: score_of(table_id))
    sheet = page.locator("#play-score").inner_text()
    assert finished is not None
    assert score["winner"] in ("NS", "EW", "N", "E", "S", "W")
    assert "Winner:" in sheet
    side = {"NS": "N-S", "EW": "E-W"}.get(score["winner"], score["winner"])
    assert f"Winner: {side}" in sheet
    for line in ("below", "above", "totals", "net"):
        for key, value in (score.get(line) or {}).items():
            assert str(value) in sheet, f"{line} {key} {value} not on the sheet:\n{sheet}"
    for game in score.get("games") or []:
        for line in ("below", "above"):
            for value in game[line].values():
                assert str(value) in sheet


def next_hand(page):
    """Tap "Next hand" (a hand's end stays until it is tapped or a few seconds pass): the
    page may move on by itself meanwhile, then there is nothing to tap."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.locator("#play-next-hand").click(timeout=2_000)
    except PlaywrightTimeout:
        pass


def quick_pace(page):
    """The page's human pace (issue 20) cut to a twentieth: a test of the rules and the flow,
    not of the pace (test_play_pace.py holds the page to its real minimums)."""
    page.add_init_script("window.PLAY_PACE_SCALE = 0.05;")


def play_to_the_end(page, table_id, ms=600_000):
    """Every turn of mine played, and each hand's end passed, until the game is over: a
    whole game's hang bound (a Siberian game of nine deals took 100 s in a loaded run)."""
    for _ in waiting(ms):
        if page.locator(PLAY).get_attribute("data-phase") == "over":
            return
        if my_turn(page):
            play_one(page)
        elif page.locator("#play-next-hand").is_visible():
            next_hand(page)
        else:
            settle(page)
    raise AssertionError("the game did not end")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_four_people_play_a_whole_hand_by_clicks(make_user, new_page, live_server, fast_polls, shoot):
    from playwright.sync_api import expect

    people = {seat: make_user(f"p{seat}", first_name=name, last_name="Player")
              for seat, name in zip("NESW", ("Nora", "Evan", "Sam", "Wendy"))}
    table = tables.create_table(user=people["N"], rules="short", robots={})
    for seat in "ESW":
        tables.take_seat(user=people[seat], table_id=table.pk, seat=seat, invite=table.invite)
    pages = {seat: signed_in(new_page, live_server, people[seat], seat) for seat in "NESW"}
    for page in pages.values():
        page.goto(f"/play/{table.pk}/")
        expect(page.locator("#play-hand .pcard")).to_have_count(13)
    shoot(pages["N"], "play-hand-start-north")
    played = 0
    while played < 52:
        # each page hears every card: North's changes when the mover's do
        movers = wait_until(pages["N"], lambda: [s for s, p in pages.items() if my_turn(p)], "a player's turn")
        assert len(movers) == 1, movers
        page = pages[movers[0]]
        if played == 5:
            # the cards that may not be played look so (following suit) and cannot be clicked
            illegal = page.locator("#play-hand button.illegal")
            if illegal.count():
                assert illegal.first.is_disabled()
            shoot(page, "play-hand-mid-trick")
        play_one(page)
        played += 1
    for seat, page in pages.items():
        expect(page.locator("#play-hands-played")).to_contain_text("Hands played: 1")
    record = fetched(lambda: PlayTable.objects.get(pk=table.pk).record)
    assert len(record["deals"][0]["actions"]) == 52
    shoot(pages["S"], "play-hand-next-deal-south")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("rules", ["short", "bid", "siberian"])
def test_one_person_and_three_robots_play_a_whole_game(rules, make_user, new_page, live_server, fast_polls,
                                                       seeded_deals, shoot):
    from playwright.sync_api import expect

    seeded_deals(SHORT_GAMES[rules])
    me = make_user("solo", first_name="Sol")
    page = signed_in(new_page, live_server, me, "solo")
    quick_pace(page)
    page.goto("/play/")
    page.select_option("#rules", rules)
    for seat in "ESW":
        page.select_option(f"#robot-{seat}", "rules")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url("**/play/*/")
    table_id = int(page.url.rstrip("/").split("/")[-1])
    wait_until(page, lambda: version(page) >= 0, "the table's view")
    shoot(page, f"play-{rules}-start")
    page.reload()  # a reload resumes exactly where the table is
    play_to_the_end(page, table_id)
    expect(page.locator("#play-status")).to_contain_text("Game over")
    assert_sheet_is_the_engines(page, table_id)
    shoot(page, f"play-{rules}-over")
    page.goto(f"/play/{table_id}/hands/")
    expect(page.locator(".history-hand").first).to_be_visible()
    shoot(page, f"play-{rules}-hands")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_creator_fills_open_and_silent_seats_from_the_page(make_user, new_page, live_server, fast_polls):
    """The table page's seat controls (the creator's): a strong robot in an open seat, a
    silent player's seat (shown as played by a stand-in robot) offered to a substitute by
    user name, who sits once they accept it on the lobby page; the answer is the same for
    a name nobody has; a player who is not the creator has no controls."""
    from playwright.sync_api import expect

    me, friend = make_user("host"), make_user("friend")
    sub = make_user("sub", first_name="Sophie", last_name="Sub")
    table = tables.create_table(user=me, rules="short", robots={"W": "rules"})
    tables.take_seat(user=friend, table_id=table.pk, seat="E", invite=table.invite)
    PlayTable.objects.get(pk=table.pk).seats.filter(seat="E").update(standin=True)  # E is silent
    page = signed_in(new_page, live_server, me, "host")
    page.goto(f"/play/{table.pk}/")
    controls = page.locator("#play-manage")
    expect(page.locator(".place[data-seat='E'] .tag.standin")).to_be_visible()
    expect(controls.locator(".manage-seat")).to_have_count(2)  # S open, E silent; W is a robot, N is mine
    controls.locator(".manage-seat[data-seat='S'] button[data-manage-robot='strong']").click()
    expect(page.locator(".place[data-seat='S'] .tag.robot")).to_have_text("strong robot")
    expect(controls.locator(".manage-seat")).to_have_count(1)
    controls.locator("#play-substitute-E").fill("nobody-here")
    controls.locator(".manage-seat[data-seat='E'] button[type=submit]").click()
    expect(controls.locator(".notice")).to_have_text("If nobody-here plays here, they were offered seat E.")
    controls.locator("#play-substitute-E").fill("sub")
    controls.locator(".manage-seat[data-seat='E'] button[type=submit]").click()
    expect(controls.locator(".notice")).to_have_text("If sub plays here, they were offered seat E.")
    expect(page.locator(".place[data-seat='E'] .tag.standin")).to_be_visible()  # offered, not yet taken
    guest = signed_in(new_page, live_server, sub, "sub")
    guest.goto("/play/")
    guest.locator(".my-offers button[type=submit]").click()  # Accept
    expect(guest.locator(PLAY)).to_be_visible()
    expect(page.locator(".place[data-seat='E'] .who")).to_have_text("Sophie Sub")
    expect(page.locator(".place[data-seat='E'] .tag.standin")).to_have_count(0)
    expect(controls.locator(".manage-seat")).to_have_count(0)
    seats = {s.seat: (s.robot, s.user.username if s.user else None) for s in PlayTable.objects.get(pk=table.pk).seats.all()}
    assert seats == {"N": ("", "host"), "E": ("", "sub"), "S": ("strong", None), "W": ("rules", None)}
    other = signed_in(new_page, live_server, friend, "friend")
    other.goto(f"/play/{table.pk}/?invite={table.invite}")
    expect(other.locator(PLAY)).to_be_visible()
    assert other.locator("#play-manage").count() == 0


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_bid_whist_calls_are_rows_by_level_on_a_phone_and_by_keyboard(make_user, new_page, live_server, fast_polls,
                                                                      shoot):
    """Bid whist's first call offers 22 calls: on a 390 px phone they are Pass, then one
    row per level (1 to 7) of uptown, downtown and no trump in the same columns, all
    inside the screen; arrows move along and between the rows and Enter makes the call."""
    from playwright.sync_api import expect

    me = make_user("bidder", first_name="Bea")
    table = tables.create_table(user=me, rules="bid", robots={})

    def seat_me_first():  # I sit where the auction starts, robots elsewhere
        from drive.games.models import PlaySeat
        first = replay_game(PlayTable.objects.get(pk=table.pk).record).to_act
        PlaySeat.objects.filter(table=table).update(user=None, robot="rules", last_seen=None)
        PlaySeat.objects.filter(table=table, seat=first).update(user=me, robot="")
        return first

    first = fetched(seat_me_first)
    page = signed_in(new_page, live_server, me, "bidder")
    page.goto(f"/play/{table.pk}/")
    calls = page.locator("#play-call-buttons")
    expect(calls.locator("button[data-action]")).to_have_count(22)
    levels = calls.locator(".call-group-level")
    expect(levels).to_have_count(7)
    assert calls.locator(".call-group").first.locator("button").get_attribute("data-action") == "pass"
    shoot(page, "play-bid-calls-phone")
    width = page.viewport_size["width"]
    for n in range(7):
        row = levels.nth(n)
        assert row.locator(".call-level").inner_text() == str(n + 1)
        buttons = [row.locator("button").nth(i) for i in range(3)]
        assert [b.get_attribute("data-action") for b in buttons] == [f"{n + 1} uptown", f"{n + 1} downtown",
                                                                      f"{n + 1} NT"]
        boxes = [b.bounding_box() for b in buttons]
        assert len({round(b["y"]) for b in boxes}) == 1, boxes  # side by side
        assert all(b["x"] >= 0 and b["x"] + b["width"] <= width and b["height"] >= 40 for b in boxes)
    shoot(page, "play-bid-calls-phone")
    page.get_by_role("button", name="1 uptown").focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    assert page.locator("#play-call-buttons button:focus").get_attribute("data-action") == "2 downtown"
    before = version(page)
    page.keyboard.press("Enter")
    wait_until(page, lambda: version(page) > before, "the call to be made")
    expect(page.locator("#play-auction-list")).to_contain_text("2")
    calls_made = fetched(lambda: list(PlayTable.objects.get(pk=table.pk).actions.filter(seat=first)
                                      .values_list("action", flat=True)))
    assert calls_made[0] == "2 downtown"
    page.set_viewport_size({"width": 1280, "height": 900})
    shoot(page, "play-bid-calls-desktop")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_play_answered_after_the_robots_moves_gives_the_cards_back(make_user, new_page, live_server, fast_polls):
    """The robots move as the play commits, so the socket (here a poll) may bring their
    moves before the play's own answer: that older answer must still end "sending" and
    give the cards back at once, not leave them held on the player's turn until some
    later message (with a socket, none comes)."""
    me = make_user("late")
    table = tables.create_table(user=me, rules="short", robots={"E": "rules", "S": "rules", "W": "rules"}, seat="N")
    page = signed_in(new_page, live_server, me, "late")
    late, quiet = [], []  # the play's answer, held back; then the polls, left hanging
    fetch_failed = []  # the held answer's fetch, had it failed (said if the wait below gives up)

    def hold_the_answer(route):
        try:
            late.append((route, route.fetch()))
        except Exception as exc:
            fetch_failed.append(repr(exc))
            raise

    def poll(route):
        if quiet and route.request.method == "GET":
            quiet.append(route)  # never answered, as a quiet socket sends nothing
            return
        route.continue_()

    page.route("**/api/play/tables/*/", poll)
    page.route("**/api/play/tables/*/actions/", hold_the_answer)
    page.goto(f"/play/{table.pk}/")
    wait_until(page, lambda: my_turn(page), "my turn")
    before = version(page)
    page.locator(LEGAL).first.click()

    def robots_done():  # a poll brought the robots' moves, back to me, while my play is still out
        return (late and version(page) > late[0][1].json()["version"]
                and page.locator(PLAY).get_attribute("data-to-act") == "N")

    try:
        wait_until(page, robots_done, "the robots' moves by a poll")
    except AssertionError as exc:  # once in a loaded pass 1: say what the page and the route saw
        seen = {"answers held": len(late), "fetch failed": fetch_failed,
                "answer's version": late[0][1].json()["version"] if late else None,
                "page": {k: page.locator(PLAY).get_attribute(k) for k in ("data-version", "data-to-act", "class",
                                                                           "data-queued")},
                "live": page.locator("html").get_attribute("data-live"),
                "table": fetched(lambda: PlayTable.objects.values("version", "phase").get(pk=table.pk)),
                "before": before}
        raise AssertionError(f"{exc}: {seen}") from None
    assert not my_turn(page)  # the cards are held while the play is being sent
    quiet.append(None)
    page.wait_for_timeout(300)  # polls already answered land first
    route, response = late[0]
    route.fulfill(response=response)  # the play's own answer, older than the page's view
    wait_until(page, lambda: my_turn(page), "the cards given back on my turn")
    assert version(page) > before + 1 and "sending" not in (page.locator(PLAY).get_attribute("class") or "")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("above_the_edge", [0.5, 3])
def test_a_card_drawn_under_a_resting_pointer_holds_still_and_takes_the_tap(above_the_edge, make_user, new_page,
                                                                             live_server, fast_polls):
    """A playable card lifts when hovered. When the hand is drawn again under a pointer
    resting on a card's lower edge (where the last card tapped was, before the rows moved),
    the lifted card must still count as under the pointer: otherwise it drops, is hovered
    again and lifts, every frame, and a tap never lands on the flickering card (what made
    a whole game time out in CI)."""
    from drive.games.models import PlaySeat

    me = make_user("rester")
    table = tables.create_table(user=me, rules="short", robots={})

    def seat_me_first():  # I am to act; the other seats stay open
        first = replay_game(PlayTable.objects.get(pk=table.pk).record).to_act
        PlaySeat.objects.filter(table=table).update(user=None, robot="", last_seen=None)
        PlaySeat.objects.filter(table=table, seat=first).update(user=me)
        return first

    first = fetched(seat_me_first)
    page = signed_in(new_page, live_server, me, "rester")
    page.goto(f"/play/{table.pk}/")
    wait_until(page, lambda: my_turn(page), "my turn")
    card = page.locator(LEGAL).first
    card.scroll_into_view_if_needed()
    box = card.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - above_the_edge)
    open_seat = next(s for s in "NESW" if s != first)
    fetched(lambda: tables.seat_robot(user=me, table_id=table.pk, seat=open_seat, robot="rules"))  # the page draws itself again
    page.locator(f".place[data-seat='{open_seat}'] .tag.robot").wait_for()
    before = version(page)
    card.click(timeout=5_000)
    wait_until(page, lambda: version(page) > before, "the card to be played")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_hand_history_link_is_a_thumb_sized_target_on_a_phone(make_user, new_page, live_server, fast_polls):
    me = make_user("thumb")
    page = signed_in(new_page, live_server, me, "thumb")
    page.goto("/play/")
    for seat in "ESW":
        page.select_option(f"#robot-{seat}", "rules")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url("**/play/*/")
    box = page.get_by_role("link", name="Hand history").bounding_box()
    assert box["height"] >= 44, box
