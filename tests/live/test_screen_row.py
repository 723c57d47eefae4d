"""The room's screen keeps its link and chime in a row of its own (live.Screen): the
migrations carry every event's values there and back, and the ground floor's event no
longer holds what only the screen's floor writes."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import ForeignObjectRel
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from drive.events.models import Event
from drive.live.models import Screen
from drive.live.selectors.screen import chimes, screen_token
from drive.live.services import screen as screens

# Before the move: the screen's table made, the event's fields still there.
BEFORE = [("live", "0002_screen"), ("events", "0010_event_missed_rounds")]
AFTER = [("live", "0003_screens_from_events"), ("events", "0011_screen_moved_to_live")]


def migrate(targets):
    """Migrate to `targets`; the models as they stand there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.fixture
def back_to_before_the_move():
    old = migrate(BEFORE)
    yield old
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())  # the rest of the suite's schema


@pytest.mark.django_db(transaction=True)
def test_the_migrations_move_every_events_link_and_chime_and_back(back_to_before_the_move):
    old = back_to_before_the_move
    Club, OldEvent = old.get_model("events", "Club"), old.get_model("events", "Event")
    club = Club.objects.create(name="Old Club", slug="old-club")
    values = {"linked, chime": ("t" * 32, True), "chime, no link": (None, True), "linked": ("u" * 32, False),
              "neither": (None, False)}
    ids = {title: OldEvent.objects.create(club=club, title=title, starts_at=timezone.now(), capacity=8,
                                          screen_token=token, screen_chime=chime).pk
           for title, (token, chime) in values.items()}

    new = migrate(AFTER)
    moved = {row.event_id: (row.token, row.chime) for row in new.get_model("live", "Screen").objects.all()}
    assert moved == {ids[title]: value for title, value in values.items()}  # every event's values
    assert not {"screen_token", "screen_chime"} & {f.name for f in new.get_model("events", "Event")._meta.fields}

    old = migrate(BEFORE)
    back = {e.pk: (e.screen_token, e.screen_chime) for e in old.get_model("events", "Event").objects.all()}
    assert back == {ids[title]: value for title, value in values.items()}
    assert not old.get_model("live", "Screen").objects.exists()  # none left behind to go stale


def test_the_event_holds_nothing_of_the_screen():
    assert not [f.name for f in Event._meta.concrete_fields if f.name.startswith("screen")]
    relation = Event._meta.get_field("screen")
    assert isinstance(relation, ForeignObjectRel) and relation.one_to_one and relation.related_model is Screen


@pytest.mark.django_db
def test_the_screens_writes_leave_the_event_row_alone(organiser, event):
    with CaptureQueriesContext(connection) as queries:
        event = screens.issue_screen_link(actor=organiser, event=event)
        screens.set_screen_chime(actor=organiser, event=event, chime=True)
        screens.revoke_screen_link(actor=organiser, event=event)
    written = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(("UPDATE", "INSERT", "DELETE"))]
    assert written and not [sql for sql in written if '"events_event"' in sql]
    assert Screen.objects.filter(event=event, token__isnull=True, chime=True).exists()
    assert screen_token(Event.objects.get(pk=event.pk)) is None and chimes(Event.objects.get(pk=event.pk))


@pytest.mark.django_db
def test_an_event_without_a_screen_reads_as_no_link_and_no_chime(client, organiser, event):
    assert screen_token(event) is None and not chimes(event) and not Screen.objects.exists()
    client.force_login(organiser)
    page = client.get(f"/console/events/{event.pk}/screen-link/").content.decode()
    assert "data-no-link" in page and 'name="chime" checked' not in page
