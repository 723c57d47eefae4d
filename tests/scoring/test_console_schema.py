"""The console's API operations against their own OpenAPI schema (schemathesis), with an
evening in progress so the moves and corrections do more than 403/404: no server error,
and no status code the schema does not document."""
import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token


from drive.events.services import arrivals as arrival_services
from drive.events.models import Event, Player
from drive.movements.models import Entrant, Movement
from drive.scoring.models import Round, Table
from tests.test_api_schema import CHECKS
from tests.test_api_schema import schema as api_schema  # loaded once a process

from .conftest import seat_round
from .test_console_pages import PLAN, submit

HYPOTHESIS = hypothesis_settings(max_examples=25, deadline=None, derandomize=True, database=None,
                                 suppress_health_check=list(HealthCheck))

schema = api_schema.include(
    path_regex=r"^/api/events/\{event_id\}/(evening|corrections)/")


@pytest.fixture
def console_world(db, make_event, organiser):
    """An evening in round 1 of 2 (a hand disputed), one about to start, one finished."""
    evening = make_event(hands_per_round=2, rounds=2, phase=Event.Phase.IN_PROGRESS, movement_kind="individual")
    for number in range(1, 10):
        Entrant.objects.create(event=evening, player=Player.objects.create(display_name=f"P{number}"), number=number)
    tables = [Table.objects.create(event=evening, number=n) for n in (1, 2)]
    first, _ = (Round.objects.create(event=evening, number=n) for n in (1, 2))
    seat_round(first, {1: (1, 2, 3, 4), 2: (5, 6, 7, 8)}, sit_out=(9,))
    Movement.objects.create(event=evening, kind="individual", players=9, rounds=2, status="ready", plan=PLAN)
    submit(tables[0], "N", 1, 8)
    submit(tables[0], "E", 1, 6)
    submit(tables[1], "N", 2, 7)
    waiting = make_event(title="About to start")
    for i in range(4):
        arrival_services.add_walk_in(actor=organiser, event=waiting, display_name=f"W{i}")
    finished = make_event(title="Done", phase=Event.Phase.FINISHED)
    return {"token": Token.objects.create(user=organiser).key, "event_ids": [evening.pk, waiting.pk, finished.pk]}


def aim_at_real_rows(case, world):
    """Most ids and numbers point at rows that exist; one in seven is left as generated."""
    params = case.path_parameters or {}
    value = params.get("event_id")
    if isinstance(value, int) and not isinstance(value, bool) and value % 7 != 3:
        params["event_id"] = world["event_ids"][value % 3]
    if isinstance(case.body, dict):
        for name in ("round", "table", "hand_number"):
            value = case.body.get(name)
            if isinstance(value, int) and not isinstance(value, bool) and value % 7 != 3:
                case.body[name] = 1 + value % 2


@pytest.mark.contract
@schema.parametrize()
@HYPOTHESIS
def test_console_api_anonymous(case, console_world):
    aim_at_real_rows(case, console_world)
    case.call_and_validate(checks=CHECKS)


@pytest.mark.contract
@schema.parametrize()
@HYPOTHESIS
def test_console_api_as_organiser(case, console_world):
    aim_at_real_rows(case, console_world)
    case.call_and_validate(headers={"Authorization": f"Token {console_world['token']}"}, checks=CHECKS)
