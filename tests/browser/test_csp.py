"""Under the Content-Security-Policy the pages still work: the Swagger UI, the
language switch, the console's "find a player" box and a confirmation before a form is
sent, all without inline script (the `new_page` fixture fails on any CSP violation)."""
import pytest
from django.contrib.auth import get_user_model


from drive.events.services import registration as registration_services

pytestmark = pytest.mark.browser
PASSWORD = "Whist-drive-2026!"


def log_in(page, username):
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()


def test_the_api_docs_render_under_their_policy(new_page, transactional_db):
    page = new_page("reader")
    page.goto("/api/docs/")
    page.wait_for_selector(".opblock", timeout=15_000)
    assert page.locator(".opblock").count() >= 15


def test_the_language_switch_submits_by_itself(new_page, transactional_db):
    page = new_page("visitor")
    page.goto("/accounts/login/")
    with page.expect_navigation():
        page.select_option("#language", "ru")
    assert page.locator("html").get_attribute("lang") == "ru"


def test_find_a_player_and_confirm_before_no_shows(new_page, transactional_db, make_event, organiser):
    from playwright.sync_api import expect

    organiser.set_password(PASSWORD)
    organiser.save()
    event = make_event()
    User = get_user_model()
    for name in ("alice", "bertie", "carol"):
        registration_services.register(actor=User.objects.create_user(name, password=PASSWORD), event=event)
    page = new_page("organiser")
    log_in(page, "organiser")
    page.goto(f"/console/events/{event.pk}/")
    page.fill("#find-player", "bert")
    expect(page.locator("tr[data-player]:visible")).to_have_count(1)
    dialogs = []
    page.once("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.click(f"form[data-confirm][action='/console/events/{event.pk}/no-shows/'] button[type=submit]")
    assert dialogs and "no-show" in dialogs[0]
    assert page.url.endswith(f"/console/events/{event.pk}/")  # dismissed: nothing sent
