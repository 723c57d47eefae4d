"""The console's seasons of a club: a list, create, edit, delete through the seasons'
services, the API's messages beside each field; its organisers only."""
import re
from html import unescape

import pytest

from drive.events.models import AuditEntry, Event
from drive.seasons.models import Season
from tests.seasons.conftest import local, one_table

pytestmark = pytest.mark.django_db

FORM = {"name": "Winter 2026", "starts_on": "2026-12-01", "ends_on": "2027-02-28", "score": "placing_points",
        "placing_points": "10, 8, 6, 5, 4, 3, 2, 1", "best_of": "6", "min_evenings": "3"}
BODY = {"name": "Winter 2026", "starts_on": "2026-12-01", "ends_on": "2027-02-28", "score": "placing_points",
        "placing_points": [10, 8, 6, 5, 4, 3, 2, 1], "best_of": 6, "min_evenings": 3}


@pytest.fixture
def console(client, organiser):
    client.force_login(organiser)
    return client


def field_errors(html):
    """{field: [message]} as the form shows them beside its fields."""
    found = {}
    for field, block in re.findall(r'data-field-errors="(\w+)">(.*?)</div>', html, re.S):
        found[field] = [unescape(m) for m in re.findall(r"<li>(.*?)</li>", block, re.S)]
    return found


def test_the_console_leads_to_the_clubs_seasons(console, club):
    html = console.get("/console/").content.decode()
    assert f'href="/console/clubs/{club.pk}/seasons/"' in html and "Seasons of St Mary&#x27;s" in html
    page = console.get(f"/console/clubs/{club.pk}/seasons/")
    assert page.status_code == 200 and "No season yet." in page.content.decode()


def test_an_organiser_creates_a_season_from_the_console(console, club, organiser):
    form = console.get(f"/console/clubs/{club.pk}/seasons/new/")
    assert form.status_code == 200 and 'type="date"' in form.content.decode()
    response = console.post(f"/console/clubs/{club.pk}/seasons/new/", FORM, follow=True)
    assert response.redirect_chain[-1][0] == f"/console/clubs/{club.pk}/seasons/"
    season = Season.objects.get()
    assert (season.club, season.name, season.placing_points, season.best_of, season.min_evenings) == (
        club, "Winter 2026", [10, 8, 6, 5, 4, 3, 2, 1], 6, 3)
    html = response.content.decode()
    assert "The season Winter 2026 is created." in html
    assert f'href="/seasons/{season.pk}/"' in html and f'href="/seasons/{season.pk}/screen/"' in html
    assert f'href="/console/seasons/{season.pk}/edit/"' in html
    assert AuditEntry.objects.get(action="season.created").actor == organiser


def test_empty_numbers_mean_every_evening_and_points_only_when_placings_score(console, club):
    response = console.post(f"/console/clubs/{club.pk}/seasons/new/", {
        **FORM, "score": "total", "placing_points": "", "best_of": "", "min_evenings": "1"})
    assert response.status_code == 302
    season = Season.objects.get()
    assert (season.score, season.placing_points, season.best_of) == ("total", [], None)


@pytest.mark.parametrize("change, body_change, field", [
    ({"ends_on": "2026-11-30"}, {"ends_on": "2026-11-30"}, "ends_on"),
    ({"placing_points": ""}, {"placing_points": []}, "placing_points"),
    ({"placing_points": "5, 8, 6"}, {"placing_points": [5, 8, 6]}, "placing_points"),
    ({"placing_points": "10, -1"}, {"placing_points": [10, -1]}, "placing_points"),
    ({"placing_points": "10, eight"}, {"placing_points": [10, "eight"]}, "placing_points"),
    ({"best_of": "0"}, {"best_of": 0}, "best_of"),
    ({"min_evenings": "0"}, {"min_evenings": 0}, "min_evenings"),
    ({"starts_on": "1999-12-31"}, {"starts_on": "1999-12-31"}, "starts_on"),
    ({"name": "   "}, {"name": "\u200b"}, "name"),
])
def test_bad_settings_show_the_apis_message_beside_the_field(console, api, organiser, club, change, body_change,
                                                             field):
    response = console.post(f"/console/clubs/{club.pk}/seasons/new/", {**FORM, **change})
    assert response.status_code == 400
    shown = field_errors(response.content.decode())
    api.force_authenticate(organiser)
    answer = api.post(f"/api/clubs/{club.pk}/seasons/", {**BODY, **body_change}, format="json")
    assert answer.status_code == 400
    if field != "name":  # the API refuses an invisible name; the console's blank one is the service's
        assert shown[field] == answer.json()[field], (shown, answer.json())
    else:
        assert shown["name"] == ["Enter a name."]
    assert not Season.objects.exists()
    assert 'value="2027-02-28"' in response.content.decode() or field == "ends_on"  # what was typed stays


