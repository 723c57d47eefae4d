"""Backup of an evening played online: the setting (which tables are online, the robot)
and every online table's game (its record, seats and actions) go out with the event, and
an import into an empty database gives identical standings, the same hand histories and
the hands flagged "finished by robots"."""
import json

import pytest
from django.core.management import call_command

from drive.backup.services.backup import export_event, import_event
from drive.events.models import AuditEntry, Event
from drive.games.models import PlayAction, PlaySeat, PlayTable
from drive.scoring.selectors.online_tables import evening_tables
from drive.games.selectors.tables import hand_records
from drive.scoring.services import online_tables as evening
from drive.scoring.models import HandResult, OnlineTables, Standing
from drive.scoring.services import evening as ev
from drive.scoring.services import ranking
from tests.backup.test_export_import import empty_the_database, standings_of
from tests.play.evening_kit import play_hand, seated_evening

pytestmark = pytest.mark.django_db


def online_of(event):
    """The online tables as a reader sees them: ids aside."""
    listing = evening_tables(event=event)
    tables = [{k: v for k, v in t.items() if k not in ("id", "url", "hands_url", "seconds_left")}
              for t in listing["online"]]
    return {**{k: v for k, v in listing.items() if k not in ("event", "online")}, "online": tables}


def games_of(event):
    rows = []
    for table in PlayTable.objects.filter(event=event).order_by("round_number", "table_number"):
        rows.append((table.round_number, table.table_number, table.rules, table.record, table.version, table.phase,
                     table.finished_at is not None,
                     sorted((s.seat, s.robot, s.user.username if s.user else None) for s in table.seats.all()),
                     list(table.actions.order_by("version").values_list("version", "seat", "action", "by_robot")),
                     [h["record"] for h in hand_records(table)]))
    return rows


def test_an_evening_played_online_round_trips(make_event, organiser, tmp_path):
    event = seated_evening(make_event, accounts=(1, 2, 5, 6, 7, 8))
    evening.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[1, 2], robot="rules")
    ev.start_round(actor=organiser, event=event)
    play_hand(PlayTable.objects.get(event=event, table_number=2))  # by its people; the rest robots finish
    ev.end_round(actor=organiser, event=event, force=True)
    ranking.recompute_standings(event_id=event.pk)
    before = {"standings": standings_of(event), "online": online_of(event), "games": games_of(event)}
    assert len(before["standings"]) == 8 and len(before["games"]) == 2
    assert HandResult.objects.filter(round__event=event, change_kind="robots").exists()
    assert before["online"]["online"][1]["finished_by_robots"] == [2]  # table 2's first hand was played by people
    path = tmp_path / "online.json"
    call_command("export_event", str(event.pk), "-o", str(path))
    document = json.loads(path.read_text(encoding="utf-8"))
    assert len(document["rows"]["games.playtable"]) == 2 and document["rows"]["scoring.onlinetables"]
    empty_the_database()
    assert not PlayTable.objects.exists() and not OnlineTables.objects.exists()

    call_command("import_event", str(path))
    copy = Event.objects.get()
    setting = OnlineTables.objects.get(event=copy)
    assert (setting.mode, setting.tables, setting.robot) == ("mixed", [1, 2], "rules")
    assert online_of(copy) == before["online"]
    assert games_of(copy) == before["games"]
    ranking.recompute_standings(event_id=copy.pk)
    assert standings_of(copy) == before["standings"]
    entry = AuditEntry.objects.get(event=copy, action="tables.online")
    assert entry.object_id == str(setting.pk)


def test_a_copy_in_the_same_database_has_tables_of_its_own(make_event, organiser):
    event = seated_evening(make_event)
    evening.set_online_tables(actor=organiser, event=event, mode="online")
    ev.start_round(actor=organiser, event=event)
    copy = import_event(document=export_event(event_id=event.pk))
    assert copy.pk != event.pk
    assert PlayTable.objects.filter(event=copy).count() == PlayTable.objects.filter(event=event).count() == 2
    assert PlaySeat.objects.filter(table__event=copy).count() == 8
    assert PlayAction.objects.filter(table__event=copy).count() == PlayAction.objects.filter(table__event=event).count()
    originals = set(PlayTable.objects.filter(event=event).values_list("invite", flat=True))
    assert not originals & set(PlayTable.objects.filter(event=copy).values_list("invite", flat=True))
    assert Standing.objects.filter(event=copy).count() == Standing.objects.filter(event=event).count()


def test_an_export_from_before_the_games_app_still_imports(make_event, organiser):
    """Exports written before issue 21 name the online tables' rows play.playtable,
    play.playseat and play.playaction: they are read as the games app's."""
    event = seated_evening(make_event, accounts=(1, 2, 5, 6, 7, 8))
    evening.set_online_tables(actor=organiser, event=event, mode="online", robot="rules")
    ev.start_round(actor=organiser, event=event)
    play_hand(PlayTable.objects.get(event=event, table_number=2))  # by its people
    before = games_of(event)
    document = export_event(event_id=event.pk)
    rows = document["rows"]
    for name in ("playtable", "playseat", "playaction"):
        rows[f"play.{name}"] = rows.pop(f"games.{name}")
    assert not any(label.startswith("games.") for label in rows)
    empty_the_database()
    copy = import_event(document=document)
    assert games_of(copy) == before and len(before) == 2
