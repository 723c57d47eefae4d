"""The audit log in the console and the API: organisers only, newest first, paged."""
import pytest
from django.urls import reverse

from drive.events.services import events as services

from drive.events.services import arrivals as arrival_services
from drive.events.services.audit import log_action
from drive.events.models import Event
from drive.live.selectors.screen import screen_token
from drive.live.services import screen

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged(event, organiser):
    services.update_event(actor=organiser, event=event, title="Friday Drive (moved)", venue="Church hall")
    arrival_services.add_walk_in(actor=organiser, event=event, display_name="Walk In")
    screen.issue_screen_link(actor=organiser, event=event)
    return event


def test_api_lists_the_log_newest_first_with_before_and_after(api, logged, organiser):
    api.force_authenticate(organiser)
    body = api.get(f"/api/events/{logged.pk}/audit/").json()
    assert body["count"] == 3 and body["page"] == 1
    actions = [e["action"] for e in body["results"]]
    assert actions == ["screen.link_issued", "registration.walk_in_added", "event.changed"]
    changed = body["results"][2]
    assert changed["before"] == {"title": "Friday Drive", "venue": "Hall"}
    assert changed["after"] == {"title": "Friday Drive (moved)", "venue": "Church hall"}
    assert changed["actor_label"] == "organiser" and changed["action_display"] == "settings changed"
    assert "screen_token" not in str(body)  # the screen link is a key: never in the log
    token = screen_token(Event.objects.get(pk=logged.pk))
    assert token and token not in str(body)


def test_api_pages_fifty_at_a_time(api, event, organiser):
    for i in range(51):
        log_action(actor=organiser, event=event, action="announcement.made", after={"text": f"line {i}"})
    api.force_authenticate(organiser)
    first, second = (api.get(f"/api/events/{event.pk}/audit/", {"page": n}).json() for n in (1, 2))
    assert (first["count"], first["pages"], len(first["results"]), len(second["results"])) == (51, 2, 50, 1)
    assert first["results"][0]["after"] == {"text": "line 50"} and second["results"][0]["after"] == {"text": "line 0"}


def test_api_refuses_players_anonymous_and_other_clubs(api, logged, make_user, other_club):
    url = f"/api/events/{logged.pk}/audit/"
    assert api.get(url).status_code == 403  # anonymous: not an organiser
    api.force_authenticate(make_user())
    assert api.get(url).status_code == 403
    api.force_authenticate(other_club.organisers.get())
    assert api.get(url).status_code == 403
    Event.objects.filter(pk=logged.pk).update(published=False)
    assert api.get(url).status_code == 404  # unpublished: not even seen
    assert api.get("/api/events/999999/audit/").status_code == 404


def test_console_page_shows_who_what_and_before_after(client, logged, organiser):
    client.force_login(organiser)
    page = client.get(reverse("console-audit", args=[logged.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert html.index("screen link issued") < html.index("walk-in added") < html.index("settings changed")
    assert "Friday Drive → <strong>Friday Drive (moved)</strong>" in html
    assert 'data-label="Who"' in html  # the phone layout labels each cell
    arrivals = client.get(reverse("console-event", args=[logged.pk])).content.decode()
    assert reverse("console-audit", args=[logged.pk]) in arrivals


def test_console_page_is_for_organisers_only(client, logged, make_user, other_club):
    url = reverse("console-audit", args=[logged.pk])
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and anonymous.url.startswith(reverse("login"))
    client.force_login(make_user())
    assert client.get(url).status_code == 403
    client.force_login(other_club.organisers.get())
    assert client.get(url).status_code == 403


def test_the_schema_documents_the_audit_endpoint(api):
    schema = api.get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/events/{event_id}/audit/"]["get"]
    assert {"200", "403", "404"} <= set(operation["responses"])


def test_a_new_door_code_stops_the_old_one_and_is_logged_without_the_code(client, api, event, organiser, make_user):
    old = event.door_code
    client.force_login(organiser)
    assert client.post(reverse("console-door-code", args=[event.pk])).status_code == 302
    new = Event.objects.get(pk=event.pk).door_code
    assert new != old
    player = make_user()
    api.force_authenticate(player)
    # The old code checks nobody in any more (404 before anything else is looked at).
    assert api.post(f"/api/events/{event.pk}/check-in/", {"door_code": old}, format="json").status_code == 404
    assert api.post(f"/api/events/{event.pk}/door-code/").status_code == 403  # a player may not reissue it
    entry = event.audit_entries.get(action="event.door_code_reissued")
    assert old not in str(entry.after) and new not in str(entry.after) and entry.actor == organiser
    api.force_authenticate(organiser)
    assert api.post(f"/api/events/{event.pk}/door-code/").status_code == 200
    assert Event.objects.get(pk=event.pk).door_code != new


def test_a_correction_reads_as_its_hand_with_its_reason(client, evening, organiser):
    from drive.scoring.services import results
    from drive.scoring.models import Table

    table = Table.objects.get(event=evening, number=1)
    results.correct_result(actor=organiser, table=table, round_number=1, hand_number=2, ns_tricks=8, trump="S",
                           reason="card misread")
    registration = arrival_services.add_walk_in(actor=organiser, event=evening, display_name="Late Lucy")
    client.force_login(organiser)
    html = client.get(reverse("console-audit", args=[evening.pk])).content.decode()
    assert "result corrected</strong> · Round 1 · table 1 · hand 2" in html
    # fields by their names in the interface (the hand's own), not the stored codes
    assert "reason: — → <strong>card misread</strong>" in html and "N-S tricks: — → <strong>8</strong>" in html
    assert "ns_tricks:" not in html
    assert "walk-in added</strong> · Late Lucy" in html
    assert evening.audit_entries.get(action="registration.walk_in_added").object_id == str(registration.pk)


def test_the_console_shows_fields_by_their_names_and_values_as_people_read_them():
    """The page reads "rounds: 6 -> 8", "phase: registration -> in progress" and local times,
    not the stored field codes and ISO text (the API keeps those)."""
    from datetime import datetime, timezone as tz

    from drive.events.services.audit import readable_changes
    from drive.events.models import AuditEntry

    entry = AuditEntry(action="event.changed", object_type="events.event",
                       before={"hands_per_round": 4, "phase": "registration", "published": False,
                               "starts_at": datetime(2026, 11, 30, 19, 30, tzinfo=tz.utc).isoformat(),
                               "prizes": ["First"]},
                       after={"hands_per_round": 6, "phase": "in_progress", "published": True,
                              "starts_at": datetime(2026, 11, 30, 20, 0, tzinfo=tz.utc).isoformat(),
                              "prizes": ["First", "Booby"]})
    shown = {label: (old, new) for label, old, new in readable_changes(entry=entry)}
    assert shown["hands per round"] == (4, 6)
    assert [str(v) for v in shown["phase"]] == ["before the evening", "in progress"]
    assert [str(v) for v in shown["published"]] == ["no", "yes"]
    assert shown["starts at"] == ("30 Nov 2026 19:30", "30 Nov 2026 20:00")  # Europe/London in November
    assert shown["prizes"] == ("First", "First, Booby")
