"""The walk of a card played at an evening's online table (issue 21), from the API's view to
the broadcast after commit: at most ten modules of the project, each entered once where it
can be (docs/architecture.md writes the walk down, module by module).

Counted: every module of `drive` whose code runs from the moment the request reaches the
table's API view until the change is announced on the channel layer; the engine counts as
one (`engine`, called through its surface). Not counted: the middleware every request
passes before and after its view. A module is entered when code of another module calls
into it."""
import json
import sys

import pytest

from drive.games.models import PlayTable
from drive.games.selectors.tables import game_of
from drive.scoring.services import evening as ev
from drive.scoring.services import online_tables
from tests.play.evening_kit import seated_evening

pytestmark = pytest.mark.django_db
VIEW = "drive.play.api.tables"
MAX_MODULES = 10


def _unit(name):
    return "engine" if name == "engine" or name.startswith("engine.") else name


def walk(run, calls):
    """The project's modules `run` enters from the view on, in order, with how often each;
    `calls` gets the name of every function run in the broadcast module."""
    entered = {}

    def profile(frame, event, arg):
        if event != "call":
            return
        name = _unit(frame.f_globals.get("__name__", ""))
        if not (name == "engine" or name.startswith("drive.")) or (not entered and name != VIEW):
            return
        if name == "drive.core.broadcast":
            calls.append(frame.f_code.co_name)
        caller = _unit(frame.f_back.f_globals.get("__name__", "")) if frame.f_back else ""
        if caller != name:
            entered[name] = entered.get(name, 0) + 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return entered


@pytest.fixture
def evening_table(make_event, organiser):
    event = seated_evening(make_event)
    online_tables.set_online_tables(actor=organiser, event=event, mode="online")
    ev.start_round(actor=organiser, event=event)
    return PlayTable.objects.get(event=event, table_number=1)


def test_a_card_at_an_evening_table_walks_ten_modules_at_most(evening_table, client, django_capture_on_commit_callbacks):
    table = evening_table
    game = game_of(table)
    client.force_login(table.seats.get(seat=game.to_act).user)
    client.get(f"/api/play/tables/{table.pk}/")  # seen at the table: the card's walk is the one measured
    card = str(game.legal_actions()[0])

    def play():
        with django_capture_on_commit_callbacks(execute=True):
            answer = client.post(f"/api/play/tables/{table.pk}/actions/",
                                 json.dumps({"action": card, "version": table.version}),
                                 content_type="application/json")
        assert answer.status_code == 200, answer.content

    calls = []
    entered = walk(play, calls)
    assert calls.count("send_table_now") == 1  # the broadcast, after commit, is the walk's end
    print("\n".join(f"{count} {name}" for name, count in entered.items()))
    assert len(entered) <= MAX_MODULES, entered
    assert not any(name.startswith(("drive.scoring", "drive.events")) for name in entered)  # nothing above or aside
    once = ("drive.play.api.tables", "drive.games.services.actions", "drive.games.access")
    assert all(entered[name] == 1 for name in once), entered