def test_every_wrong_field_has_its_message(console, club):
    response = console.post(f"/console/clubs/{club.pk}/seasons/new/", {
        **FORM, "ends_on": "2026-01-01", "best_of": "0", "placing_points": "1, 2"})
    assert set(field_errors(response.content.decode())) == {"ends_on", "best_of", "placing_points"}


def test_an_unknown_score_is_the_apis_message_too(console, club):
    response = console.post(f"/console/clubs/{club.pk}/seasons/new/", {**FORM, "score": "masterpoints"})
    assert field_errors(response.content.decode())["score"] == [
        "Choose how an evening scores: placing_points, total or average."]


def test_editing_changes_only_what_changed(console, club, make_season):
    season = make_season(best_of=6)
    form = console.get(f"/console/seasons/{season.pk}/edit/").content.decode()
    assert 'value="10, 8, 6, 5, 4, 3, 2, 1"' in form and 'value="Winter 2026"' in form
    response = console.post(f"/console/seasons/{season.pk}/edit/", {
        **FORM, "name": "Winter", "best_of": "", "min_evenings": "1"})
    assert response.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.best_of) == ("Winter", None)
    entry = AuditEntry.objects.get(action="season.changed")
    assert entry.before == {"name": "Winter 2026", "best_of": 6} and entry.after == {"name": "Winter", "best_of": None}
    bad = console.post(f"/console/seasons/{season.pk}/edit/", {**FORM, "ends_on": "2020-01-01"})
    assert bad.status_code == 400 and "The season cannot end before it starts." in bad.content.decode()
    season.refresh_from_db()
    assert season.ends_on.isoformat() == "2027-02-28"


def test_deleting_keeps_the_evenings(console, club, make_season, play, people):
    season = make_season()
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    event = play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30))
    page = console.get(f"/console/clubs/{club.pk}/seasons/").content.decode()
    assert f'action="/console/seasons/{season.pk}/delete/"' in page and "data-confirm" in page
    assert console.get(f"/console/seasons/{season.pk}/delete/").status_code == 405
    response = console.post(f"/console/seasons/{season.pk}/delete/", follow=True)
    assert "The season Winter 2026 is deleted; its evenings stay as they are." in response.content.decode()
    assert not Season.objects.exists() and Event.objects.filter(pk=event.pk).exists()
    assert AuditEntry.objects.filter(action="season.deleted").count() == 1
    assert console.post(f"/console/seasons/{season.pk}/delete/").status_code == 404


@pytest.mark.parametrize("who", ["player", "other club's organiser"])
def test_only_the_clubs_organisers(client, club, other_club, make_user, make_season, who):
    season = make_season()
    client.force_login(make_user("player") if who == "player" else other_club.organisers.get())
    for url in (f"/console/clubs/{club.pk}/seasons/", f"/console/clubs/{club.pk}/seasons/new/",
                f"/console/seasons/{season.pk}/edit/"):
        assert client.get(url).status_code == 403, url
    assert client.post(f"/console/clubs/{club.pk}/seasons/new/", FORM).status_code == 403
    assert client.post(f"/console/seasons/{season.pk}/edit/", {**FORM, "name": "Mine"}).status_code == 403
    assert client.post(f"/console/seasons/{season.pk}/delete/").status_code == 403
    assert list(Season.objects.values_list("name", flat=True)) == ["Winter 2026"]
    assert not AuditEntry.objects.exclude(action="season.created").exists()


def test_the_other_clubs_organiser_sees_only_their_own(client, club, other_club, make_season):
    make_season()
    client.force_login(other_club.organisers.get())
    html = client.get(f"/console/clubs/{other_club.pk}/seasons/").content.decode()
    assert "Winter 2026" not in html and "No season yet." in html


def test_anonymous_is_sent_to_log_in(client, club, make_season):
    season = make_season()
    for url in (f"/console/clubs/{club.pk}/seasons/", f"/console/seasons/{season.pk}/edit/"):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post(f"/console/seasons/{season.pk}/delete/").status_code == 302
    assert Season.objects.exists()


def test_unknown_ones_are_404(console):
    assert console.get("/console/clubs/999999/seasons/").status_code == 404
    assert console.get("/console/seasons/999999/edit/").status_code == 404
