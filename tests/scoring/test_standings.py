"""Standings from the stored hands (rules D3-D5), recomputed, never incremented."""
from decimal import Decimal

import pytest

from drive.scoring.services import ranking

from drive.scoring.services import results
from drive.scoring.models import Standing
from tests import seats

pytestmark = pytest.mark.django_db


def play(table, hand, ns):
    seats.enter(table=table, seat="N", hand_number=hand, ns_tricks=ns, trump="S")
    seats.enter(table=table, seat="E", hand_number=hand, ns_tricks=ns, trump="S")


def lines(event):
    return {s.entrant.number: s for s in Standing.objects.filter(event=event).select_related("entrant")}


def test_totals_are_tricks_of_the_partnership(evening, table1):
    from drive.scoring.models import Table

    play(table1, 1, 9)  # rule D3: N-S 9, E-W 4
    play(table1, 2, 6)
    play(Table.objects.get(event=evening, number=2), 1, 7)
    ranking.recompute_standings(event_id=evening.pk)
    by = lines(evening)
    assert by[1].total == by[3].total == 15 and by[2].total == by[4].total == 11
    assert by[1].hands_won == 1 and by[2].hands_won == 1
    assert by[5].total == 7 and by[6].total == 6


def test_sit_out_gets_an_average_not_zero(evening, table1):
    play(table1, 1, 9)
    play(table1, 2, 6)
    ranking.recompute_standings(event_id=evening.pk)
    sat_out = lines(evening)[9]
    # rule D5: no hands of their own yet, so the room average per hand (6.5) for 2 hands
    assert sat_out.total == Decimal("13.00") and sat_out.sit_out_hands == 2


def test_over_six_scoring(evening, table1):
    evening.scoring_rule = "over_six"
    evening.save()
    play(table1, 1, 9)
    ranking.recompute_standings(event_id=evening.pk)
    by = lines(evening)
    assert by[1].total == 3 and by[2].total == 0  # rule S7.1 / D3 variant


def test_recompute_is_idempotent_and_follows_corrections(evening, table1, organiser):
    play(table1, 1, 9)
    ranking.recompute_standings(event_id=evening.pk)
    first = {n: s.total for n, s in lines(evening).items()}
    ranking.recompute_standings(event_id=evening.pk)
    assert {n: s.total for n, s in lines(evening).items()} == first
    results.correct_result(actor=organiser, table=table1, round_number=1, hand_number=1, ns_tricks=4, reason="miscount")
    ranking.recompute_standings(event_id=evening.pk)
    assert lines(evening)[1].total == 4


def test_places_share_ties_by_default_rule(evening, table1):
    evening.tie_break_rule = "shared"
    evening.save()
    play(table1, 1, 7)
    ranking.recompute_standings(event_id=evening.pk)
    by = lines(evening)
    assert by[1].place == by[3].place and by[1].shared


def test_entry_enqueues_recomputation(evening, table1, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        play(table1, 1, 10)
    assert lines(evening)[1].total == 10


def test_a_round_under_way_credits_the_sit_out_only_for_hands_played(evening, table1):
    play(table1, 1, 9)  # only hand 1 of round 1 so far
    ranking.recompute_standings(event_id=evening.pk)
    sat_out = lines(evening)[9]
    # rule D5: the room average per hand (6.5) for the one hand the room has played
    assert sat_out.total == Decimal("6.50")
    assert sat_out.total < lines(evening)[1].total  # never ahead on hands not yet played
