from datetime import timedelta

import pytest
from django.utils import timezone

from drive.events.models import Event, Player
from drive.movements.models import Entrant
from drive.scoring.models import Round, Seat, Table


def seat_round(round_, tables, sit_out=()):
    """tables: {table number: (N, E, S, W) entrant numbers}."""
    entrants = {e.number: e for e in Entrant.objects.filter(event=round_.event)}
    for number, players in tables.items():
        table = Table.objects.get(event=round_.event, number=number)
        for position, player in zip("NESW", players):
            Seat.objects.create(round=round_, table=table, position=position, entrant=entrants[player])
    for player in sit_out:
        Seat.objects.create(round=round_, table=None, position="", entrant=entrants[player])
    round_.state = Round.State.PLAYING
    round_.started_at = timezone.now()
    round_.deadline = timezone.now() + timedelta(minutes=20)
    round_.save()
    return round_


@pytest.fixture
def evening(make_event):
    """An individual drive in progress: 9 entrants, 2 tables, 2 rounds of 2 hands; round 1 playing."""
    event = make_event(hands_per_round=2, rounds=2, phase=Event.Phase.IN_PROGRESS, movement_kind="individual")
    for number in range(1, 10):
        Entrant.objects.create(event=event, player=Player.objects.create(display_name=f"P{number}"), number=number)
    for number in (1, 2):
        Table.objects.create(event=event, number=number)
    rounds = [Round.objects.create(event=event, number=n) for n in (1, 2)]
    seat_round(rounds[0], {1: (1, 2, 3, 4), 2: (5, 6, 7, 8)}, sit_out=(9,))
    return event


@pytest.fixture
def table1(evening):
    return Table.objects.get(event=evening, number=1)
