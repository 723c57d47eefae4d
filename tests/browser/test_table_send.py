"""A phone's Send while its answer is on the way: the button says "Sending…" and takes no
second tap, so one tap is one entry sent; the answer brings the button back. The answer is
held back in the browser (route interception) as a slow hall Wi-Fi would."""
import pytest

from drive.scoring.models import HandResult

from .conftest import wait_until
from .test_screen import in_thread
from .test_table_entry import hand, say_who, table_night  # noqa: F401  (fixture)

SEND = "**/t/*/hands/"


def sends(page):
    """The entries the page sends (POSTs to the table's hands), as they leave."""
    sent = []
    page.on("request", lambda request: request.method == "POST" and request.url.endswith("/hands/")
            and sent.append(request.url))
    return sent


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_send_says_sending_and_a_second_tap_sends_nothing(table_night, new_page):  # noqa: F811
    from playwright.sync_api import expect

    phone = new_page("north")
    phone.goto(f"/t/{table_night['token']}/")
    say_who(phone, "North", "Margaret Ellis")
    sent, held = sends(phone), []
    phone.route(SEND, lambda route: held.append(route))
    first = hand(phone, 1)
    first.locator("label[for=h1-trump-H]").click()
    first.locator("label[for=h1-ns-8]").click()
    send = first.locator("button.send")
    # A live refresh of the panel on its way is not a send: the buttons stay as they are.
    refreshes = []
    phone.route("**/panel/", lambda route: refreshes.append(route))
    phone.evaluate("document.body.dispatchEvent(new CustomEvent('table-update'))")
    wait_until(phone, lambda: refreshes, "the panel's refresh to leave")
    expect(send).to_have_text("Send hand 1")
    expect(send).to_be_enabled()
    phone.unroute("**/panel/")
    refreshes.pop().continue_()
    expect(phone.locator("#table-live")).not_to_have_class("htmx-request")
    send.click()
    wait_until(phone, lambda: held, "the entry to leave")
    expect(send).to_have_text("Sending…")
    expect(send).to_be_disabled()
    send.click(force=True)  # an impatient second tap (force: a disabled button is tapped all the same)
    send.dispatch_event("click")
    held.pop().continue_()
    expect(hand(phone, 1)).to_contain_text("Sent. Waiting for the opponents to confirm.")
    assert sent == [sent[0]], f"one tap, {len(sent)} entries sent"
    assert not held
    versions = []
    in_thread(lambda: versions.extend(HandResult.history.values_list("version", flat=True)))
    assert versions == [1]  # one entry stored, never changed
    # The answer's hand has its buttons back: the side may still change its entry.
    hand(phone, 1).locator("summary").click()
    expect(hand(phone, 1).locator("button.send")).to_have_text("Change hand 1")
    expect(hand(phone, 1).locator("button.send")).to_be_enabled()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_send_that_gets_no_answer_gives_the_button_back(table_night, new_page):  # noqa: F811
    from playwright.sync_api import expect

    phone = new_page("north")
    phone.goto(f"/t/{table_night['token']}/")
    say_who(phone, "North", "Margaret Ellis")
    held = []
    phone.route(SEND, lambda route: held.append(route))
    first = hand(phone, 1)
    first.locator("label[for=h1-trump-H]").click()
    first.locator("label[for=h1-ns-8]").click()
    first.locator("button.send").click()
    wait_until(phone, lambda: held, "the entry to leave")
    expect(first.locator("button.send")).to_have_text("Sending…")
    held.pop().abort("connectionreset")  # the Wi-Fi dropped it
    expect(first.locator("button.send")).to_have_text("Send hand 1")
    expect(first.locator("button.send")).to_be_enabled()
    phone.unroute(SEND)
    with phone.expect_response(lambda r: r.url.endswith("/hands/")) as answer:
        first.locator("button.send").click()
    assert answer.value.status == 200
    expect(hand(phone, 1)).to_contain_text("Sent. Waiting for the opponents to confirm.")

