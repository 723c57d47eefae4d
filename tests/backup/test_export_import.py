"""Backup: a whole evening exported to JSON and imported into an empty
database gives identical standings from the imported rows, with its history kept."""
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from drive.backup.services.backup import export_event, import_event
from drive.core.errors import Invalid
from drive.events.models import AuditEntry, Club, Event, Player
from drive.events.services import events
from drive.live.models import Screen
from drive.live.selectors.screen import chimes, screen_token
from drive.live.services import announcements
from drive.live.services import screen as screens
from drive.scoring.services import evening as ev
from drive.scoring.services import ranking
from drive.scoring.services import results
from drive.scoring.models import HandResult, Standing, Table

pytestmark = pytest.mark.django_db
HISTORY = HandResult.history.model


def play_with_corrections(event, organiser):
    for number in (1, 2):
        table = Table.objects.get(event=event, number=number)
        for hand, ns in ((1, 9), (2, 5)):
            results.correct_result(actor=organiser, table=table, round_number=1, hand_number=hand, ns_tricks=ns,
                                   trump="S", reason="from the paper card")
    table1 = Table.objects.get(event=event, number=1)
    results.correct_result(actor=organiser, table=table1, round_number=1, hand_number=1, ns_tricks=10, trump="S",
                           reason="miscounted the last trick")
    results.apply_revoke_penalty(actor=organiser, table=table1, round_number=1, hand_number=2, offending_side="EW",
                                 reason="revoke in trick 7")
    announcements.announce(actor=organiser, event=event, text="Tea at half time")
    ev.pause_clock(actor=organiser, event=event)
    ranking.recompute_standings(event_id=event.pk)


def standings_of(event):
    """Standings by player name: ids differ after an import, names and numbers do not."""
    return sorted((s.entrant.player.display_name, s.entrant.number, s.place, s.shared, s.total, s.hands_played,
                   s.hands_won, s.sit_out_hands, s.first_half, s.second_half)
                  for s in Standing.objects.filter(event=event).select_related("entrant__player"))


def history_of(event):
    return sorted((h.table.number, h.hand_number, h.ns_tricks, h.history_change_reason or "", h.history_type,
                   h.change_kind, h.history_user.username if h.history_user else "", h.history_date.isoformat())
                  for h in HISTORY.objects.filter(round__event=event).select_related("table", "history_user"))


def audit_of(event):
    return [(a.action, a.actor_label, a.actor.username if a.actor else "", a.before, a.after, a.created_at.isoformat())
            for a in AuditEntry.objects.filter(event=event).select_related("actor").order_by("created_at", "id")]


def empty_the_database():
    HISTORY.objects.all().delete()  # history rows have no cascading foreign key
    Event.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()
    AuditEntry.objects.all().delete()
    get_user_model().objects.all().delete()


def test_export_then_import_into_an_empty_database_keeps_standings_and_history(evening, organiser, tmp_path):
    play_with_corrections(evening, organiser)
    before = {"standings": standings_of(evening), "history": history_of(evening), "audit": audit_of(evening),
              "event": Event.objects.filter(pk=evening.pk).values("title", "phase", "published", "rules_preset",
                                                                     "door_code", "starts_at").get()}
    assert len(before["history"]) >= 6 and any("revoke" in row[3] for row in before["history"])
    path = tmp_path / "evening.json"
    call_command("export_event", str(evening.pk), "-o", str(path))
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == "whist-drive-event" and document["version"] == 1
    assert "password" not in path.read_text()

    empty_the_database()
    assert not HandResult.objects.exists() and not get_user_model().objects.exists()
    call_command("import_event", str(path))

    event = Event.objects.get()
    assert Event.objects.filter(pk=event.pk).values("title", "phase", "published", "rules_preset", "door_code",
                                                    "starts_at").get() == before["event"]
    assert standings_of(event) == before["standings"]  # as stored
    assert history_of(event) == before["history"]  # every correction with its reason, who and when
    assert audit_of(event)[:-1] == before["audit"]
    assert audit_of(event)[-1][:3] == ("event.imported", "", "")  # the restore itself, last
    ranking.recompute_standings(event_id=event.pk)
    assert standings_of(event) == before["standings"]  # recomputed from the imported rows
    organiser_again = get_user_model().objects.get(username="organiser")
    assert not organiser_again.has_usable_password()  # no password travels in an export
    assert event.club.organisers.filter(pk=organiser_again.pk).exists()
    round_ = event.evening_rounds.get(number=1)
    assert round_.paused_at is not None and round_.seats.count() == 9
    assert event.announcements.get().text == "Tea at half time"


def test_importing_beside_the_original_makes_a_copy_with_new_ids_and_secrets(evening, organiser):
    play_with_corrections(evening, organiser)
    copy = import_event(document=json.loads(json.dumps(export_event(event_id=evening.pk))))
    assert copy.pk != evening.pk and copy.club_id == evening.club_id
    assert copy.door_code != Event.objects.get(pk=evening.pk).door_code  # the original's links stay its own
    assert set(copy.tables.values_list("token", flat=True)).isdisjoint(evening.tables.values_list("token", flat=True))
    ranking.recompute_standings(event_id=copy.pk)
    assert standings_of(copy) == standings_of(evening)
    correction = AuditEntry.objects.filter(event=copy, action="result.correction").first()
    assert HandResult.objects.filter(pk=int(correction.object_id), round__event=copy).exists()  # remapped


