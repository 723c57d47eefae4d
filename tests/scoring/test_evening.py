"""The evening's life: each move an organiser action, refused when it does not fit."""
from datetime import timedelta

import pytest
from django.utils import timezone

from drive.core.errors import Conflict, Forbidden
from drive.events.selectors import events as event_selectors
from drive.events.services import arrivals as arrival_services
from drive.events.models import Event
from drive.movements.models import Entrant, Movement
from drive.scoring.services import evening as ev
from drive.core import clock
from drive.scoring.models import Round, Table
from drive.scoring.selectors.rounds import current_round
from tests import seats

pytestmark = pytest.mark.django_db


def checked_in_event(make_event, organiser, count, **fields):
    event = make_event(starts_at=timezone.now() + timedelta(minutes=10), **fields)
    for i in range(count):
        arrival_services.add_walk_in(actor=organiser, event=event, display_name=f"Player {i + 1}")
    return event


def test_start_freezes_checked_in_players_and_asks_for_the_movement(make_event, organiser):
    event = checked_in_event(make_event, organiser, 9, rounds=4)
    event = ev.start_evening(actor=organiser, event=event)
    assert event.phase == Event.Phase.IN_PROGRESS
    assert sorted(Entrant.objects.filter(event=event).values_list("number", flat=True)) == list(range(1, 10))
    assert Table.objects.filter(event=event).count() == 2 and Round.objects.filter(event=event).count() == 4
    assert Movement.objects.get(event=event).status == Movement.Status.PENDING
    assert event_selectors.registration_state(event) is not None  # registration closed
    with pytest.raises(Conflict):
        ev.start_evening(actor=organiser, event=event)


def test_start_needs_four_players_and_an_organiser(make_event, organiser, make_user):
    event = checked_in_event(make_event, organiser, 3)
    with pytest.raises(Conflict, match="four"):
        ev.start_evening(actor=organiser, event=event)
    with pytest.raises(Forbidden):
        ev.start_evening(actor=make_user(), event=event)


def test_fixed_pairs_need_an_even_number(make_event, organiser):
    event = checked_in_event(make_event, organiser, 9, movement_kind="pairs")
    with pytest.raises(Conflict, match="even"):
        ev.start_evening(actor=organiser, event=event)


def test_clock_start_pause_resume(evening, organiser, monkeypatch):
    round_ = evening.evening_rounds.get(number=1)
    round_.state = Round.State.SEATED
    round_.save()
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)  # a stopped clock: exact, however slow the machine
    started = ev.start_round(actor=organiser, event=evening)
    assert started.state == Round.State.PLAYING
    assert clock.seconds_left(started) == evening.round_minutes * 60
    paused = ev.pause_clock(actor=organiser, event=evening)
    Round.objects.filter(pk=paused.pk).update(paused_at=paused.paused_at - timedelta(minutes=5))
    resumed = ev.resume_clock(actor=organiser, event=evening)
    assert resumed.deadline - started.deadline == timedelta(minutes=5)
    with pytest.raises(Conflict):
        ev.start_round(actor=organiser, event=evening)


def test_end_round_refused_early_with_tables_out_then_forced(evening, organiser):
    with pytest.raises(Conflict) as err:
        ev.end_round(actor=organiser, event=evening)
    assert err.value.extra["tables_out"] == [1, 2]
    # Round 2's seating comes from the stored plan.
    Movement.objects.create(event=evening, kind="individual", players=9, rounds=2, status="ready", plan={"rounds": [
        {"tables": [{"table": 1, "N": 1, "E": 2, "S": 3, "W": 4}, {"table": 2, "N": 5, "E": 6, "S": 7, "W": 8}], "sit_out": [9]},
        {"tables": [{"table": 1, "N": 9, "E": 1, "S": 5, "W": 2}, {"table": 2, "N": 3, "E": 6, "S": 4, "W": 7}], "sit_out": [8]},
    ]})
    closed = ev.end_round(actor=organiser, event=evening, force=True)
    assert closed.state == Round.State.CLOSED and closed.late_tables == [1, 2]  # flagged, not dropped
    second = evening.evening_rounds.get(number=2)
    assert second.state == Round.State.SEATED and second.seats.count() == 9


def test_end_of_last_round_finishes_then_results_published(evening, organiser, make_user):
    Round.objects.filter(event=evening, number=2).delete()
    Event.objects.filter(pk=evening.pk).update(rounds=1)
    evening.refresh_from_db()
    Round.objects.filter(event=evening, number=1).update(deadline=timezone.now() - timedelta(seconds=1))
    ev.end_round(actor=organiser, event=evening)  # past the deadline: no force needed
    evening.refresh_from_db()
    assert evening.phase == Event.Phase.FINISHED
    with pytest.raises(Forbidden):
        ev.publish_results(actor=make_user(), event=evening)
    assert ev.publish_results(actor=organiser, event=evening).phase == Event.Phase.RESULTS_PUBLISHED


