"""Shared helpers of the evening's online-table tests: an evening of two tables ready to
start its first round, its players with accounts (or not), and hands played through."""
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from drive.events.models import Event, Player
from drive.movements.models import Entrant, Movement
from drive.games.models import PlayTable
from drive.games.selectors.tables import game_of
from drive.games.services import actions
from drive.scoring.models import Round, Seat, Table

PLAN = {"rounds": [
    {"tables": [{"table": 1, "N": 1, "E": 2, "S": 3, "W": 4}, {"table": 2, "N": 5, "E": 6, "S": 7, "W": 8}],
     "sit_out": []},
    {"tables": [{"table": 1, "N": 1, "E": 5, "S": 3, "W": 7}, {"table": 2, "N": 2, "E": 6, "S": 4, "W": 8}],
     "sit_out": []},
]}


def seated_evening(make_event, accounts=range(1, 9), **fields):
    """An individual drive in progress: 8 entrants (those numbered in `accounts` with a
    user account "p<n>"), 2 tables, 2 rounds of 2 hands; round 1 seated, its clock not
    started."""
    event = make_event(**{"hands_per_round": 2, "rounds": 2, "phase": Event.Phase.IN_PROGRESS,
                          "movement_kind": "individual", **fields})
    users = get_user_model().objects
    for number in range(1, 9):
        user = users.create_user(username=f"p{number}-{event.pk}", password="pw-Whist-2026") if number in accounts else None
        Entrant.objects.create(event=event, number=number,
                               player=Player.objects.create(display_name=f"P{number}", user=user))
    Movement.objects.create(event=event, kind="individual", players=8, rounds=2, status="ready", plan=PLAN)
    for number in (1, 2):
        Table.objects.create(event=event, number=number)
    rounds = [Round.objects.create(event=event, number=n) for n in (1, 2)]
    seat(rounds[0], PLAN["rounds"][0])
    return event


def seat(round_, planned):
    entrants = {e.number: e for e in Entrant.objects.filter(event=round_.event)}
    for row in planned["tables"]:
        table = Table.objects.get(event=round_.event, number=row["table"])
        for position in "NESW":
            Seat.objects.create(round=round_, table=table, position=position, entrant=entrants[row[position]])
    round_.state = Round.State.SEATED
    round_.save()


def user_of(event, number):
    return Entrant.objects.get(event=event, number=number).player.user


def play_hand(table: PlayTable) -> None:
    """The people at the table play one hand through (each the first legal card)."""
    for _ in range(60):
        table = PlayTable.objects.get(pk=table.pk)
        game = game_of(table)
        if game.to_act is None:
            return
        hands_before = game.hands_played
        seat = table.seats.get(seat=game.to_act)
        actions.apply_action(user=seat.user, table_id=table.pk, action=str(game.legal_actions()[0]), version=table.version)
        if game_of(PlayTable.objects.get(pk=table.pk)).hands_played > hands_before:
            return
    raise AssertionError("the hand did not end")


def past_deadline(event, number=1):
    Round.objects.filter(event=event, number=number).update(deadline=timezone.now() - timedelta(seconds=1))
