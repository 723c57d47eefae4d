"""The room's screen over real websockets: daphne in a process of its
own, the Redis channel layer, a real Celery worker recomputing the standings and Debian's
Chromium showing the screen at projector size.

- 50 results submitted through the table API reach the open screen (hands entered and
  the standings line they change); the submit-to-screen delay is measured and compared
  with its goal (p95 <= 1 s) by bench/browser.py, not asserted.
- Half-way the ASGI server is killed and started again: the screen says it is
  reconnecting, finds the server again and shows the next result, never reloaded.
- An announcement and the chime at zero arrive the same way.
- The page's heap, DOM nodes and listeners do not grow over hundreds of updates.

Delays and heap figures go to test-artifacts/screen-live.txt, screenshots to
test-artifacts/screenshots/screen-live-*.png.
"""
import json
import random
import statistics
import time
from datetime import timedelta
from pathlib import Path

import pytest

from drive.events.models import Event, Player
from drive.movements.models import Entrant
from drive.scoring.models import Round, Table
from tests.asgi_server import AsgiServer
from tests.scoring.conftest import seat_round
from tests.services import require_postgres, require_redis

from .conftest import WAIT_MS, WORKER_WAIT_MS, wait_until
from .figures import record
from .test_screen import PROJECTOR, in_thread

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis, pytest.mark.worker,
              pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(900)]  # hundreds of swaps: minutes on a loaded laptop (a hang bound)

REPORT = Path(__file__).resolve().parents[2] / "test-artifacts" / "screen-live.txt"
TABLES = 4
HANDS = 13
SEATING = {1: (1, 2, 3, 4), 2: (5, 6, 7, 8), 3: (9, 10, 11, 12), 4: (13, 14, 15, 16)}

# True (with the time it happened, in the browser's clock) once the screen shows `entered`
# hands and entrant `who` with `total`: the number and the standings line it changes.
SHOWN = """([entered, who, total]) => {
  const count = document.querySelector("[data-hands-entered]");
  const line = document.querySelector(`.standings li[data-entrant="${who}"] .total`);
  return count && count.textContent.trim() === String(entered) && line && line.textContent.trim() === String(total)
    ? Date.now() : false;
}"""

# Refresh the screen n times through the server (as live updates do) and wait for each swap.
REFRESH = """async (n) => {
  for (let i = 0; i < n; i++) {
    await new Promise((done) => {
      document.addEventListener("htmx:afterSettle", function settled(e) {
        if (e.detail.elt && e.detail.elt.id === "screen") { document.removeEventListener("htmx:afterSettle", settled); done(); }
      });
      document.body.dispatchEvent(new CustomEvent("screen-refresh"));
    });
  }
}"""


@pytest.fixture
def night(make_event, organiser):
    """A drive under way: 16 players at 4 tables, 13 hands a round, single entry (each
    submission final at once), round 1 playing; the screen link issued."""
    require_postgres()
    require_redis()
    from drive.live.selectors.screen import screen_token
    from drive.live.services.screen import issue_screen_link

    event = make_event(title="Thursday Club Drive", hands_per_round=HANDS, rounds=2, phase=Event.Phase.IN_PROGRESS,
                       movement_kind="individual", result_confirmation="single", trump_rule="rotation")
    for number in range(1, 4 * TABLES + 1):
        Entrant.objects.create(event=event, player=Player.objects.create(display_name=f"Player {number:02d}"),
                               number=number)
    for number in range(1, TABLES + 1):
        Table.objects.create(event=event, number=number)
    seat_round(Round.objects.create(event=event, number=1), SEATING)
    Round.objects.create(event=event, number=2)
    event = issue_screen_link(actor=organiser, event=event)
    tokens = {t.number: t.token for t in Table.objects.filter(event=event)}
    return {"event": event.pk, "screen": f"/screen/{screen_token(event)}/", "tokens": tokens}


@pytest.fixture
def server(night, celery_worker):
    asgi = AsgiServer("screen-live").start()
    yield asgi
    asgi.stop()


