"""The live standings the room sees count confirmed hands only, and say how many hands
wait for the other side's confirmation; once the evening is over, an entered hand nobody
disputed counts (it is the table's word)."""
from decimal import Decimal

import pytest

from drive.events.models import Event
from drive.scoring.services import evening as evenings
from drive.scoring.services import ranking
from drive.scoring.models import Standing, StandingsState
from tests import seats

pytestmark = pytest.mark.django_db


def total(event, number):
    return Standing.objects.get(event=event, entrant__number=number).total


def test_an_unconfirmed_hand_waits_out_of_the_live_standings_and_is_counted_once_confirmed(
        client, api, evening, table1, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        seats.enter(table=table1, seat="N", hand_number=1, ns_tricks=9, trump="H")
        seats.enter(table=table1, seat="N", hand_number=2, ns_tricks=8, trump="H")
    assert total(evening, 1) == 0 and total(evening, 2) == 0
    html = client.get(f"/events/{evening.pk}/standings/").content.decode()
    assert "2 hands awaiting confirmation: not counted until the other side confirms them." in html
    body = api.get(f"/api/events/{evening.pk}/standings/").json()
    assert body["awaiting_confirmation"] == 2
    assert {line["number"]: Decimal(line["total"]) for line in body["lines"]}[1] == 0

    with django_capture_on_commit_callbacks(execute=True):
        seats.enter(table=table1, seat="E", hand_number=1, ns_tricks=9, trump="H")  # E-W confirms one
    assert total(evening, 1) == 9 and total(evening, 2) == 4
    html = client.get(f"/events/{evening.pk}/standings/").content.decode()
    assert "1 hand awaiting confirmation: not counted until the other side confirms it." in html
    assert api.get(f"/api/events/{evening.pk}/standings/").json()["awaiting_confirmation"] == 1


def test_a_single_entry_evening_counts_each_hand_at_once(evening, table1, django_capture_on_commit_callbacks):
    Event.objects.filter(pk=evening.pk).update(result_confirmation=Event.Confirmation.SINGLE)
    with django_capture_on_commit_callbacks(execute=True):
        seats.enter(table=table1, seat="N", hand_number=1, ns_tricks=9, trump="H")
    assert total(evening, 1) == 9
    assert StandingsState.objects.get(event=evening).awaiting_confirmation == 0


def test_a_disputed_hand_never_counts_and_is_not_awaiting_the_table(evening, table1, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        seats.enter(table=table1, seat="N", hand_number=1, ns_tricks=9, trump="H")
        seats.enter(table=table1, seat="E", hand_number=1, ns_tricks=7, trump="H")  # disagrees
    assert total(evening, 1) == 0
    assert StandingsState.objects.get(event=evening).awaiting_confirmation == 0  # the organiser's now


def test_when_the_evening_ends_an_undisputed_entry_counts(evening, table1, organiser,
                                                          django_capture_on_commit_callbacks):
    Event.objects.filter(pk=evening.pk).update(rounds=1)
    with django_capture_on_commit_callbacks(execute=True):
        seats.enter(table=table1, seat="N", hand_number=1, ns_tricks=9, trump="H")
    assert total(evening, 1) == 0
    with django_capture_on_commit_callbacks(execute=True):
        evenings.end_round(actor=organiser, event=Event.objects.get(pk=evening.pk), force=True)
    assert Event.objects.get(pk=evening.pk).phase == Event.Phase.FINISHED
    assert total(evening, 1) == 9 and total(evening, 2) == 4
    assert StandingsState.objects.get(event=evening).awaiting_confirmation == 0


def test_final_standings_computed_live_are_recomputed_before_they_are_shown(client, evening, table1):
    seats.enter(table=table1, seat="N", hand_number=1, ns_tricks=9, trump="H")
    ranking.recompute_standings(event_id=evening.pk)
    assert total(evening, 1) == 0
    # The evening moves on without a new version (as after a restore): the hand left out counts now.
    Event.objects.filter(pk=evening.pk).update(phase=Event.Phase.FINISHED)
    html = client.get(f"/events/{evening.pk}/standings/").content.decode()
    assert "awaiting confirmation" not in html
    assert total(evening, 1) == 9


def test_the_chart_follows_the_confirmed_hands_too(evening, table1):
    from drive.scoring.selectors.results import leaders

    seats.enter(table=table1, seat="N", hand_number=1, ns_tricks=9, trump="H")
    assert leaders(evening) == []  # nothing confirmed: no running totals yet
    seats.enter(table=table1, seat="E", hand_number=1, ns_tricks=9, trump="H")
    assert leaders(evening)[0].total == 9
