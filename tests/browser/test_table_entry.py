"""Two phones at one table in real Chromium: say who you are, enter a hand, the opponents
confirm it, and the first phone sees "confirmed" without reloading.

pytest-django's live server speaks WSGI only, so the websocket of live.js never connects
and the page falls back to polling (shortened here with LIVE_POLL_MS). Screenshots go to
test-artifacts/screenshots/table-*.png.
"""
import base64
import re

import pytest

from drive.events.models import Event, Player
from drive.movements.models import Entrant
from drive.scoring.models import Round, Table
from tests import seats
from tests.scoring.conftest import seat_round

from .conftest import wait_until
from .test_registration_flow import assert_fits_phone


def make_evening(make_event, **fields):
    """An individual drive in progress: 9 entrants, 2 tables, 2 rounds of 2 hands; round 1 playing."""
    event = make_event(title="St Mary's Friday Whist Drive", hands_per_round=2, rounds=2,
                       phase=Event.Phase.IN_PROGRESS, movement_kind="individual", **fields)
    names = ["Margaret Ellis", "Tom Price", "Joan Hartley", "Bill Okafor", "Ann Lee", "Dev Patel", "Rose Kim",
             "Ivan Petrov", "Olga Sidorenko-Vasylenko"]
    for number, name in enumerate(names, start=1):
        Entrant.objects.create(event=event, player=Player.objects.create(display_name=name), number=number)
    for number in (1, 2):
        Table.objects.create(event=event, number=number)
    rounds = [Round.objects.create(event=event, number=n) for n in (1, 2)]
    seat_round(rounds[0], {1: (1, 2, 3, 4), 2: (5, 6, 7, 8)}, sit_out=(9,))
    return event, rounds


@pytest.fixture
def table_night(transactional_db, make_event, organiser):
    """Everything the test needs from the database, read before Playwright starts (see
    test_registration_flow: no ORM in the test's thread once its event loop runs)."""
    event, _rounds = make_evening(make_event)
    return {"event": event.pk, "token": Table.objects.get(event=event, number=1).token}


@pytest.fixture
def between_rounds(transactional_db, make_event):
    """Round 1 ended with table 1's first hand confirmed and the second still out; round 2 seated."""
    event, (first, second) = make_evening(make_event, trump_rule="rotation")
    table = Table.objects.get(event=event, number=1)
    seats.enter(table=table, seat="N", hand_number=1, ns_tricks=8)
    seats.enter(table=table, seat="E", hand_number=1, ns_tricks=8)
    seat_round(second, {1: (5, 6, 7, 9), 2: (2, 1, 4, 8)}, sit_out=(3,))
    Round.objects.filter(pk=first.pk).update(state=Round.State.CLOSED)
    Round.objects.filter(pk=second.pk).update(state=Round.State.SEATED)
    return {"token": table.token, "event": event.pk}


def hand(page, number):
    return page.locator("article.hand").nth(number - 1)


