"""The evening in a real browser: sign up, register, check in at the console and at the door.

Debian's Chromium via Playwright, against pytest-django's live server, on a phone-sized
viewport (390x844). Screenshots go to test-artifacts/screenshots/.
"""
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone, translation


from drive.events.services import registration as registration_services
from drive.events.models import Club, Event

PASSWORD = "Whist-drive-2026!"


@pytest.fixture
def evening(transactional_db):
    """An event an hour from now (so the door is open), 16 of 32 places taken, one of them Bob's."""
    User = get_user_model()
    organiser = User.objects.create_user("margaret", password=PASSWORD)
    club = Club.objects.create(name="St Mary's Whist Club", slug="st-marys")
    club.organisers.add(organiser)
    event = Event.objects.create(
        club=club, title="Friday Whist Drive", venue="Church hall", capacity=32, published=True,
        starts_at=timezone.now() + timedelta(hours=1), prizes=["First", "Second", "Booby"],
    )
    bob = User.objects.create_user("bob", password=PASSWORD)
    registration_services.register(actor=bob, event=event)
    for i in range(15):
        registration_services.register(actor=User.objects.create_user(f"regular{i}", password=PASSWORD), event=event)
    return event


def assert_fits_phone(page):
    """Nothing sticks out sideways: a phone must not need to scroll left and right."""
    overflow = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
        .map(e => `${e.tagName.toLowerCase()}.${e.className}: ${(e.textContent || '').trim().slice(0, 40)}`)""")
    assert not overflow, f"{page.url} is wider than the phone: {overflow}"


def log_in(page, username, next_url):
    page.goto(f"/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("form button[type=submit]:has-text('Log in')")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_sign_up_register_and_check_in(evening, new_page, shoot):
    # `evening` first: the ORM must run before Playwright starts its event loop in this
    # thread (after, Django opens a stray connection that outlives the test, and
    # broadcasts fail with "cannot use AsyncToSync in the same thread as an event loop").
    from playwright.sync_api import expect

    event_url = f"/events/{evening.pk}/"
    door_url = f"/events/{evening.pk}/door/{evening.door_code}/"

    # --- a new player signs up and lands back on the event -----------------------------
    player = new_page("player")
    player.goto(event_url)
    expect(player.locator(".places strong")).to_have_text("16/32")
    player.click("text=or sign up")
    expect(player).to_have_url(re.compile(r"/accounts/signup/\?next="))
    player.fill("#id_username", "alice")
    player.fill("#id_display_name", "Alice Liddell")
    player.fill("#id_email", "alice@example.org")
    player.fill("#id_password1", PASSWORD)
    player.fill("#id_password2", PASSWORD)
    assert_fits_phone(player)
    shoot(player, "01-signup")
    with player.expect_navigation():
        player.click("text=Create my account")
    expect(player).to_have_url(re.compile(re.escape(event_url) + "$"))

    # --- registers: the places go up and the status shows --------------------------------
    register = player.get_by_role("button", name="Register")
    expect(register).to_be_visible()
    with player.expect_navigation():
        register.click()
    expect(player.locator(".places strong")).to_have_text("17/32")
    expect(player.locator("#my-registration .status")).to_have_text("You are registered.")
    expect(player.locator(".messages")).to_contain_text("You are registered")
    assert_fits_phone(player)
    shoot(player, "02-registered")

    # --- the organiser checks her in from the console (htmx) -----------------------------
    organiser = new_page("organiser")
    log_in(organiser, "margaret", "/console/")
    with organiser.expect_navigation():
        organiser.get_by_role("link", name="Friday Whist Drive").click()
    expect(organiser).to_have_url(re.compile(rf"/console/events/{evening.pk}/$"))
    qr = organiser.locator("img.qr")
    expect(qr).to_be_visible()
    assert qr.evaluate("img => img.complete && img.naturalWidth > 0"), "the door QR code does not load"
    arrivals = organiser.locator("#arrivals strong")
    expect(arrivals).to_have_text("0")
    row = organiser.locator("tr[data-player='Alice Liddell']")
    expect(row).to_contain_text("registered")
    shoot(organiser, "03-console-before")
    with organiser.expect_response(lambda r: "/check-in/" in r.url and r.request.method == "POST") as answer:
        row.get_by_role("button", name="Check in").click()
    assert answer.value.status == 200
    assert answer.value.request.headers.get("hx-request") == "true", "the button should post through htmx"
    expect(arrivals).to_have_text("1")
    expect(organiser.locator("tr[data-player='Alice Liddell']")).to_contain_text("checked in")
    expect(organiser.locator("tr[data-player='Alice Liddell'] button.check-in")).to_have_count(0)
    assert organiser.url.endswith(f"/console/events/{evening.pk}/"), "htmx swaps the list, the page stays"
    shoot(organiser, "04-console-after")

    # --- the player scans the door code: already checked in ------------------------------
    player.goto(door_url)
    expect(player.locator("#check-in-result")).to_contain_text("Already checked in")
    assert_fits_phone(player)
    shoot(player, "05-door-already")

    # --- another registered player checks in at the door, then scans again -----------------
    bob = new_page("bob")
    bob.goto(door_url)
    expect(bob).to_have_url(re.compile(r"/accounts/login/\?next="))  # the door asks who you are
    bob.fill("#id_username", "bob")
    bob.fill("#id_password", PASSWORD)
    with bob.expect_navigation():
        bob.click("form button[type=submit]:has-text('Log in')")
    expect(bob.locator("#check-in-result")).to_contain_text("Welcome, bob: you are checked in.")
    shoot(bob, "06-door-welcome")
    bob.reload()
    expect(bob.locator("#check-in-result")).to_contain_text("Already checked in")

    organiser.reload()
    expect(organiser.locator("#arrivals strong")).to_have_text("2")

    # --- the player switches the language to Russian -------------------------------------
    player.goto(event_url)
    with player.expect_navigation():
        player.select_option("#language", "ru")
    expect(player.locator("html")).to_have_attribute("lang", "ru")
    with translation.override("ru"):
        places_taken = translation.gettext("places taken")
    if places_taken != "places taken":  # the ru catalogue is compiled: the words are too
        expect(player.locator(".places")).to_contain_text(places_taken)
        expect(player.locator("body")).not_to_contain_text("places taken")
    expect(player.locator(".places strong")).to_have_text("17/32")
    assert_fits_phone(player)
    shoot(player, "07-event-ru")


@pytest.mark.django_db
@pytest.mark.parametrize("next_url", ["https://evil.example/", "//evil.example/x", "/events/1/"])
def test_sign_up_only_follows_next_within_the_site(client, next_url):
    response = client.post(f"/accounts/signup/?next={next_url}", {
        "username": "carol", "display_name": "Carol", "email": "", "password1": PASSWORD, "password2": PASSWORD,
    })
    assert response.status_code == 302
    assert response["Location"] == (next_url if next_url.startswith("/events/") else "/me/")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_console_list_fits_a_phone_in_russian_and_ukrainian(evening, new_page, shoot):
    """Once the evening is under way, a player not come yet has three buttons on their row
    (check in, no-show, cancel), wider in Russian and Ukrainian than in English: they wrap,
    and the organiser's phone never scrolls sideways. So does the console's list of events,
    each with its stage under its title (the longest words: "results published")."""
    from playwright.sync_api import expect

    Event.objects.filter(pk=evening.pk).update(phase=Event.Phase.IN_PROGRESS)
    Event.objects.create(club=evening.club, title="Harvest Supper Whist Drive", venue="Church hall", capacity=32,
                         published=True, starts_at=timezone.now() - timedelta(days=7),
                         phase=Event.Phase.RESULTS_PUBLISHED)
    desk = new_page("organiser")
    log_in(desk, "margaret", f"/console/events/{evening.pk}/")
    for lang in ("ru", "uk"):
        with desk.expect_navigation():
            desk.select_option("#language", lang)
        expect(desk.locator("html")).to_have_attribute("lang", lang)
        expect(desk.locator("tr.status-registered").first.locator("td.row-actions button")).to_have_count(3)
        assert_fits_phone(desk)
        shoot(desk, f"08-console-{lang}")
        desk.goto("/console/")
        with translation.override(lang):
            stages = [translation.gettext(label).capitalize() for label in ("in progress", "results published")]
        expect(desk.locator("table.list small.stage")).to_have_text(stages)  # tonight's first, then the past
        assert_fits_phone(desk)
        shoot(desk, f"08-console-list-{lang}")
        desk.goto(f"/console/events/{evening.pk}/")
