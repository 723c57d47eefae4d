"""Prizes as data (rule D4): each a name and a kind the organiser chose, through the
service, the API, the console's form, the audit log and the conversion of saved names."""
import importlib
import threading

import pytest
from django.apps import apps
from django.urls import reverse
from rest_framework.authtoken.models import Token

from drive.core.errors import Invalid
from drive.events.services import events as services
from drive.events.services.audit import readable_changes
from drive.events.models import AuditEntry, Event
from tests.browser.conftest import browser, new_page, shoot  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db

VOUCHER = {"name": "Regent Street voucher", "kind": "overall"}


def login(api, user):
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return api


# --- the service -------------------------------------------------------------------------


def test_the_service_keeps_each_prize_with_its_kind(event, organiser):
    prizes = [{"name": " First ", "kind": "overall"}, VOUCHER, {"name": "Wooden spoon", "kind": "booby"}]
    changed = services.update_event(actor=organiser, event=event, prizes=prizes)
    assert Event.objects.get(pk=changed.pk).prizes == [
        {"name": "First", "kind": "overall"}, VOUCHER, {"name": "Wooden spoon", "kind": "booby"}]


@pytest.mark.parametrize("prizes, says", [
    (["First"], "Prize 1: give a name and a kind."),
    ([{"name": "First", "kind": "best"}], "Prize 1: the kind must be one of"),
    ([VOUCHER, {"name": " ", "kind": "booby"}], "Prize 2: give it a name."),
    ([{"name": "x" * 81, "kind": "booby"}], "under 80 characters"),
    ([{"name": "First", "kind": "overall", "winner": 3}], "Prize 1: give a name and a kind."),
    ({"name": "First"}, "a list of prizes"),
])
def test_the_service_refuses_a_prize_without_a_known_kind_or_a_name(event, organiser, prizes, says):
    with pytest.raises(Invalid, match=says) as refused:
        services.update_event(actor=organiser, event=event, prizes=prizes)
    assert refused.value.field == "prizes"
    assert Event.objects.get(pk=event.pk).prizes == []


# --- the API -----------------------------------------------------------------------------