@pytest.fixture
def projector(browser, server):
    context = browser.new_context(viewport=PROJECTOR, base_url=server.url, locale="en-GB")
    context.set_default_timeout(WAIT_MS)
    errors = []
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


CLAIMS = {}  # table token -> the secret of North's phone there


def submit(page, token, hand, ns_tricks):
    if token not in CLAIMS:  # North's phone claims its seat first
        claim = page.request.post(f"/api/tables/{token}/claims/", data={"seat": "N"})
        assert claim.status == 201, claim.text()
        CLAIMS[token] = claim.json()["claim"]
    answer = page.request.post(f"/api/tables/{token}/results/",
                               data={"seat": "N", "hand_number": hand, "ns_tricks": ns_tricks},
                               headers={"X-Seat-Claim": CLAIMS[token]})
    assert answer.status == 201, answer.text()


# The page watches its own DOM and answers when SHOWN first holds: the Content-Security-
# Policy (no 'unsafe-eval') stops Playwright's wait_for_function, which evals its predicate.
WHEN_SHOWN = f"""([args, timeout]) => new Promise((resolve, reject) => {{
  const shown = {SHOWN};
  const observer = new MutationObserver(() => {{ const at = shown(args); if (at) done(at); }});
  const timer = setTimeout(() => {{ observer.disconnect(); reject(new Error("not shown: " + args)); }}, timeout);
  function done(at) {{ observer.disconnect(); clearTimeout(timer); resolve(at); }}
  observer.observe(document.documentElement, {{subtree: true, childList: true, characterData: true}});
  const now = shown(args);
  if (now) done(now);
}})"""


def shown_at(page, entered, who, total, timeout=WORKER_WAIT_MS):
    """When (ms, browser clock = this machine's clock) the screen showed it."""
    return page.evaluate(WHEN_SHOWN, [[entered, who, total], timeout])


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def report(lines):
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    with REPORT.open("a") as out:
        out.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def announce(event_id, text):
    from django.contrib.auth import get_user_model

    from drive.live.services.announcements import announce as make

    make(actor=get_user_model().objects.get(username="organiser"), event=Event.objects.get(pk=event_id), text=text)


def clock_runs_out_soon(event_id):
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from drive.live.services.screen import set_screen_chime

    Round.objects.filter(event_id=event_id, number=1).update(deadline=timezone.now() + timedelta(seconds=4))
    set_screen_chime(actor=get_user_model().objects.get(username="organiser"), event=Event.objects.get(pk=event_id),
                     chime=True)  # its broadcast refreshes the screen, which reads the new deadline


# A desktop browser keeps Web Audio suspended until the page is clicked; headless Chromium
# does not, so the test makes it behave as the venue laptop would.
DESKTOP_AUTOPLAY = """(() => {
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); this.suspend(); }
  };
})();"""