def test_a_failed_movement_is_stored_and_can_be_retried(make_event, organiser, monkeypatch, django_capture_on_commit_callbacks):
    from drive.movements.services import movements as movement_services

    def broken(**kwargs):
        raise RuntimeError("no design")

    monkeypatch.setattr(movement_services, "compute_movement", broken)
    event = checked_in_event(make_event, organiser, 8)
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_evening(actor=organiser, event=event)
    movement = Movement.objects.get(event=event)
    assert movement.status == Movement.Status.FAILED and "no design" in movement.error
    event.refresh_from_db()
    assert event.phase == Event.Phase.IN_PROGRESS  # the start stands
    with django_capture_on_commit_callbacks(execute=False):
        ev.retry_movement(actor=organiser, event=event)
    assert Movement.objects.get(event=event).status == Movement.Status.PENDING


def play_round(event, ns_tricks=8):
    round_ = current_round(event)
    for table in Table.objects.filter(event=event, seats__round=round_).distinct():
        for hand in range(1, event.hands_per_round + 1):
            for seat in ("N", "E"):
                seats.enter(table=table, seat=seat, hand_number=hand, ns_tricks=ns_tricks, trump="S")


@pytest.mark.parametrize("kind", ["individual", "progressive", "pairs"])
def test_a_whole_small_evening(make_event, organiser, kind, django_capture_on_commit_callbacks):
    from drive.scoring.models import Seat, Standing

    event = checked_in_event(make_event, organiser, 8, rounds=3, hands_per_round=2, movement_kind=kind)
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_evening(actor=organiser, event=event)
    assert Movement.objects.get(event=event).status == Movement.Status.READY
    partners = set()
    for number in (1, 2, 3):
        event.refresh_from_db()
        assert current_round(event).number == number
        with django_capture_on_commit_callbacks(execute=True):
            ev.start_round(actor=organiser, event=event)
            play_round(event)
            ev.end_round(actor=organiser, event=event)
        seated = Seat.objects.filter(round__event=event, round__number=number)
        assert seated.count() == 8
        by_table = {}
        for seat in seated:
            by_table.setdefault(seat.table_id, {})[seat.position] = seat.entrant_id
        partners |= {frozenset((t[a], t[b])) for t in by_table.values() for a, b in ("NS", "EW")}
    event.refresh_from_db()
    assert event.phase == Event.Phase.FINISHED
    assert Standing.objects.filter(event=event).count() == 8
    if kind == "individual":
        assert len(partners) == 12  # nobody partners twice
    if kind == "pairs":
        assert len(partners) == 4  # partners stay together


def started(make_event, organiser, kind, count=8, django_capture=None):
    event = checked_in_event(make_event, organiser, count, rounds=3, hands_per_round=1, movement_kind=kind)
    with django_capture(execute=True):
        ev.start_evening(actor=organiser, event=event)
    event.refresh_from_db()
    return event


def round_seats(event, number):
    from drive.scoring.models import Seat

    return {(s.entrant.number, s.table.number if s.table else None, s.position)
            for s in Seat.objects.filter(round__event=event, round__number=number).select_related("entrant", "table")}