def say_who(page, position, name):
    from playwright.sync_api import expect

    page.get_by_role("button", name=re.compile(rf"{position}\s+{name}")).click()
    expect(page.locator(".you-bar")).to_contain_text(f"You are {name} ({position})")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_two_phones_enter_and_confirm_a_hand(table_night, new_page, shoot, settings):
    from playwright.sync_api import expect

    settings.LIVE_POLL_MS = 400  # the live server has no websocket: live.js polls, quickly here
    entry = f"/t/{table_night['token']}/"

    # --- North's phone: who are you? ------------------------------------------------------
    north = new_page("north")
    north.goto(entry)
    expect(north.locator("h1")).to_contain_text("Table 1")
    expect(north.locator("#who")).to_contain_text("Who are you?")
    expect(north.locator(".compass")).to_contain_text("Margaret Ellis")
    assert_fits_phone(north)
    shoot(north, "table-01-who-are-you")
    say_who(north, "North", "Margaret Ellis")
    north.evaluate("window.notReloaded = true")
    wants = "d => tableWantsUpdate(new CustomEvent('live-update', {detail: d}))"
    assert north.evaluate(wants, {"kind": "results", "data": {"table": 1}})
    assert not north.evaluate(wants, {"kind": "results", "data": {"table": 2}})  # another table's entry
    assert north.evaluate(wants, {"kind": "round", "data": {"round": 1}}) and north.evaluate(wants, None)

    # --- enters hand 1: the suit turned up, then 8 tricks for N-S ----------------------------
    first = hand(north, 1)
    first.locator("label[for=h1-trump-H]").click()
    first.locator("label[for=h1-ns-8]").click()
    expect(first.locator("[data-ns]")).to_have_text("8")
    expect(first.locator("[data-ew]")).to_have_text("5")  # E-W took the rest
    box = first.locator("label[for=h1-ns-8]").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, f"tap target too small: {box}"
    assert_fits_phone(north)
    shoot(north, "table-02-picked")
    with north.expect_response(lambda r: r.url.endswith("/hands/") and r.request.method == "POST") as answer:
        first.get_by_role("button", name="Send hand 1").click()
    assert answer.value.status == 200 and answer.value.request.headers.get("hx-request") == "true"
    expect(hand(north, 1)).to_contain_text("Sent. Waiting for the opponents to confirm.")
    expect(hand(north, 1)).to_contain_text("N-S 8 · E-W 5")
    shoot(north, "table-03-sent")

    # --- North starts on hand 2 but does not send it yet: live updates must not wipe it ------
    hand(north, 2).locator("label[for=h2-trump-S]").click()
    hand(north, 2).locator("label[for=h2-ns-6]").click()

    # --- East's phone confirms -------------------------------------------------------------
    east = new_page("east")
    east.goto(entry)
    say_who(east, "East", "Tom Price")
    expect(hand(east, 1)).to_contain_text("The opponents entered this. Is it right?")
    assert_fits_phone(east)
    shoot(east, "table-04-confirm")
    hand(east, 1).get_by_role("button", name=re.compile("Yes, confirm N-S 8")).click()
    expect(hand(east, 1)).to_contain_text("Confirmed.")
    expect(hand(east, 1).locator(".badge")).to_contain_text("confirmed")
    shoot(east, "table-05-confirmed")

    # --- a third phone cannot take North's seat: the page says why ------------------
    intruder = new_page("intruder")
    intruder.goto(entry)
    expect(intruder.locator("#who")).to_contain_text("taken by a phone")
    intruder.get_by_role("button", name=re.compile(r"North\s+Margaret Ellis")).click()
    expect(intruder.locator("#who .error")).to_contain_text("Another phone has already claimed this seat")
    with intruder.expect_response(lambda r: "/panel" in r.url and r.request.method == "GET"):
        intruder.evaluate("document.body.dispatchEvent(new CustomEvent('table-update'))")  # a live update
    expect(intruder.locator("#who .error")).to_contain_text("Another phone has already claimed this seat")
    expect(intruder.locator("#who .error")).to_have_count(1)
    assert intruder.locator(".you-bar").count() == 0

    # --- North sees it without reloading, and hand 2's choice is still there -------------------
    expect(hand(north, 1).locator(".badge")).to_contain_text("confirmed", timeout=30_000)
    assert north.evaluate("window.notReloaded === true"), "the page reloaded"
    expect(north.locator("#h2-ns-6")).to_be_checked()
    expect(north.locator("#h2-trump-S")).to_be_checked()
    shoot(north, "table-06-north-sees-confirmed")

    # --- hand 2: North sends 6, East counted 7 -> disputed, the organiser is told --------------
    hand(north, 2).get_by_role("button", name="Send hand 2").click()
    expect(hand(north, 2)).to_contain_text("Waiting for the opponents to confirm.")
    expect(hand(east, 2)).to_contain_text("The opponents entered this", timeout=30_000)  # live, no reload
    hand(east, 2).locator("summary").click()
    hand(east, 2).locator("label[for=h2-trump-S]").click()
    hand(east, 2).locator("label[for=h2-ns-7]").click()
    hand(east, 2).get_by_role("button", name="Send our count for hand 2").click()
    expect(hand(east, 2)).to_contain_text("Disputed: the organiser has been told.")
    expect(hand(north, 2).locator(".badge")).to_contain_text("disputed", timeout=30_000)
    assert_fits_phone(east)
    shoot(east, "table-07-disputed")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_between_rounds_and_the_table_cards(between_rounds, new_page, shoot, organiser):
    from playwright.sync_api import expect

    phone = new_page("phone")
    phone.goto(f"/t/{between_rounds['token']}/")
    expect(phone.locator("#next-round")).to_contain_text("Round 2: where everyone goes")
    expect(phone.locator("#next-round")).to_contain_text("Margaret Ellis → table 2, East")
    expect(phone.locator("#table-stage")).to_contain_text("The round has ended")
    expect(hand(phone, 1)).to_contain_text("Trump: ♥ hearts")  # rotation: shown, not asked
    assert_fits_phone(phone)
    shoot(phone, "table-08-between-rounds")

    # --- the organiser prints the table cards: one A6 page per table ----------------------------
    desk = new_page("organiser")
    desk.goto(f"/accounts/login/?next=/console/events/{between_rounds['event']}/table-cards/")
    desk.fill("#id_username", organiser.username)
    desk.fill("#id_password", "pw-Whist-2026")
    with desk.expect_navigation():
        desk.click("form button[type=submit]:has-text('Log in')")
    expect(desk.locator("h1")).to_have_text("Table cards")
    expect(desk.locator(".table-card")).to_have_count(2)
    expect(desk.locator(".table-card .tc-qr svg")).to_have_count(2)
    shoot(desk, "table-09-cards-screen")
    desk.set_viewport_size({"width": 1100, "height": 900})
    shoot(desk, "table-10-cards-desk")
    desk.emulate_media(media="print")
    # Through CDP: Playwright's page.pdf() sends a paper size of its own, which wins over @page here.
    printed = desk.context.new_cdp_session(desk).send("Page.printToPDF", {"preferCSSPageSize": True,
                                                                          "printBackground": True})
    pdf = base64.b64decode(printed["data"])
    pages = re.findall(rb"/Type\s*/Page[^s]", pdf)
    assert len(pages) == 2, f"{len(pages)} pages for 2 tables"
    sizes = {tuple(round(float(v)) for v in m) for m in re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)}
    assert sizes == {(298, 420)}, sizes  # A6 in points: 105 x 148 mm
    shoot(desk, "table-11-cards-print")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_phone_left_open_stops_when_the_results_are_published(table_night, new_page, settings):
    """The card stops working once the results are published: the open phone shows the
    page that says so (and where the results are) instead of polling a 404 all night."""
    from playwright.sync_api import expect

    from .test_screen import in_thread

    settings.LIVE_POLL_MS = 400
    phone = new_page("left-open")
    phone.goto(f"/t/{table_night['token']}/")
    expect(phone.locator("h1")).to_contain_text("Table 1")
    in_thread(lambda: Event.objects.filter(pk=table_night["event"]).update(phase=Event.Phase.RESULTS_PUBLISHED))
    expect(phone.locator("body")).to_contain_text("This evening is over", timeout=30_000)
    assert phone.locator("#table-live").count() == 0  # nothing left that polls


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_change_during_a_slow_refresh_still_reaches_the_phone(table_night, new_page, settings):
    """htmx drops a fragment's request while its last one is in flight: live.js holds the
    change that came meanwhile and fires once more when the answer is in."""
    from playwright.sync_api import expect

    from .test_screen import in_thread

    settings.LIVE_POLL_MS = 600_000  # no polling to the rescue
    token = table_night["token"]

    def enter(hand):
        seats.enter(table=Table.objects.get(token=token), seat="E", hand_number=hand, ns_tricks=8,
                    trump="H")

    phone = new_page("north")
    phone.goto(f"/t/{token}/")
    say_who(phone, "North", "Margaret Ellis")
    slowed = []

    def slow_answer(route):
        if slowed:
            route.continue_()
            return
        slowed.append(route.request.url)
        answer = route.fetch()  # read before hand 2 is entered
        in_thread(lambda: enter(2))
        phone.wait_for_timeout(600)  # meanwhile another update comes
        route.fulfill(response=answer)

    in_thread(lambda: enter(1))
    phone.route("**/panel/", slow_answer)
    phone.evaluate("""() => {
      document.body.dispatchEvent(new CustomEvent('live-update'));
      setTimeout(() => document.body.dispatchEvent(new CustomEvent('live-update')), 300);
    }""")
    expect(hand(phone, 1)).to_contain_text("N-S 8 · E-W 5")
    expect(hand(phone, 2)).to_contain_text("N-S 8 · E-W 5", timeout=30_000)
    assert len(slowed) == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_refresh_never_lands_under_a_finger(table_night, new_page, settings):
    """A tap whose press and release straddle a refresh of the panel was lost (the swap
    takes the hand being entered out of the page and back): "Send" did nothing. A live
    update under a finger waits (live.js); a refresh on its way is called off."""
    from playwright.sync_api import expect

    settings.LIVE_POLL_MS = 600_000  # no polls: this test sends the live updates itself
    north = new_page("north")
    north.goto(f"/t/{table_night['token']}/")
    say_who(north, "North", "Margaret Ellis")
    panel, held = north.locator("#table-live"), north.locator("html")

    def press(number):
        button = hand(north, number).get_by_role("button", name=f"Send hand {number}")
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        north.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        north.mouse.down()

    def release_sends(number, ns):
        with north.expect_response(lambda r: r.url.endswith("/hands/") and r.request.method == "POST") as answer:
            north.mouse.up()
        assert answer.value.status == 200
        expect(hand(north, number)).to_contain_text(f"N-S {ns} · E-W {13 - ns}")
        expect(hand(north, number)).to_contain_text("Waiting for the opponents to confirm.")

    # A live update while the finger is down: the refresh waits for it to lift.
    hand(north, 1).locator("label[for=h1-trump-H]").click()
    hand(north, 1).locator("label[for=h1-ns-8]").click()
    press(1)
    north.evaluate("document.body.dispatchEvent(new CustomEvent('live-update'))")
    expect(held).to_have_attribute("data-live-held", "")
    release_sends(1, 8)
    expect(held).not_to_have_attribute("data-live-held", "")  # asked for again once free

    # A refresh on its way when the finger comes down is called off, and asked for again after.
    hand(north, 2).locator("label[for=h2-trump-S]").click()
    hand(north, 2).locator("label[for=h2-ns-6]").click()
    on_its_way = []
    north.route("**/panel/", lambda route: on_its_way.append(route))
    north.evaluate("document.body.dispatchEvent(new CustomEvent('table-update'))")
    expect(panel).to_have_class(re.compile(r"\bhtmx-request\b"))
    # the page marks the request before Playwright hands it to the route in this process
    wait_until(north, lambda: on_its_way, "the refresh to reach the route")
    assert len(on_its_way) == 1
    press(2)
    expect(held).to_have_attribute("data-live-held", "")
    expect(panel).not_to_have_class(re.compile(r"\bhtmx-request\b"))
    north.unroute_all(behavior="ignoreErrors")  # the request the page called off is let go
    release_sends(2, 6)
    expect(held).not_to_have_attribute("data-live-held", "")
