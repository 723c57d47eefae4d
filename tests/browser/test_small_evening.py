"""A whole small whist drive in real Chromium, end to end.

Eight walk-ins, an individual movement, 3 rounds of 2 hands. The organiser logs in and
runs the evening from the console by clicking: start (the movement is computed by the
Celery task, eager here), the round clocks, the ends of the rounds, the publication.
Each table's hands are entered by two players' phones (one N-S, one E-W: browser
contexts of their own, 390x844) from the links of the table-cards page; the opponents
confirm. In round 1 the opponents disagree at table 2 and the organiser settles the
dispute with a reason; in round 2 the organiser corrects a confirmed hand. The published
results, the standings page and /events/<id>/results.json must agree with the totals this test works
out by itself from the tricks it entered and the seating the pages showed (rule D3: a
player scores the tricks of their partnership on each hand).

The database is written before Chromium starts and read again only after it is closed
(Playwright's sync API runs an event loop in this thread: the ORM meanwhile would open a
stray connection on PostgreSQL). Celery is eager in this test (tests/conftest.py's
autouse fixture, also under REDIS_URL): the tasks run in the live server's request
threads, on commit. pytest-django's live server speaks WSGI only, so the pages' websocket
never connects and they poll (LIVE_POLL_MS shortens it for the table pages).

Screenshots: test-artifacts/screenshots/evening-*.png.
"""
import os
import re
import shutil
import time
from collections import defaultdict
from contextlib import contextmanager
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from tests.services import CHROMIUM, require_chromium

from .conftest import LAUNCH_ARGS, PHONE, WAIT_MS, screenshot
from .figures import record

NAMES = ["Margaret Ellis", "Tom Price", "Joan Hartley", "Bill Okafor", "Ann Lee", "Dev Patel", "Rose Kim",
         "Zoë Sidorenko"]
PASSWORD = "pw-Whist-2026"  # tests/conftest.py's make_user
TITLE = "St Mary's Friday Whist Drive"
ROUNDS, HANDS, TABLES = 3, 2, (1, 2)
POSITION_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
SUITS = "SHDC"

# N-S tricks as the tables enter them: {(round, table, hand): ns}.
ENTERED = {
    (1, 1, 1): 8, (1, 1, 2): 5, (1, 2, 1): 7, (1, 2, 2): 9,
    (2, 1, 1): 4, (2, 1, 2): 9, (2, 2, 1): 10, (2, 2, 2): 6,
    (3, 1, 1): 7, (3, 1, 2): 3, (3, 2, 1): 11, (3, 2, 2): 8,
}
# Round 1, table 2, hand 1: N-S say 7, E-W counted 6; the organiser takes E-W's count.
DISPUTE = (1, 2, 1)
DISPUTED_COUNT = 6
DISPUTE_REASON = "Recounted the quitted tricks with both pairs: E-W were right"
# Round 2, table 1, hand 2: confirmed as 9, the organiser corrects it to 8.
CORRECTED = (2, 1, 2)
CORRECTED_TO = 8
CORRECTION_REASON = "Scorer's slip: the pairs agree N-S took 8, not 9"
FINAL = {**ENTERED, DISPUTE: DISPUTED_COUNT, CORRECTED: CORRECTED_TO}
# Which two phones enter at every table of a round: (who enters, who confirms); N-S and E-W both take a turn.
PHONES_OF_ROUND = {1: ("N", "E"), 2: ("W", "S"), 3: ("N", "W")}


def trump_of(key):
    round_, table, hand = key
    return SUITS[(round_ + table + hand) % 4]


