"""A mixed evening: table 1 online, table 2 on paper, two rounds through the evening's
services; the standings are the ones the hands give, whichever way each was played."""
from decimal import Decimal

import pytest

from drive.games.models import PlayTable
from drive.scoring.services import online_tables as evening
from drive.scoring.models import HandResult, Round, Seat, Standing, Table
from drive.scoring.services import evening as ev
from drive.scoring.services import ranking
from tests import seats
from tests.play.evening_kit import play_hand, seated_evening

pytestmark = pytest.mark.django_db


def expected_totals(event):
    """Each entrant's total from the rows: their side's tricks in every hand (rule D3)."""
    totals = {}
    for result in HandResult.objects.filter(round__event=event).select_related("round", "table"):
        for seat in Seat.objects.filter(round=result.round, table=result.table).select_related("entrant"):
            tricks = result.ns_tricks if seat.position in "NS" else 13 - result.ns_tricks
            totals[seat.entrant.number] = totals.get(seat.entrant.number, 0) + tricks
    return totals


def test_a_mixed_evening_gives_the_standings_its_hands_give(make_event, organiser):
    event = seated_evening(make_event)
    evening.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[1])
    paper = Table.objects.get(event=event, number=2)
    for round_number, paper_tricks in ((1, (8, 3)), (2, (6, 10))):
        ev.start_round(actor=organiser, event=event)
        online = PlayTable.objects.get(event=event, round_number=round_number)
        assert online.table_number == 1
        play_hand(online)
        play_hand(online)
        for hand, tricks in enumerate(paper_tricks, start=1):
            seats.enter(table=paper, seat="N", hand_number=hand, ns_tricks=tricks, trump="S")
            seats.enter(table=paper, seat="E", hand_number=hand, ns_tricks=tricks, trump="S")
        ev.end_round(actor=organiser, event=event)  # every table in: no deadline needed
    assert Round.objects.filter(event=event, late_tables=[]).count() == 2
    assert not HandResult.objects.filter(round__event=event).exclude(status="confirmed").exists()
    assert not HandResult.objects.filter(round__event=event, change_kind="robots").exists()
    ranking.recompute_standings(event_id=event.pk)
    lines = {s.entrant.number: s for s in Standing.objects.filter(event=event)}
    totals = expected_totals(event)
    assert {n: lines[n].total for n in lines} == {n: Decimal(t) for n, t in totals.items()}
    assert all(line.hands_played == 4 for line in lines.values())
    places = sorted(lines.values(), key=lambda s: s.place)
    assert places[0].total == max(totals.values())
    # Paper hands counted from the entries, online ones from the play: both in the sheet.
    assert HandResult.objects.filter(round__event=event, table__number=2, entered_by="N").count() == 4
    assert HandResult.objects.filter(round__event=event, table__number=1, entered_by="").count() == 4
