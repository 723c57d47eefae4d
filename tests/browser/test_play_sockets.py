"""The table page when its socket is closed (drive/static/js/play.js): on "try again" (4013:
the server's channel layer is down) it polls the REST view, the player still plays by
clicks, and it reconnects with a backoff; on "not allowed" (4403) it does not knock again
while the REST view refuses it too. The socket is Playwright's (route_web_socket): it closes
with the code under test, as the server does after its handshake."""
import pytest

from drive.games.models import PlayAction
from drive.games.services import tables

from .conftest import wait_until
from .test_play import fetched, my_turn, play_one, signed_in, version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table_of_four(make_user):
    people = {seat: make_user(f"p{seat}") for seat in "NESW"}
    table = tables.create_table(user=people["N"], rules="short", robots={})
    for seat in "ESW":
        tables.take_seat(user=people[seat], table_id=table.pk, seat=seat, invite=table.invite)
    return table, people


@pytest.fixture
def fast_polls(settings):
    settings.PLAY_POLL_MS = 250


def closing_with(page, code):
    """Every socket the page opens is closed with `code`; the list of their openings."""
    opened = []

    def route(socket):
        opened.append(socket.url)
        socket.close(code=code)

    page.route_web_socket("**/ws/play/**", route)
    return opened


def test_on_try_again_the_page_polls_plays_through_rest_and_reconnects(table_of_four, new_page, live_server,
                                                                       fast_polls):
    table, people = table_of_four
    pages = {}
    for seat in "NESW":
        pages[seat] = page = signed_in(new_page, live_server, people[seat], seat)
        opened = closing_with(page, 4013)
        if seat == "N":
            north = opened
        page.goto(f"/play/{table.pk}/")
    page = pages["N"]
    wait_until(page, lambda: page.locator("html[data-live=polling]").count() == 1, "the page to poll")
    wait_until(page, lambda: len(north) >= 3, "the page to knock again")  # with its backoff: 0.5-1.5 s, then 1-3 s
    assert page.locator("#play").get_attribute("data-socket-closed") == "4013"
    for _ in range(4):  # a trick played by clicks while no socket serves (REST and polls)
        movers = wait_until(page, lambda: [p for p in pages.values() if my_turn(p)], "a player's turn")
        play_one(movers[0])


def test_on_not_allowed_the_page_waits_for_the_rest_view_before_knocking_again(table_of_four, new_page,
                                                                             live_server, fast_polls):
    table, people = table_of_four
    page = signed_in(new_page, live_server, people["N"], "N")
    opened = closing_with(page, 4403)
    polls = []

    def refused(route):
        polls.append(route.request.url)
        route.fulfill(status=403, content_type="application/json", body='{"detail": "no"}')

    page.route(f"**/api/play/tables/{table.pk}/", refused)
    page.goto(f"/play/{table.pk}/")
    wait_until(page, lambda: len(polls) >= 8, "the page to poll")  # 2 s of polls: a try-again page knocks again in it
    assert len(opened) == 1
    page.unroute(f"**/api/play/tables/{table.pk}/")  # let in again (a seat taken, say)
    wait_until(page, lambda: len(opened) >= 2, "the page to knock again")


def test_without_a_socket_the_robots_replies_come_soon_after_a_play_not_at_the_next_poll(make_user, new_page,
                                                                                          live_server, settings):
    """A browser without websockets, and the interval poll ten minutes: only the page's
    follow-up after its own play can bring the robots' cards and the player's turn back;
    once it has, the page asks no more."""
    settings.PLAY_POLL_MS, settings.PLAY_ROBOT_DELAY = 600_000, (0, 0)
    me = make_user("solo")
    table = tables.create_table(user=me, rules="short", robots={"E": "rules", "S": "rules", "W": "rules"}, seat="N")
    page = signed_in(new_page, live_server, me, "solo")
    page.add_init_script("delete window.WebSocket;")
    views = []
    page.on("request", lambda request: request.method == "GET" and request.url.endswith(f"/api/play/tables/{table.pk}/")
            and views.append(request.url))
    page.goto(f"/play/{table.pk}/")
    wait_until(page, lambda: page.locator("html[data-live=polling]").count() == 1, "the page to poll")
    answered = 0
    for _ in range(13):  # three plays answered by robots' cards (the POST's answer predates them)
        wait_until(page, lambda: my_turn(page), "my turn")
        asked, before = len(views), version(page)
        play_one(page)
        wait_until(page, lambda: my_turn(page), "the robots' replies and my turn, by a follow-up")
        if not fetched(lambda: PlayAction.objects.filter(table_id=table.pk, version__gt=before + 1,
                                                         by_robot=True).exists()):
            continue  # the card closed a trick the player won: they lead again, no robot answered
        # The request's event comes from the browser's network side, the page's turn from
        # its renderer: under load the event may come second, but it comes.
        wait_until(page, lambda: len(views) > asked, "the follow-up's request")
        answered += 1
        if answered == 3:
            break
    assert answered == 3
    settled = len(views)
    page.wait_for_timeout(1500)  # the player is to act: nothing more to ask for
    assert len(views) == settled
