"""The player's own page once the results are published: the final place and total and the
prizes they won, no longer "Scores so far" (rule D4)."""
from decimal import Decimal

import pytest
from django.db import connection

from drive.events.models import Event
from tests.browser.conftest import browser, new_page, shoot  # noqa: F401  (fixtures)

from .test_results_pages import played, publish  # noqa: F401 (a fixture)

# The played evening: P5, P7 share first (15, most hands won); P1, P3 at 3= (15) take the
# second prize; the first half's best P1, P3, P5 and P7 share the half-time prize; P9 sat
# out (13), fifth, wins nothing.


def page_of(client, user, event):
    client.force_login(user)
    return client.get(f"/events/{event.pk}/my-evening/").content.decode()


@pytest.mark.django_db
def test_before_publication_the_page_says_scores_so_far_and_no_prize(client, played):
    html = page_of(client, played["users"]["P1"], played["event"])
    assert "Scores so far" in html and "Your total" in html
    assert "Your final result" not in html and "Your prize" not in html


@pytest.mark.django_db
def test_the_winner_reads_the_final_place_total_and_prizes(client, played):
    event = played["event"]
    publish(event)
    html = page_of(client, played["users"]["P1"], event)
    assert "Scores so far" not in html and "Your total" not in html
    assert "Your final result" in html and "Scores, hand by hand" in html
    assert "this is your final place and total" in html
    assert html.index("Your final result") < html.index("This round")  # first thing on the page
    result = html.split("Your final result")[1].split("</section>")[0]
    assert "<strong>3=</strong> place of 9" in result and "<strong>15</strong> total" in result
    prizes = result.split('class="prize-won big">')[1].split("</p>")[0]
    assert prizes.startswith("Your prizes:")
    assert "<strong>Second</strong>" in prizes and "<strong>Half-time</strong>" in prizes
    assert "First" not in prizes and "Booby" not in prizes


@pytest.mark.django_db
def test_a_player_without_a_prize_reads_the_final_place_only(client, played):
    event = played["event"]
    publish(event)
    html = page_of(client, played["users"]["P9"], event)
    result = html.split("Your final result")[1].split("</section>")[0]
    assert "<strong>5</strong> place of 9" in result and "<strong>13</strong> total" in result
    assert "Your prize" not in result


@pytest.mark.django_db
def test_the_api_says_final_and_the_prizes_won(api, played):
    event = played["event"]
    api.force_authenticate(played["users"]["P1"])
    body = api.get(f"/api/events/{event.pk}/my-evening/").json()
    assert body["final"] is False and body["prizes_won"] == []
    publish(event)
    body = api.get(f"/api/events/{event.pk}/my-evening/").json()
    assert body["final"] is True and (body["place"], body["shared"], Decimal(body["total"])) == (3, True, 15)
    assert [(p["name"], p["kind"], p["shared"]) for p in body["prizes_won"]] == [
        ("Second", "overall", True), ("Half-time", "half_time", True)]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_winner_sees_the_prize_on_a_phone(played, new_page, shoot):
    from playwright.sync_api import expect

    event = played["event"]
    Event.objects.filter(pk=event.pk).update(phase=Event.Phase.RESULTS_PUBLISHED)
    connection.close()  # Playwright's loop runs in this thread from here on
    page = new_page("P1")
    page.goto(f"/accounts/login/?next=/events/{event.pk}/my-evening/")
    page.fill("#id_username", "p1")
    page.fill("#id_password", "pw-Whist-2026")
    with page.expect_navigation():
        page.click("form button[type=submit]:has-text('Log in')")
    result = page.locator(".final-result")
    expect(result.locator("h2")).to_have_text("Your final result")
    expect(result.locator(".prize-won")).to_contain_text("Your prizes: Second")
    expect(result.locator(".prize-won")).to_be_in_viewport()
    expect(page.get_by_text("Scores so far")).to_have_count(0)
    assert page.evaluate("""() => [...document.querySelectorAll('body *')]
        .every(e => e.getBoundingClientRect().right <= innerWidth + 1)""")
    shoot(page, "results-my-evening-final")
