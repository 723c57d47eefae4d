"""The console's Online tables page in real Chromium: "Tables played online" is shown only
when the evening is mixed (hidden on paper and online, shown as soon as "mixed" is picked,
by a script loaded from a file: the Content-Security-Policy runs no inline script), saving
a mixed evening with "1, 3" works, and a list left typed in when paper is picked again is
dropped. Without JavaScript the field stays in sight."""
import pytest

from drive.scoring.models import OnlineTables
from tests.play.evening_kit import seated_evening

from .conftest import PHONE, WAIT_MS
from .test_play import fetched, signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def setting(event):
    row = OnlineTables.objects.filter(event=event).first()
    return (row.mode, row.tables) if row else None


def test_the_tables_field_shows_only_when_mixed(make_event, organiser, new_page, live_server, shoot):
    from playwright.sync_api import expect

    event = seated_evening(make_event)
    page = signed_in(new_page, live_server, organiser, "organiser")
    page.goto(f"/console/events/{event.pk}/online-tables/")
    field = page.locator("input[name=tables]")
    expect(page.locator("input[name=mode][value=paper]")).to_be_checked()
    expect(field).to_be_hidden()
    page.get_by_label("online", exact=True).check()
    expect(field).to_be_hidden()
    page.get_by_label("mixed: the tables listed online").check()
    expect(field).to_be_visible()
    field.fill("1, 3")
    shoot(page, "online-setting-mixed")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("Saved")
    assert fetched(lambda: setting(event)) == ("mixed", [1, 3])
    expect(page.locator("input[name=mode][value=mixed]")).to_be_checked()
    expect(field).to_be_visible()
    expect(field).to_have_value("1, 3")
    # Back to paper: the field goes out of sight with "1, 3" still in it, and is dropped.
    page.get_by_label("on paper").check()
    expect(field).to_be_hidden()
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("Saved")
    assert fetched(lambda: setting(event)) == ("paper", [])
    expect(field).to_be_hidden()
    expect(field).to_have_value("")


def test_without_javascript_the_field_stays_in_sight(make_event, organiser, browser, live_server):
    from django.test import Client

    event = seated_evening(make_event)
    client = Client()
    client.force_login(organiser)
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, locale="en-GB", java_script_enabled=False)
    try:
        context.set_default_timeout(WAIT_MS)
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
        page = context.new_page()
        page.goto(f"/console/events/{event.pk}/online-tables/")
        assert page.locator("input[name=mode][value=paper]").is_checked()
        assert page.locator("input[name=tables]").is_visible()
    finally:
        context.close()