@pytest.mark.parametrize("kind", ["individual", "progressive"])
def test_late_arrival_joins_the_next_round_and_played_rounds_stay(make_event, organiser, kind,
                                                                 django_capture_on_commit_callbacks):
    event = started(make_event, organiser, kind, django_capture=django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_round(actor=organiser, event=event)
        play_round(event)
    first_round = round_seats(event, 1)
    late = arrival_services.add_walk_in(actor=organiser, event=event, display_name="Late Larry")
    entrant = ev.add_late_arrival(actor=organiser, event=event, registration=late)
    assert entrant.joined_round == 2
    with django_capture_on_commit_callbacks(execute=True):
        ev.end_round(actor=organiser, event=event)
    assert round_seats(event, 1) == first_round  # untouched
    second = round_seats(event, 2)
    assert len(second) == 9 and entrant.number in {n for n, _, _ in second}
    assert sum(1 for _, table, _ in second if table is None) == 1  # one sits out
    with pytest.raises(Conflict):
        ev.add_late_arrival(actor=organiser, event=event, registration=late)


def test_late_arrival_reseats_a_waiting_round(make_event, organiser, django_capture_on_commit_callbacks):
    event = started(make_event, organiser, "individual", count=9, django_capture=django_capture_on_commit_callbacks)
    version = Movement.objects.get(event=event).version
    late = arrival_services.add_walk_in(actor=organiser, event=event, display_name="Late Lucy")
    entrant = ev.add_late_arrival(actor=organiser, event=event, registration=late)
    assert entrant.joined_round == 1  # round 1 was seated but not started
    seats = round_seats(event, 1)
    assert len(seats) == 10 and sum(1 for _, t, _ in seats if t is None) == 2
    assert Movement.objects.get(event=event).version == version + 1


def test_leaver_plays_no_further_round(make_event, organiser, make_user, django_capture_on_commit_callbacks):
    event = started(make_event, organiser, "individual", count=9, django_capture=django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_round(actor=organiser, event=event)
    leaver = Entrant.objects.get(event=event, number=3)
    with pytest.raises(Forbidden):
        ev.remove_leaver(actor=make_user(), event=event, entrant=leaver)
    assert ev.remove_leaver(actor=organiser, event=event, entrant=leaver).left_after_round == 1
    with django_capture_on_commit_callbacks(execute=True):
        play_round(event)
        ev.end_round(actor=organiser, event=event)
    second = round_seats(event, 2)
    assert len(second) == 8 and 3 not in {n for n, _, _ in second}
    assert 3 in {n for n, _, _ in round_seats(event, 1)}


@pytest.mark.parametrize("count, leaver", [(9, 3), (9, 9), (8, 1), (10, 2)])
def test_leaver_while_the_next_round_is_seated(make_event, organiser, count, leaver, django_capture_on_commit_callbacks):
    event = started(make_event, organiser, "individual", count=count, django_capture=django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_round(actor=organiser, event=event)
        play_round(event)
        ev.end_round(actor=organiser, event=event)
    assert current_round(event).number == 2  # seated, not started
    first = round_seats(event, 1)
    gone = ev.remove_leaver(actor=organiser, event=event, entrant=Entrant.objects.get(event=event, number=leaver))
    assert gone.left_after_round == 1
    second = round_seats(event, 2)
    assert len(second) == count - 1 and leaver not in {n for n, _, _ in second}
    assert round_seats(event, 1) == first


def test_fixed_pairs_are_ranked_as_pairs_and_win_one_prize_each(make_event, organiser, django_capture_on_commit_callbacks):
    from drive.scoring.models import Standing
    from drive.scoring.selectors.results import standings
    from drive.scoring.services.freshness import fresh_standings

    event = checked_in_event(make_event, organiser, 8, rounds=3, hands_per_round=1, movement_kind="pairs",
                             prizes=["First", "Second", "Booby"])
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_evening(actor=organiser, event=event)
    for number in (1, 2, 3):
        event.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            ev.start_round(actor=organiser, event=event)
            play_round(event, ns_tricks=6 + number)
            ev.end_round(actor=organiser, event=event)
    places = sorted(Standing.objects.filter(event=event).values_list("place", flat=True))
    assert all(places.count(p) % 2 == 0 for p in places) and max(places) <= 4  # four pairs ranked, partners together
    table = standings(event, fresh_standings(event=event))
    first, second, booby = table["prizes"]
    assert len(first.winners) == 2 and len(second.winners) == 2 and len(booby.winners) == 2
    assert {w.unit for w in first.winners} != {w.unit for w in second.winners}  # one prize a pair


def test_a_progressive_evening_gets_its_quality_report_as_played(make_event, organiser, django_capture_on_commit_callbacks):
    event = started(make_event, organiser, "progressive", count=8, django_capture=django_capture_on_commit_callbacks)
    assert Movement.objects.get(event=event).quality["rounds"] == 1  # only round 1 is known in advance
    for _ in range(3):
        event.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            ev.start_round(actor=organiser, event=event)
            play_round(event)
            ev.end_round(actor=organiser, event=event)
    quality = Movement.objects.get(event=event).quality
    assert quality["as_played"] is True and quality["rounds"] == 3 and "partner_max" in quality


def test_a_player_who_needs_a_fixed_table_keeps_it_all_evening(make_event, organiser, django_capture_on_commit_callbacks):
    from drive.events.models import Registration
    from drive.scoring.models import Seat

    event = checked_in_event(make_event, organiser, 12, rounds=4, hands_per_round=1, movement_kind="individual")
    pinned = Registration.objects.filter(event=event).order_by("id").first()
    Registration.objects.filter(pk=pinned.pk).update(fixed_table=2)
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_evening(actor=organiser, event=event)
    for _ in range(4):
        event.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            ev.start_round(actor=organiser, event=event)
            play_round(event)
            ev.end_round(actor=organiser, event=event)
    tables = set(Seat.objects.filter(round__event=event, entrant__player=pinned.player_id).values_list("table__number", flat=True))
    assert tables == {2}