@pytest.fixture
def small_evening(transactional_db, make_event, organiser):
    """Eight walk-ins checked in, nothing started: all the database work before Chromium."""
    from drive.celery import app as celery_app
    from drive.events.services import arrivals as arrival_services

    organiser.first_name, organiser.last_name = "Ruth", "Baxter"
    organiser.save()
    event = make_event(title=TITLE, starts_at=timezone.now() + timedelta(minutes=10), rounds=ROUNDS,
                       hands_per_round=HANDS, movement_kind="individual", prizes=["First", "Booby"])
    for name in NAMES:
        arrival_services.add_walk_in(actor=organiser, event=event, display_name=name)
    return {"event": event.pk, "username": organiser.username, "organiser": "Ruth Baxter",
            "eager": bool(celery_app.conf.task_always_eager)}


# --- the room: a browser, the organiser's page, the players' phones -----------------------------


@contextmanager
def chromium():
    """Debian's Chromium (never a downloaded one), closed on the way out."""
    from playwright.sync_api import sync_playwright

    executable = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=LAUNCH_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


class Room:
    """Phone-sized pages with cookies of their own (one context per person), failing on any
    JavaScript error; each player's phone is made when they first need it."""

    def __init__(self, browser, base_url):
        self.browser, self.base_url = browser, base_url
        self.errors, self.phones, self.overflows = [], {}, {}

    def page(self, name):
        context = self.browser.new_context(viewport=PHONE, base_url=self.base_url, locale="en-GB")
        context.set_default_timeout(WAIT_MS)
        page = context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(f"{name}: {exc}"))
        return page

    def phone(self, player):
        if player not in self.phones:
            self.phones[player] = self.page(player)
        return self.phones[player]

    def shoot(self, page, name):
        screenshot(page, f"evening-{name}")

    def note_overflow(self, page, what):
        """Things sticking out sideways on a phone: noted for the report, not failed here."""
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('.scroll'))
            .map(e => `${e.tagName.toLowerCase()}.${e.className}`)""")
        if wide:
            self.overflows[what] = wide[:5]


def hand(page, number):
    return page.locator("article.hand").nth(number - 1)


def log_in(page, username, next_url):
    page.goto(f"/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("form button[type=submit]:has-text('Log in')")


def read_seating(desk, round_number):
    """{table: {position: name}} from the console's "Seating of round k"."""
    from playwright.sync_api import expect

    section = desk.locator("section.card", has=desk.locator("table.seating"))
    expect(section.locator("h2")).to_have_text(f"Seating of round {round_number}")
    seating = {}
    for row in section.locator("tbody tr").all():
        cells = [text.strip() for text in row.locator("td").all_inner_texts()]
        seating[int(row.locator("th").inner_text())] = dict(zip("NESW", cells))
    return seating


def move(desk, label, message):
    """One of the organiser's buttons on the evening page (htmx), and its message."""
    from playwright.sync_api import expect

    desk.get_by_role("button", name=label, exact=True).click()
    expect(desk.locator("#evening-messages")).to_contain_text(message)


def say_who(page, position, name):
    """The phone says who it is, unless it remembers it from an earlier round at this table."""
    from playwright.sync_api import expect

    label = POSITION_NAMES[position]
    you = page.locator(".you-bar")
    if not (you.count() and f"You are {name} ({label})" in you.inner_text()):
        page.get_by_role("button", name=re.compile(rf"^{label}\s+{re.escape(name)}$")).click()
    expect(you).to_contain_text(f"You are {name} ({label})")


def send_hand(page, number, ns, suit):
    from playwright.sync_api import expect

    article = hand(page, number)
    article.locator(f"label[for=h{number}-trump-{suit}]").click()
    article.locator(f"label[for=h{number}-ns-{ns}]").click()
    expect(article.locator("[data-ns]")).to_have_text(str(ns))
    expect(article.locator("[data-ew]")).to_have_text(str(13 - ns))
    article.get_by_role("button", name=f"Send hand {number}").click()
    expect(hand(page, number)).to_contain_text("Sent. Waiting for the opponents to confirm.")


