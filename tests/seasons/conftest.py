"""Seasons are built from evenings played and published through the project's services:
entrants and a stored movement plan as tests/scoring builds them, then every round
started, its hands entered from the tables' phones, ended, and the results published."""
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings

from drive.events.models import Event, Player
from drive.movements.models import Entrant, Movement
from drive.scoring.models import Round, Table
from drive.scoring.services import evening as evenings
from drive.scoring.services import planning
from drive.seasons.services import seasons as season_services
from tests import seats

LOCAL = ZoneInfo(settings.TIME_ZONE)


def local(*args):
    """A moment in the site's time zone: local(2026, 12, 4, 19, 30)."""
    return datetime(*args, tzinfo=LOCAL)


@pytest.fixture
def people(club):
    """Players of the club by name: people("Ada", "Bob", ...) -> [Player, ...] (made once each)."""
    made = {}

    def get(*names):
        for name in names:
            if name not in made:
                made[name] = Player.objects.create(display_name=name, club=club)
        return [made[name] for name in names]

    return get


@pytest.fixture
def play(club, organiser, django_capture_on_commit_callbacks):
    """play(rounds, starts_at=..., title=...) -> the published event.

    `rounds`: a list of rounds, each a list of tables ((N, E, S, W) players, [N-S tricks of
    each hand]); the players not seated in a round sit it out; `fields`: the event's settings. Every change commits as it
    would in a request (its on-commit work runs: standings, signals, the seasons' tasks)."""
    count = [0]

    def run(rounds, *, starts_at, title=None, kind=Event.MovementKind.INDIVIDUAL, publish=True, **fields):
        count[0] += 1
        players = list(dict.fromkeys(p for round_ in rounds for seating, _ in round_ for p in seating))
        number = {player.pk: n for n, player in enumerate(players, start=1)}
        with django_capture_on_commit_callbacks(execute=True):
            event = Event.objects.create(
                club=club, title=title or f"Drive {count[0]}", venue="Hall", starts_at=starts_at,
                capacity=max(4, len(players)), published=True, rounds=len(rounds),
                hands_per_round=len(rounds[0][0][1]), movement_kind=kind, result_confirmation="single",
                phase=Event.Phase.IN_PROGRESS, **fields)
            for player in players:
                Entrant.objects.create(event=event, player=player, number=number[player.pk])
            for n in range(1, max(len(round_) for round_ in rounds) + 1):
                Table.objects.create(event=event, number=n)
            for n in range(1, len(rounds) + 1):
                Round.objects.create(event=event, number=n)
            plan = {"rounds": [{
                "tables": [{"table": t, **{seat: number[p.pk] for seat, p in zip("NESW", seating)}}
                           for t, (seating, _) in enumerate(round_, start=1)],
                "sit_out": sorted(set(number.values()) - {number[p.pk] for seating, _ in round_ for p in seating}),
            } for round_ in rounds]}
            Movement.objects.create(event=event, kind=kind, players=len(players), rounds=len(rounds),
                                    status=Movement.Status.READY, plan=plan)
            planning.seat_next_round(event=event, round_number=1, plan_round=plan["rounds"][0])
        for round_ in rounds:
            with django_capture_on_commit_callbacks(execute=True):
                evenings.start_round(actor=organiser, event=event)
                for t, (_, tricks) in enumerate(round_, start=1):
                    table = Table.objects.get(event=event, number=t)
                    for hand, ns in enumerate(tricks, start=1):
                        seats.enter(table=table, seat="N", hand_number=hand, ns_tricks=ns, trump="H")
                evenings.end_round(actor=organiser, event=event)
        event.refresh_from_db()
        if publish:
            with django_capture_on_commit_callbacks(execute=True):
                event = evenings.publish_results(actor=organiser, event=event)
        return event

    return run


@pytest.fixture
def make_season(club, organiser, django_capture_on_commit_callbacks):
    """make_season(**settings) -> a season of the club, created by its organiser (its table computed)."""

    def make(**fields):
        values = {"name": "Winter 2026", "starts_on": local(2026, 12, 1).date(), "ends_on": local(2027, 2, 28).date(),
                  "score": "placing_points", "placing_points": [10, 8, 6, 5, 4, 3, 2, 1], **fields}
        with django_capture_on_commit_callbacks(execute=True):
            return season_services.create_season(actor=organiser, club=club, **values)

    return make


def one_table(n, e, s, w, *tricks):
    """A round at one table: N-S took `tricks` in its hands (E-W the rest of 13)."""
    return [((n, e, s, w), list(tricks))]