def test_the_api_reads_and_writes_prizes_as_name_and_kind(api, event, organiser):
    login(api, organiser)
    url = f"/api/events/{event.pk}/"
    answer = api.patch(url, {"prizes": [VOUCHER, {"name": "Spoon", "kind": "booby"}]}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["prizes"] == [VOUCHER, {"name": "Spoon", "kind": "booby"}]
    assert api.get(url).json()["prizes"] == [VOUCHER, {"name": "Spoon", "kind": "booby"}]


def test_the_api_answers_a_bad_kind_with_400_on_the_field(api, event, organiser):
    login(api, organiser)
    url = f"/api/events/{event.pk}/"
    bad = api.patch(url, {"prizes": [VOUCHER, {"name": "Spoon", "kind": "wooden"}]}, format="json")
    assert bad.status_code == 400
    assert "kind" in bad.json()["prizes"]["1"] and "wooden" in bad.json()["prizes"]["1"]["kind"][0]
    names_only = api.patch(url, {"prizes": ["First"]}, format="json")
    assert names_only.status_code == 400 and "0" in names_only.json()["prizes"]
    assert Event.objects.get(pk=event.pk).prizes == []


def test_the_api_reads_a_row_saved_before_kinds_with_the_kind_it_had(api, event):
    Event.objects.filter(pk=event.pk).update(prizes=["First", "Booby prize"])
    assert api.get(f"/api/events/{event.pk}/").json()["prizes"] == [
        {"name": "First", "kind": "overall"}, {"name": "Booby prize", "kind": "booby"}]


# --- the console's form ------------------------------------------------------------------


def form_data(client, url):
    """What the browser posts back: every field as the page shows it, the prize rows included."""
    form = client.get(url).context["form"]
    data = {name: form[name].value() if form[name].value() is not None else "" for name in form.fields}
    rows = form.prize_rows
    data.update({f"{rows.prefix}-TOTAL_FORMS": len(rows.forms), f"{rows.prefix}-INITIAL_FORMS": rows.initial_form_count(),
                 f"{rows.prefix}-MIN_NUM_FORMS": 0, f"{rows.prefix}-MAX_NUM_FORMS": 50})
    for i, row in enumerate(rows.forms):
        data[f"{rows.prefix}-{i}-name"] = row["name"].value() or ""
        data[f"{rows.prefix}-{i}-kind"] = row["kind"].value() or "overall"
    data["starts_at"] = form.instance.starts_at.strftime("%Y-%m-%dT%H:%M")
    return data


def test_the_console_sets_the_kind_of_each_prize_on_its_own_row(client, event, organiser):
    client.force_login(organiser)
    url = reverse("console-event-edit", args=[event.pk])
    page = client.get(url).content.decode()
    assert page.count('class="prize-row"') == 3  # three empty rows to fill in
    assert '<option value="half_time">half-time</option>' in page
    data = form_data(client, url)
    data.update({"prize-0-name": "First", "prize-0-kind": "overall",
                 "prize-1-name": "Regent Street voucher", "prize-1-kind": "overall",
                 "prize-2-name": "Wooden spoon", "prize-2-kind": "booby"})
    assert client.post(url, data).status_code == 302
    assert Event.objects.get(pk=event.pk).prizes == [
        {"name": "First", "kind": "overall"}, VOUCHER, {"name": "Wooden spoon", "kind": "booby"}]

    page = client.get(url).content.decode()
    assert page.count('class="prize-row"') == 6  # the three prizes, and three empty rows
    assert 'value="Regent Street voucher"' in page
    data = form_data(client, url)
    data["prize-0-name"] = ""  # a cleared name removes that prize
    data["prize-2-kind"] = "half_time"
    assert client.post(url, data).status_code == 302
    assert Event.objects.get(pk=event.pk).prizes == [VOUCHER, {"name": "Wooden spoon", "kind": "half_time"}]


def test_the_console_shows_a_bad_prize_row_and_keeps_the_event(client, event, organiser):
    client.force_login(organiser)
    url = reverse("console-event-edit", args=[event.pk])
    data = form_data(client, url)
    data.update({"prize-0-name": "x" * 81, "prize-0-kind": "overall", "prize-1-name": "Spoon", "prize-1-kind": "?"})
    page = client.post(url, data)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Check the prizes below." in html and "at most 80 characters" in html and "not one of the available" in html
    assert Event.objects.get(pk=event.pk).prizes == []


def test_the_console_creates_an_event_with_its_prizes(client, club, organiser):
    client.force_login(organiser)
    url = reverse("console-event-create", args=[club.pk])
    data = {"title": "New drive", "starts_at": "2030-05-01T19:00", "capacity": 24, "rounds": 6, "hands_per_round": 3,
            "round_minutes": 20, "movement_kind": "progressive", "rules_preset": "drive", "trump_rule": "turned_up",
            "scoring_rule": "tricks", "tie_break_rule": "hands_won", "result_confirmation": "opponents",
            "sit_out_score": "own_average", "progressive_convention": "winners_move", "missed_rounds": "not_eligible",
            "prize-TOTAL_FORMS": 3, "prize-INITIAL_FORMS": 0, "prize-MIN_NUM_FORMS": 0, "prize-MAX_NUM_FORMS": 50,
            "prize-0-name": "Ladies' first", "prize-0-kind": "ladies", "prize-1-name": "", "prize-1-kind": "overall",
            "prize-2-name": "Gents' first", "prize-2-kind": "gents"}
    assert client.post(url, data).status_code == 302
    assert Event.objects.get(title="New drive").prizes == [
        {"name": "Ladies' first", "kind": "ladies"}, {"name": "Gents' first", "kind": "gents"}]


# --- the audit log and the names saved before kinds -------------------------------------------


def test_the_audit_log_reads_a_prize_as_its_name_and_kind(event, organiser):
    services.update_event(actor=organiser, event=event, prizes=[VOUCHER])
    entry = AuditEntry.objects.filter(event=event, action="event.changed").latest("id")
    shown = {label: (old, new) for label, old, new in readable_changes(entry=entry)}
    assert shown["prizes"] == ("", "Regent Street voucher (overall)")


def test_the_migration_gives_saved_names_the_kind_they_were_shown_with(make_event):
    """Nothing saved is lost: names become {name, kind} with the guess the results page made."""
    migration = importlib.import_module("drive.events.migrations.0009_prize_kinds")
    old = make_event(prizes=["First prize", "Ladies' first", "Regent Street voucher", "Half-time", "Wooden spoon booby"])
    new = make_event(prizes=[VOUCHER])
    migration.names_to_prizes(apps, None)
    assert Event.objects.get(pk=old.pk).prizes == [
        {"name": "First prize", "kind": "overall"}, {"name": "Ladies' first", "kind": "ladies"},
        {"name": "Regent Street voucher", "kind": "gents"}, {"name": "Half-time", "kind": "half_time"},
        {"name": "Wooden spoon booby", "kind": "booby"}]
    assert Event.objects.get(pk=new.pk).prizes == [VOUCHER]
    migration.prizes_to_names(apps, None)
    assert Event.objects.get(pk=old.pk).prizes[2] == "Regent Street voucher"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_prize_rows_on_a_phone(event, organiser, new_page, shoot):
    """A name and a select per prize, side by side or stacked, nothing wider than the phone."""
    from django.db import connection
    from playwright.sync_api import expect

    event_id = event.pk
    connection.close()  # Playwright's loop runs in this thread from here on
    page = new_page("organiser")
    page.goto(f"/accounts/login/?next=/console/events/{event_id}/edit/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", "pw-Whist-2026")
    with page.expect_navigation():
        page.click("form button[type=submit]:has-text('Log in')")
    rows = page.locator(".prize-row")
    expect(rows).to_have_count(3)
    rows.nth(0).get_by_label("Prize 1: name").fill("Regent Street voucher")
    rows.nth(0).get_by_label("Prize 1: goes to").select_option("overall")
    rows.nth(1).get_by_label("Prize 2: name").fill("Wooden spoon")
    rows.nth(1).get_by_label("Prize 2: goes to").select_option(label="booby")
    assert page.evaluate("""() => [...document.querySelectorAll('.prize-rows, .prize-rows *')]
        .every(e => e.getBoundingClientRect().right <= innerWidth + 1)""")
    box = rows.nth(0).get_by_label("Prize 1: goes to").bounding_box()
    assert box["height"] >= 30 and box["width"] >= 100  # a select a thumb can use
    shoot(page, "console-prize-rows")
    with page.expect_navigation():
        page.click("form button[type=submit]:has-text('Save')")
    expect(page.locator(".messages")).to_contain_text("Saved.")
    stored = []

    def read():  # in a thread of its own, which closes its connection
        try:
            stored.append(Event.objects.get(pk=event_id).prizes)
        finally:
            connection.close()

    reader = threading.Thread(target=read)
    reader.start()
    reader.join(30)
    assert stored == [[VOUCHER, {"name": "Wooden spoon", "kind": "booby"}]]