def confirm_hand(page, number, ns):
    from playwright.sync_api import expect

    article = hand(page, number)
    expect(article).to_contain_text("The opponents entered this. Is it right?", timeout=WAIT_MS)  # live, no reload
    article.get_by_role("button", name=re.compile(rf"Yes, confirm N-S {ns} · E-W {13 - ns}$")).click()
    expect(hand(page, number)).to_contain_text("Confirmed.")


def dispute_hand(page, number, ns, suit):
    from playwright.sync_api import expect

    article = hand(page, number)
    expect(article).to_contain_text("The opponents entered this. Is it right?", timeout=WAIT_MS)
    article.locator("summary", has_text="No, we counted differently").click()
    article.locator(f"label[for=h{number}-trump-{suit}]").click()
    article.locator(f"label[for=h{number}-ns-{ns}]").click()
    article.get_by_role("button", name=f"Send our count for hand {number}").click()
    expect(hand(page, number)).to_contain_text("Disputed: the organiser has been told.")


def play_table(room, links, round_number, table, seats):
    """Two phones at one table: say who they are, check the seats, enter and confirm each hand.
    Returns the two phones (still on the table's page)."""
    from playwright.sync_api import expect

    enters, confirms = PHONES_OF_ROUND[round_number]
    first, second = room.phone(seats[enters]), room.phone(seats[confirms])
    for page, position in ((first, enters), (second, confirms)):
        page.goto(links[table])
        expect(page.locator("h1")).to_contain_text(f"Table {table}")
        expect(page.locator(".table-round")).to_have_text(f"Round {round_number} of {ROUNDS}")
        for pos, name in seats.items():  # the phone shows the seating the console shows
            expect(page.locator(f".compass .seat-{pos} .name")).to_have_text(name)
        say_who(page, position, seats[position])
    for number in range(1, HANDS + 1):
        key = (round_number, table, number)
        send_hand(first, number, ENTERED[key], trump_of(key))
        if key == DISPUTE:
            dispute_hand(second, number, DISPUTED_COUNT, trump_of(key))
        else:
            confirm_hand(second, number, ENTERED[key])
        # The entering phone sees the outcome live, before its next hand: that update moves
        # the page, and a tap (or Playwright's click) on a moving form can land elsewhere.
        expect(hand(first, number).locator(".badge")).to_contain_text("disputed" if key == DISPUTE else "confirmed")
    return first, second


def played_round(room, desk, links, round_number, event_url):
    """The organiser starts the clock; both tables play; returns the round's seating."""
    from playwright.sync_api import expect

    desk.goto(event_url)
    expect(desk.locator(".round-title")).to_contain_text(f"Round {round_number} of {ROUNDS}")
    seating = read_seating(desk, round_number)
    assert sorted(seating) == list(TABLES) and sorted(n for s in seating.values() for n in s.values()) == sorted(NAMES)
    move(desk, f"Start the clock of round {round_number}", f"Round {round_number} has started: the clock is running.")
    expect(desk.locator(".clock-time")).to_have_text(re.compile(r"^(19:[0-5]\d|20:00)$"))  # 20 minutes
    expect(desk.locator(".round-title .badge")).to_have_text("playing")
    phones = {table: play_table(room, links, round_number, table, seating[table]) for table in TABLES}
    return seating, phones


# --- what the results must say, worked out here ---------------------------------------------