def test_results_reach_the_screen_and_it_survives_a_server_restart(night, server, projector, shoot):
    from playwright.sync_api import expect

    page = projector
    page.add_init_script(DESKTOP_AUTOPLAY)
    # A second screen in the room (the bar's, say), smaller: a window of its own, as a
    # second tab would be a hidden one (timers slowed to one a second).
    other = page.context.browser.new_context(viewport={"width": 1280, "height": 720}, base_url=server.url)
    second = other.new_page()
    second.goto(night["screen"])
    page.goto(night["screen"])
    root = page.locator("html")
    expect(root).to_have_attribute("data-live", "socket")
    expect(page.locator("#screen")).to_have_attribute("data-state", "playing")
    page.evaluate("window.notReloaded = true")

    picks = random.Random(2026)
    totals = {number: 0 for number in SEATING}
    delays, entered = [], 0
    recovery = None
    for i in range(51):
        table, hand = i % TABLES + 1, i // TABLES + 1
        ns_tricks = picks.randint(0, 13)
        if i == 25:  # half-way: the server dies, the room's screen must find it again by itself
            server.kill()
            expect(root).to_have_attribute("data-live", "polling")
            expect(page.locator(".live-hint")).to_be_visible()
            shoot(page, "screen-live-02-reconnecting")
            server.start()
        sent = time.time() * 1000
        submit(page, night["tokens"][table], hand, ns_tricks)
        entered += 1
        totals[table] += ns_tricks
        seen = shown_at(page, entered, SEATING[table][0], totals[table])
        if i == 25:
            recovery = seen - sent
            expect(root).to_have_attribute("data-live", "socket", timeout=WORKER_WAIT_MS)
        else:
            delays.append(seen - sent)
        if i == 3:
            shoot(page, "screen-live-01-playing")
        time.sleep(picks.uniform(0, 0.4))  # results come in at their own pace

    assert len(delays) == 50
    expect(second.locator("[data-hands-entered]")).to_have_text(str(entered))  # it recovered too
    expect(second.locator("html")).to_have_attribute("data-live", "socket")
    other.close()
    refresh = time.monotonic()
    page.evaluate(REFRESH, 10)  # the baseline: the screen's own fetch and swap, no result behind it
    refresh = (time.monotonic() - refresh) * 100
    p95 = percentile(delays, 0.95)
    report([f"screen-live: {len(delays)} submissions, submit-to-screen delay ms: p50 {statistics.median(delays):.0f}, "
            f"p95 {p95:.0f}, max {max(delays):.0f}; first result after the server restart shown "
            f"{recovery:.0f} ms after its submission; one refresh {refresh:.0f} ms"])
    record("submit-to-screen delay p95", p95, "ms", baseline=refresh, goal=1000)  # timed in bench/browser.py
    assert recovery <= 15_000
    assert page.evaluate("window.notReloaded") is True
    assert page.locator("#screen").count() == 1

    # --- an announcement from the console reaches the open screen, on top ---------------------
    in_thread(lambda: announce(night["event"], "Tea and cakes in the side room at the interval"))
    note = page.locator(".announcement")
    expect(note).to_have_text("Tea and cakes in the side room at the interval")
    assert page.evaluate("document.querySelector('.announcement').getBoundingClientRect().top") < \
        page.evaluate("document.querySelector('.standings-box').getBoundingClientRect().top")
    shoot(page, "screen-live-03-announcement")
    cut = page.evaluate("""() => {  // every page of the standings in turn, as the screen shows them
      const room = document.querySelector('.standings-box .pages'), pages = [...room.querySelectorAll('.page')];
      const shown = pages.map((p) => p.hidden), cut = [];
      pages.forEach((page, i) => {
        pages.forEach((p, j) => { p.hidden = j !== i; });
        const bottom = room.getBoundingClientRect().bottom;
        page.querySelectorAll('li').forEach((line) => {
          if (line.getBoundingClientRect().bottom > bottom + 1) cut.push(line.textContent.trim());
        });
      });
      pages.forEach((p, j) => { p.hidden = shown[j]; });
      return cut;
    }""")
    assert cut == [], f"standings lines cut off below the announcement: {cut}"

    # --- the chime once the clock runs out (the organiser turned it on) -----------------------
    in_thread(lambda: clock_runs_out_soon(night["event"]))
    expect(page.locator("#screen")).to_have_attribute("data-chime", "")
    hint = page.locator("#chime-hint")
    expect(hint).to_be_visible()  # no click yet: the browser keeps audio muted, the screen says so
    page.mouse.click(PROJECTOR["width"] // 2, PROJECTOR["height"] // 2)
    expect(hint).to_be_hidden()
    wait_until(page, lambda: page.evaluate("window.screenChimes === 1"), "the chime")
    expect(page.locator("[data-clock-time]")).to_have_text("0:00")
    shoot(page, "screen-live-04-time-is-up")
    page.wait_for_timeout(1500)
    assert page.evaluate("window.screenChimes") == 1  # once a round, not at every tick or refresh
    assert page.evaluate("window.notReloaded") is True

    box = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert box[0] <= PROJECTOR["width"] and box[1] <= PROJECTOR["height"], f"the screen overflows: {box}"


# Kept by the DevTools protocol Playwright drives the page with (a record of every request
# for the Network panel) and V8's compiled code: neither exists on the venue laptop's page.
# The performance timeline's record of fetches stops at 250 entries (the browser's buffer):
# full after hundreds of updates, nearly empty on the fresh page.
NOT_THE_PAGES = ("native:blink::NetworkResourcesData", "native:blink::XHRReplayData", "code:",
                 "native:PerformanceResourceTiming")


# Waits until no fragment is on its way and the page has been laid out and painted: the
# layout tree of the last swapped fragment (about 100 KB of boxes and styles) exists only
# after the next frame, which a loaded machine may not have drawn yet when asked.
SETTLED = """new Promise((settled) => {
  const frame = () => requestAnimationFrame(() => requestAnimationFrame(() => {
    if (document.querySelector(".htmx-request")) { setTimeout(frame, 50); return; }
    document.documentElement.getBoundingClientRect();
    settled(true);
  }));
  frame();
})"""


def heap(cdp):
    """What the settled page holds after garbage collection: bytes in a heap snapshot
    (less NOT_THE_PAGES), and the DOM's documents, nodes and listeners."""
    cdp.send("Runtime.evaluate", {"expression": SETTLED, "awaitPromise": True})
    chunks = []
    cdp.on("HeapProfiler.addHeapSnapshotChunk", lambda event: chunks.append(event["chunk"]))
    for _ in range(3):
        cdp.send("HeapProfiler.collectGarbage")
    cdp.send("HeapProfiler.takeHeapSnapshot", {"reportProgress": False})
    snapshot = json.loads("".join(chunks))
    meta = snapshot["snapshot"]["meta"]
    width, kinds, names = len(meta["node_fields"]), meta["node_types"][0], snapshot["strings"]
    kind, name, size = (meta["node_fields"].index(f) for f in ("type", "name", "self_size"))
    nodes = snapshot["nodes"]
    held = 0
    for i in range(0, len(nodes), width):
        label = f"{kinds[nodes[i + kind]]}:{names[nodes[i + name]]}"
        if not label.startswith(NOT_THE_PAGES):
            held += nodes[i + size]
    counters = cdp.send("Memory.getDOMCounters")
    return {"heap": held, "nodes": counters["nodes"], "listeners": counters["jsEventListeners"],
            "documents": counters["documents"]}


def test_the_screen_does_not_grow_over_hundreds_of_updates(night, server, projector):
    """After 500 updates the page holds no more than the same screen freshly loaded: what the
    content itself adds (new results, the chart's points) is in both, a leak only in one."""
    from playwright.sync_api import expect

    page = projector
    page.goto(night["screen"])
    expect(page.locator("html")).to_have_attribute("data-live", "socket")
    cdp = page.context.new_cdp_session(page)
    picks = random.Random(7)
    entered = 0

    def updates(batches, per_batch):
        nonlocal entered
        for _batch in range(batches):
            table, hand = entered % TABLES + 1, entered // TABLES + 1
            submit(page, night["tokens"][table], hand, picks.randint(0, 13))  # changes the standings too
            entered += 1
            page.evaluate(REFRESH, per_batch)

    updates(4, 25)  # warm up: every code path has run
    early = heap(cdp)
    updates(16, 25)  # 400 more swaps of the screen, 16 of them with new results
    expect(page.locator("[data-hands-entered]")).to_have_text(str(entered))
    after = heap(cdp)

    page.reload()  # the same screen, fresh: the baseline
    expect(page.locator("html")).to_have_attribute("data-live", "socket")
    expect(page.locator("[data-hands-entered]")).to_have_text(str(entered))
    cdp = page.context.new_cdp_session(page)
    page.evaluate(REFRESH, 25)
    fresh = heap(cdp)
    report([f"screen-live memory: after 100 updates {early}; after 500 {after}; the same screen freshly "
            f"loaded {fresh}; held beyond the fresh page: {after['heap'] - fresh['heap']} bytes, "
            f"{after['nodes'] - fresh['nodes']} nodes"])
    assert after["documents"] == fresh["documents"] == 1
    assert after["listeners"] <= fresh["listeners"] + 5, (fresh, after)
    assert after["nodes"] <= fresh["nodes"] + 50, (fresh, after)
    # A swapped-out fragment kept at each update would be megabytes by now.
    assert after["heap"] - fresh["heap"] < 128 * 1024, (fresh, after)