def test_prizes_travel_with_their_kinds_and_an_old_backup_of_names_still_imports(evening, organiser):
    voucher = {"name": "Regent Street voucher", "kind": "overall"}
    events.update_event(actor=organiser, event=evening, prizes=[voucher, {"name": "Spoon", "kind": "booby"}])
    document = export_event(event_id=evening.pk)
    assert document["rows"]["events.event"][0]["prizes"] == [voucher, {"name": "Spoon", "kind": "booby"}]
    assert import_event(document=json.loads(json.dumps(document))).prizes == [voucher, {"name": "Spoon", "kind": "booby"}]
    # A backup made before prize kinds holds names: each gets the kind it was given then.
    document["rows"]["events.event"][0]["prizes"] = ["First", "Ladies' first", "Booby prize"]
    old = import_event(document=json.loads(json.dumps(document)))
    assert Event.objects.get(pk=old.pk).prizes == [
        {"name": "First", "kind": "overall"}, {"name": "Ladies' first", "kind": "ladies"},
        {"name": "Booby prize", "kind": "booby"}]


def linked_with_chime(event, organiser):
    """The event's screen link and chime on; the document exported, and the link."""
    screens.issue_screen_link(actor=organiser, event=event)
    screens.set_screen_chime(actor=organiser, event=event, chime=True)
    return export_event(event_id=event.pk), screen_token(Event.objects.get(pk=event.pk))


def screen_of(event):
    return Screen.objects.filter(event=event).values_list("token", "chime").get()


def test_the_room_screen_travels_with_its_link_and_chime(client, evening, organiser):
    document, token = linked_with_chime(evening, organiser)
    assert [(row["event_id"], row["token"], row["chime"]) for row in document["rows"]["live.screen"]] == [
        (evening.pk, token, True)]
    copy = import_event(document=json.loads(json.dumps(document)))
    assert chimes(copy) and screen_token(copy) not in (None, token)  # beside the original: a link of its own
    empty_the_database()
    restored = import_event(document=json.loads(json.dumps(document)))
    assert screen_of(restored) == (token, True)  # the projector's link opens the restored evening
    assert client.get(f"/screen/{token}/").status_code == 200


def test_an_older_backup_with_the_screen_on_the_event_still_imports_with_its_chime(client, evening, organiser):
    document, token = linked_with_chime(evening, organiser)
    # Made before the screen had a row of its own: the link and the chime were the event's.
    [screen] = document["rows"].pop("live.screen")
    document["rows"]["events.event"][0].update(screen_token=screen["token"], screen_chime=screen["chime"])
    copy = import_event(document=json.loads(json.dumps(document)))
    assert chimes(copy) and screen_token(copy) not in (None, token)  # a link already held here is made anew
    assert screen_token(Event.objects.get(pk=evening.pk)) == token  # and the original keeps its own
    empty_the_database()
    restored = import_event(document=json.loads(json.dumps(document)))
    assert screen_of(restored) == (token, True)
    assert client.get(f"/screen/{token}/").status_code == 200
    # Older still, from before the chime: the link alone, the chime off.
    del document["rows"]["events.event"][0]["screen_chime"]
    Event.objects.all().delete()
    assert screen_of(import_event(document=json.loads(json.dumps(document)))) == (token, False)


@pytest.mark.parametrize("document", [{}, {"format": "other"}, {"format": "whist-drive-event", "version": 99}])
def test_a_foreign_or_newer_document_is_refused(document):
    with pytest.raises(Invalid):
        import_event(document=document)


def test_organisers_download_the_export_from_the_console_and_the_api(client, api, evening, organiser, make_user,
                                                                     other_club):
    client.force_login(organiser)
    page = client.get(f"/console/events/{evening.pk}/export.json")
    assert page.status_code == 200 and page["Content-Disposition"].startswith("attachment")
    assert json.loads(page.content)["event"] == evening.pk
    api.force_authenticate(organiser)
    assert api.get(f"/api/events/{evening.pk}/export/").json()["format"] == "whist-drive-event"
    assert AuditEntry.objects.filter(event=evening, action="event.exported").count() == 2  # who took the data


def test_the_export_is_refused_to_players_anonymous_and_other_clubs(client, api, evening, make_user, other_club):
    url = f"/api/events/{evening.pk}/export/"
    assert api.get(url).status_code == 403
    for user in (make_user(), other_club.organisers.get()):
        api.force_authenticate(user)
        assert api.get(url).status_code == 403
        client.force_login(user)
        assert client.get(f"/console/events/{evening.pk}/export.json").status_code == 403
    Event.objects.filter(pk=evening.pk).update(published=False)
    assert api.get(url).status_code == 404
    assert not AuditEntry.objects.filter(action="event.exported").exists()