def expected_standings(seating, final):
    """Per player: the partnership's tricks on every hand (rule D3), total, hands won
    (seven tricks or more), second half (rounds 2-3), and the place by rule D4 as the
    event has it (total, then hands won, then second half; still equal: shared)."""
    scores = defaultdict(dict)
    for (round_number, table), seats in seating.items():
        for position, name in seats.items():
            for number in range(1, HANDS + 1):
                ns = final[(round_number, table, number)]
                scores[name][(round_number, number)] = (ns if position in "NS" else 13 - ns, table, position)
    lines = {}
    for name, hands in scores.items():
        tricks = [t for t, _, _ in hands.values()]
        lines[name] = {"scores": hands, "total": sum(tricks), "won": sum(t >= 7 for t in tricks),
                       "played": len(tricks),
                       "second_half": sum(t for (r, _), (t, _, _) in hands.items() if r > ROUNDS // 2)}

    def key(name):
        return lines[name]["total"], lines[name]["won"], lines[name]["second_half"]

    ordered = sorted(lines, key=key, reverse=True)
    for name in ordered:
        same = [other for other in ordered if key(other) == key(name)]
        lines[name]["place"] = ordered.index(same[0]) + 1
        lines[name]["shared"] = len(same) > 1
    return lines


def parse_standings(page, selector):
    """{name: (place text, total, hands won, played)} of a standings table on a page."""
    found = {}
    for row in page.locator(f"{selector} tbody tr").all():
        cells = [text.strip() for text in row.locator("td").all_inner_texts()]
        name = next(n for n in NAMES if cells[2].startswith(n))
        found[name] = (cells[0], cells[3], cells[4], cells[5])
    return found


def shown(line):
    place = f"{line['place']}=" if line["shared"] else str(line["place"])
    return place, str(line["total"]), str(line["won"]), str(line["played"])


# --- the evening ------------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_small_evening_end_to_end(small_evening, live_server, settings):
    require_chromium()
    # Celery eager (tests/conftest.py): the movement and the standings are computed in the
    # live server's request threads, on commit, with no worker, also under REDIS_URL.
    assert small_evening["eager"]
    settings.LIVE_POLL_MS = 500  # the table pages poll (no websocket on the WSGI live server)
    began = time.monotonic()
    event_id = small_evening["event"]
    event_url = f"/console/events/{event_id}/evening/"

    with chromium() as browser:
        from playwright.sync_api import expect

        room = Room(browser, live_server.url)
        desk = room.page("organiser")
        dialogs = []
        desk.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))

        # --- the organiser logs in and starts the evening ------------------------------------
        signed_in = time.monotonic()
        log_in(desk, small_evening["username"], event_url)
        signed_in = time.monotonic() - signed_in  # the baseline of the evening's time (bench/browser.py)
        expect(desk.locator("h1")).to_have_text(TITLE)
        expect(desk.locator(".phase")).to_contain_text("before the evening")
        expect(desk.locator(".evening-state .hint")).to_contain_text("8 players are checked in.")
        room.note_overflow(desk, "console before the start")
        room.shoot(desk, "01-console-before-start")
        move(desk, "Start the evening", "The evening has started")
        assert dialogs[-1] == "Start the evening now? Registration closes and only the players checked in will play."
        # Eager: the movement is worked out and round 1 seated within the click's request, so
        # the page htmx swapped in already shows it (a queued task would say "being worked out").
        hint = desk.locator(".evening-state .hint").inner_text()
        assert "being worked out" not in hint, f"the movement task did not run on commit (Celery not eager?): {hint}"
        expect(desk.locator(".round-title")).to_contain_text(f"Round 1 of {ROUNDS}")
        expect(desk.locator(".round-title .badge")).to_have_text("seating published")
        expect(desk.get_by_role("button", name="Start the clock of round 1")).to_be_visible()
        room.note_overflow(desk, "console, round 1 seated")
        room.shoot(desk, "02-round-1-seated")

        # --- the table cards page gives the tables' entry links ------------------------------
        desk.goto(f"/console/events/{event_id}/table-cards/")
        expect(desk.locator(".table-card")).to_have_count(len(TABLES))
        links = {}
        for link in desk.locator(".table-links a").all():
            links[int(link.inner_text().removeprefix("Table "))] = link.get_attribute("href")
        assert sorted(links) == list(TABLES)
        assert all(re.fullmatch(re.escape(live_server.url) + r"/t/[A-Za-z0-9_-]{22,}/", url) for url in links.values())

        # --- round 1: table 1 plain, table 2 with a dispute ----------------------------------
        seating = {}
        first, phones = played_round(room, desk, links, 1, event_url)
        seating.update({(1, t): s for t, s in first.items()})
        n_phone, e_phone = phones[2]
        room.note_overflow(e_phone, "table page, disputed")
        room.shoot(e_phone, "03-phone-disputed")
        expect(hand(n_phone, 1).locator(".badge")).to_contain_text("disputed", timeout=WAIT_MS)
        expect(n_phone.locator("#table-stage")).to_contain_text("Playing")  # not locked: a hand is disputed

        # The organiser sees the flag on the evening page; the round cannot end early.
        desk.goto(event_url)
        expect(desk.locator("#table-2")).to_have_class(re.compile(r"\btbl-disputed\b"))
        expect(desk.locator("#table-2 .dispute")).to_have_text(f"Hand 1: N-S {ENTERED[DISPUTE]} or {DISPUTED_COUNT}?")
        expect(desk.locator("#table-1 .tbl-status")).to_have_text("in")
        expect(desk.locator(".count-disputed strong")).to_have_text("1")
        expect(desk.locator(".count-in strong")).to_have_text("1")
        room.shoot(desk, "04-console-dispute-flag")
        move(desk, "End round 1", "Tables not in yet (still playing, or a hand disputed): 2.")
        expect(desk.locator(".end-anyway")).to_contain_text("table 2")
        room.shoot(desk, "05-console-end-refused")

        # ... and settles it on the table's page, with a reason.
        desk.locator(".end-anyway a", has_text="table 2").click()
        expect(desk.locator("h1")).to_have_text("Table 2, round 1")
        disputed = desk.locator("#hand-1")
        expect(disputed.locator(".dispute-detail")).to_have_text(
            f"Seat N entered N-S 7, E-W 6; seat E entered N-S {DISPUTED_COUNT}, E-W {13 - DISPUTED_COUNT}.")
        expect(disputed.locator("details.fix").first).to_have_attribute("open", "")
        disputed.get_by_role("button", name=f"N-S {DISPUTED_COUNT}", exact=True).click()
        expect(desk.locator("#id_h1-ns_tricks")).to_have_value(str(DISPUTED_COUNT))
        desk.fill("#id_h1-reason", DISPUTE_REASON)
        room.shoot(desk, "06-settle-dispute")
        with desk.expect_navigation():
            disputed.get_by_role("button", name="Save").click()
        expect(desk.locator(".messages")).to_contain_text(
            f"Hand 1 of table 2 is now N-S {DISPUTED_COUNT}, E-W {13 - DISPUTED_COUNT}.")
        expect(desk.locator("#hand-1 .badge")).to_have_text("confirmed")
        expect(desk.locator("#hand-1 .tag")).to_have_text("corrected")
        expect(desk.locator(".tbl-status-text")).to_have_text("in")
        room.shoot(desk, "07-dispute-settled")
        # The phones at table 2 see it without reloading: the round is locked.
        for page in phones[2]:
            expect(page.locator("#table-stage")).to_contain_text("this round is locked", timeout=WAIT_MS)
            expect(hand(page, 1).locator(".score")).to_have_text(f"N-S {DISPUTED_COUNT} · E-W {13 - DISPUTED_COUNT}")

        # --- end of round 1: every table is in -----------------------------------------------
        desk.goto(event_url)
        expect(desk.locator(".count-in strong")).to_have_text("2")
        move(desk, "End round 1", "Round 1 is closed.")
        expect(desk.locator(".round-title")).to_contain_text(f"Round 2 of {ROUNDS}")
        # A phone at table 1 shows where everyone goes next (before round 2 starts).
        phone = phones[1][0]
        phone.goto(links[1])
        expect(phone.locator("#next-round h2")).to_have_text("Round 2: where everyone goes")
        room.shoot(phone, "08-phone-between-rounds")
        next_moves = phone.locator("#next-round .moves li").all_inner_texts()
        for page in (p for pair in phones.values() for p in pair):
            page.goto("about:blank")  # stop polling

        # --- round 2, then a correction of a confirmed hand ----------------------------------
        second, phones = played_round(room, desk, links, 2, event_url)
        seating.update({(2, t): s for t, s in second.items()})
        where = {name: (t, pos) for t, seats in second.items() for pos, name in seats.items()}
        for text in next_moves:  # what the phone said before round 2 is where they sat
            name = next(n for n in NAMES if text.startswith(n))
            t, pos = where[name]
            assert re.search(rf"table {t}, {POSITION_NAMES[pos]}$", text), (text, where[name])
        for page in phones[1]:
            expect(page.locator("#table-stage")).to_contain_text("this round is locked", timeout=WAIT_MS)
        room.note_overflow(phones[1][0], "table page, locked")
        room.shoot(phones[1][0], "09-phone-locked")

        r, t, h = CORRECTED
        desk.goto(f"{event_url}rounds/{r}/tables/{t}/")
        fix = desk.locator(f"#hand-{h}")
        expect(fix.locator(".badge")).to_have_text("confirmed")
        expect(fix.locator(".tricks")).to_contain_text(f"N-S {ENTERED[CORRECTED]} · E-W {13 - ENTERED[CORRECTED]}")
        fix.locator("summary", has_text="Correct this hand").click()
        desk.fill(f"#id_h{h}-ns_tricks", str(CORRECTED_TO))
        expect(desk.locator(f"#id_h{h}-kind")).to_have_value("correction")
        desk.fill(f"#id_h{h}-reason", CORRECTION_REASON)
        with desk.expect_navigation():
            fix.get_by_role("button", name="Save").click()
        expect(desk.locator(".messages")).to_contain_text(
            f"Hand {h} of table {t} is now N-S {CORRECTED_TO}, E-W {13 - CORRECTED_TO}.")
        expect(desk.locator(f"#hand-{h} .tag")).to_have_text("corrected")
        room.shoot(desk, "10-correction-saved")
        for page in phones[1]:  # the table's phones follow the correction
            expect(hand(page, h).locator(".score")).to_have_text(
                f"N-S {CORRECTED_TO} · E-W {13 - CORRECTED_TO}", timeout=WAIT_MS)

        # The corrections page: who, when, old, new, why.
        desk.goto(f"/console/events/{event_id}/corrections/")
        cards = desk.locator(".history-card")
        expect(cards).to_have_count(2)
        expect(cards.nth(0).locator("h2")).to_contain_text(f"Round {r} · table {t} · hand {h}")
        expect(cards.nth(1).locator("h2")).to_contain_text("Round 1 · table 2 · hand 1")
        history = {}
        for i in range(2):
            history[i] = [[c.strip() for c in row.locator("td").all_inner_texts()]
                          for row in cards.nth(i).locator("tbody tr").all()]
        who = small_evening["organiser"]
        clock = re.compile(r"^\d\d:\d\d:\d\d$")
        corrected_rows = [row for row in history[0] if row[1] == who]
        assert len(corrected_rows) == 1, history[0]
        at, _who, before, after, kind, why = corrected_rows[0]
        assert clock.match(at) and (before, after, kind, why) == (
            str(ENTERED[CORRECTED]), str(CORRECTED_TO), "correction", CORRECTION_REASON), corrected_rows
        settled = [row for row in history[1] if row[1] == who]
        assert len(settled) == 1 and clock.match(settled[0][0]), history[1]
        assert settled[0][2:] == [str(ENTERED[DISPUTE]), str(DISPUTED_COUNT), "correction", DISPUTE_REASON], settled
        # ... and how it came about: N-S entered 7, E-W disputed with 6.
        assert ["the table, seat N", "—", "7", "table entry: entered", "entered at the table"] in [row[1:] for row in history[1]], history[1]
        assert ["the table, seat E", "7", f"7 (other side: {DISPUTED_COUNT})", "table entry: disputed",
            "disputed by the opponents"] in \
            [row[1:] for row in history[1]], history[1]
        room.note_overflow(desk, "corrections page")
        room.shoot(desk, "11-corrections")

        desk.goto(event_url)
        move(desk, "End round 2", "Round 2 is closed.")
        for page in (p for pair in phones.values() for p in pair):
            page.goto("about:blank")

        # --- round 3, the end, the results ---------------------------------------------------
        third, phones = played_round(room, desk, links, 3, event_url)
        seating.update({(3, t): s for t, s in third.items()})
        desk.goto(event_url)
        move(desk, "End round 3", "Round 3 is closed.")
        expect(desk.locator(".phase")).to_contain_text("finished")
        expect(desk.locator(".evening-state .hint")).to_contain_text("All rounds are played.")
        room.shoot(desk, "12-finished")
        for page in phones[1]:
            expect(page.locator("#table-stage")).to_contain_text("The evening is over", timeout=WAIT_MS)
        room.shoot(phones[1][0], "13-phone-evening-over")
        move(desk, "Publish the results", "The results are published.")
        assert dialogs[-1] == "Publish the results for everyone to see?"
        expect(desk.locator(".phase")).to_contain_text("results published")
        # The table cards are stale now (a stale token gets 404); a phone left open
        # finds out by itself and says so (no more polling).
        for page in (p for pair in phones.values() for p in pair):
            expect(page.locator("body")).to_contain_text("This evening is over", timeout=WAIT_MS)
            expect(page.locator("#table-live")).to_have_count(0)
        answer = phones[1][0].goto(links[1])
        assert answer.status == 404, answer.status
        room.shoot(phones[1][0], "16-phone-card-after-publication")
        for page in (p for pair in phones.values() for p in pair):
            page.goto("about:blank")

        expected = expected_standings(seating, FINAL)
        assert sum(line["total"] for line in expected.values()) == 26 * len(FINAL)  # 13 tricks, two players a side

        # --- the public results page, the standings and /events/<id>/results.json ----------
        public = room.page("public")
        public.goto(f"/events/{event_id}/results/")
        expect(public.locator("h1")).to_have_text(f"Results: {TITLE}")
        expect(public.locator(".provisional")).to_have_count(0)
        on_results = parse_standings(public, "table.standings")
        assert on_results == {name: shown(line) for name, line in expected.items()}
        # Hand by hand: each player's six scores and total.
        for row in public.locator(".hand-by-hand tbody tr").all():
            cells = [text.strip() for text in row.locator("td").all_inner_texts()]
            line = expected[cells[1]]
            scores = [str(line["scores"][(rr, hh)][0]) for rr in range(1, ROUNDS + 1) for hh in range(1, HANDS + 1)]
            assert cells[2:2 + ROUNDS * HANDS] == scores and cells[-1] == str(line["total"]), (cells, line)
        corrections = public.locator("section.corrections")
        expect(corrections.locator("tbody tr")).to_have_count(2)
        expect(corrections).to_contain_text(DISPUTE_REASON)
        expect(corrections).to_contain_text(CORRECTION_REASON)
        winners = [name for name, line in expected.items() if line["place"] == 1]
        last = max(line["place"] for line in expected.values())
        booby = [name for name, line in expected.items() if line["place"] == last]
        prizes = public.locator(".prizes li").all_inner_texts()
        assert all(name in prizes[0] for name in winners) and prizes[0].startswith("First:"), prizes
        assert all(name in prizes[1] for name in booby) and prizes[1].startswith("Booby:"), prizes
        room.note_overflow(public, "results page")
        room.shoot(public, "14-results")

        public.goto(f"/events/{event_id}/standings/")
        expect(public.locator("#standings table.standings tbody tr")).to_have_count(len(NAMES))
        assert parse_standings(public, "#standings table.standings") == on_results
        room.note_overflow(public, "standings page")
        room.shoot(public, "15-standings")

        answer = public.request.get(f"/events/{event_id}/results.json")
        assert answer.status == 200, answer.status
        document = answer.json()
        assert document["published"] is True and document["event"]["phase"] == "results_published"
        by_name = {line["name"]: line for line in document["lines"]}
        assert sorted(by_name) == sorted(NAMES)
        for name, line in expected.items():
            got = by_name[name]
            assert (got["place"], got["shared"], Decimal(got["total"]), got["hands_won"], got["hands_played"],
                    got["sit_out_hands"], Decimal(got["second_half"])) == (
                line["place"], line["shared"], Decimal(line["total"]), line["won"], line["played"], 0,
                Decimal(line["second_half"])), (name, got, line)
            hands = {(x["round"], x["hand"]): (x["tricks"], x["table"], x["seat"]) for x in got["hands"]}
            assert hands == line["scores"], (name, hands, line["scores"])
            assert all(x["counted"] and x["status"] == "confirmed" for x in got["hands"]), got["hands"]
        fixes = [(c["round"], c["table"], c["hand"], c["kind"], c["by"], c["old_ns_tricks"], c["new_ns_tricks"],
                  c["reason"]) for c in document["corrections"]]
        assert fixes == [(*DISPUTE, "correction", who, ENTERED[DISPUTE], DISPUTED_COUNT, DISPUTE_REASON),
                         (*CORRECTED, "correction", who, ENTERED[CORRECTED], CORRECTED_TO, CORRECTION_REASON)], fixes
        prize_winners = {p["name"]: sorted(p["winners"]) for p in document["prizes"]}
        numbers = {line["name"]: line["number"] for line in document["lines"]}
        assert prize_winners == {"First": sorted(numbers[n] for n in winners),
                                 "Booby": sorted(numbers[n] for n in booby)}, prize_winners

        errors, overflows = list(room.errors), dict(room.overflows)
    # Chromium is closed: the ORM may run in this thread again.

    assert not errors, f"JavaScript errors: {errors}"
    partners = {frozenset((s[a], s[b])) for s in seating.values() for a, b in ("NS", "EW")}
    assert len(partners) == 12, "an individual movement: nobody partners anyone twice"

    from drive.events.models import Event
    from drive.movements.models import Movement
    from drive.scoring.models import HandResult, Standing

    assert Event.objects.get(pk=event_id).phase == Event.Phase.RESULTS_PUBLISHED
    assert Movement.objects.get(event_id=event_id).status == Movement.Status.READY
    stored = {s.entrant.player.display_name: (s.place, s.shared, s.total, s.hands_won, s.hands_played)
              for s in Standing.objects.filter(event_id=event_id).select_related("entrant__player")}
    assert stored == {name: (line["place"], line["shared"], Decimal(line["total"]), line["won"], line["played"])
                      for name, line in expected.items()}
    hands = {(x.round.number, x.table.number, x.hand_number): (x.ns_tricks, x.status)
             for x in HandResult.objects.filter(round__event_id=event_id).select_related("round", "table")}
    assert hands == {key: (ns, "confirmed") for key, ns in FINAL.items()}
    for key, reason in ((DISPUTE, DISPUTE_REASON), (CORRECTED, CORRECTION_REASON)):
        last = HandResult.history.filter(round__event_id=event_id, round__number=key[0], table__number=key[1],
                                         hand_number=key[2]).order_by("-history_date").first()
        assert last.history_change_reason == reason and last.history_user.get_full_name() == "Ruth Baxter"
    if settings.REDIS_URL:  # eager under Redis too: nothing was left queued for a worker
        import redis

        assert redis.Redis.from_url(settings.REDIS_URL).llen("celery") == 0
    if overflows:
        print(f"\nWider than a phone (outside scroll boxes): {overflows}")
    record("small evening, end to end", time.monotonic() - began, "s", baseline=signed_in, goal=90)
