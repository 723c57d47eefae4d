"""400 players, 100 tables, 8 rounds of 3 hands: every table reports at once.

The evening is built directly (bulk_create, a simple valid seating: no movement
algorithm). Rounds 1-7 are played and stored; round 8 is in play, and all 100 tables
submit its three hands from both sides (600 submissions) from concurrent threads
within the same minute, through the real service on PostgreSQL, while a real Celery
worker recomputes the standings. Nothing may be lost and the stored standings must be
exactly what the pure computation gives (rules D3-D5).

`build_evening` and `submissions` are shared with bench/standings.py.
"""
import queue
import random
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from drive.events.models import Club, Event, Player
from drive.movements.models import Entrant
from drive.scoring.selectors import standings as standings_selectors
from drive.scoring.models import HandResult, Round, Seat, Standing, Table
from tests import seats

PLAYERS, ROUNDS, HANDS = 400, 8, 3
TABLES = PLAYERS // 4
THREADS = 24
# Odd multipliers prime to 400: slot = (i * m + r) mod 400 is a different seating each round.
MULTIPLIERS = (1, 3, 7, 9, 11, 13, 17, 19)


def ns_tricks(round_number, table, hand):
    """A fixed, varied result for every hand of the evening."""
    return (table * 7 + hand * 5 + round_number * 3) % 14


def seating(round_number):
    """{entrant index: (table number, position)}: a bijection of the 400 onto 100 tables x NESW."""
    m = MULTIPLIERS[(round_number - 1) % len(MULTIPLIERS)]
    placed = {}
    for i in range(PLAYERS):
        slot = (i * m + round_number) % PLAYERS
        placed[i] = (slot // 4 + 1, "NESW"[slot % 4])
    return placed


def build_evening(*, played_rounds=ROUNDS - 1, title="Big Drive"):
    """The evening with rounds 1..played_rounds closed and stored, the next one playing."""
    now = timezone.now()
    club = Club.objects.create(name=f"{title} club", slug=f"load-{int(time.time() * 1e6)}")
    event = Event.objects.create(
        club=club, title=title, starts_at=now - timedelta(hours=2), capacity=PLAYERS, rounds=ROUNDS,
        hands_per_round=HANDS, movement_kind=Event.MovementKind.INDIVIDUAL, trump_rule=Event.TrumpRule.ROTATION,
        phase=Event.Phase.IN_PROGRESS, published=True, prizes=["First", "Second", "Third", "Half-time", "Booby"],
    )
    players = Player.objects.bulk_create(Player(display_name=f"Player {i + 1:03d}") for i in range(PLAYERS))
    Entrant.objects.bulk_create(Entrant(event=event, player=player, number=i + 1) for i, player in enumerate(players))
    tables = Table.objects.bulk_create(Table(event=event, number=n) for n in range(1, TABLES + 1))
    rounds = Round.objects.bulk_create(Round(event=event, number=n) for n in range(1, ROUNDS + 1))
    hands = []
    for round_ in rounds[:played_rounds]:
        seat_round(event, round_)
        round_.state, round_.started_at, round_.closed_at = Round.State.CLOSED, now, now
        for table in tables:
            for hand in range(1, HANDS + 1):
                hands.append(HandResult(round=round_, table=table, hand_number=hand,
                                        ns_tricks=ns_tricks(round_.number, table.number, hand),
                                        status=HandResult.Status.CONFIRMED, entered_by="N", confirmed_by="E"))
    Round.objects.bulk_update(rounds, ["state", "started_at", "closed_at"])
    HandResult.objects.bulk_create(hands, batch_size=2000)
    playing = play_round(event, played_rounds + 1) if played_rounds < ROUNDS else None
    return event, playing


def seat_round(event, round_):
    entrants = list(Entrant.objects.filter(event=event).order_by("number"))
    tables = list(Table.objects.filter(event=event).order_by("number"))
    Seat.objects.bulk_create(
        (Seat(round=round_, table=tables[table - 1], position=position, entrant=entrants[i])
         for i, (table, position) in seating(round_.number).items()),
        batch_size=2000,
    )


def play_round(event, number):
    """Close the round before `number`, seat `number` and start its clock."""
    now = timezone.now()
    Round.objects.filter(event=event, number__lt=number).exclude(state=Round.State.CLOSED).update(
        state=Round.State.CLOSED, closed_at=now)
    round_ = Round.objects.get(event=event, number=number)
    seat_round(event, round_)
    round_.state, round_.started_at, round_.deadline = Round.State.PLAYING, now, now + timedelta(minutes=20)
    round_.save()
    return round_


def submissions(event, round_number):
    """Both sides of every table, every hand of the round: N enters, E confirms (shuffled)."""
    tables = list(Table.objects.filter(event=event).order_by("number"))
    work = [(table, seat, hand, ns_tricks(round_number, table.number, hand))
            for table in tables for hand in range(1, HANDS + 1) for seat in ("N", "E")]
    random.Random(round_number).shuffle(work)
    return work


def submit_concurrently(work, threads=THREADS, window=None, on_submitted=None):
    """Run every submission from `threads` threads, each with its own connection.

    All at once (a burst: each thread takes the next as soon as it is free), or with
    `window` seconds each submission at its own random moment within the window (an
    open-loop load; latency then counts from that moment). Returns (outcomes, errors,
    latencies in seconds).
    """
    for table, seat, _hand, _ns in work:  # each phone claims its seat before the burst
        seats.claim(table, seat)
    rng = random.Random(len(work))
    jobs = queue.SimpleQueue()
    offsets = sorted(rng.uniform(0, window) for _ in work) if window else [0.0] * len(work)
    for offset, item in zip(offsets, work):
        jobs.put((offset, item))
    outcomes, errors, latencies = [], [], []
    start = []  # the moment all threads are ready: the window opens
    lock, barrier = threading.Lock(), threading.Barrier(threads, action=lambda: start.append(time.perf_counter()))

    def worker():
        try:
            barrier.wait()
            while True:
                try:
                    offset, (table, seat, hand, ns) = jobs.get_nowait()
                except queue.Empty:
                    return
                due = start[0] + offset
                time.sleep(max(0.0, due - time.perf_counter()))
                began = due if window else time.perf_counter()
                try:
                    _result, outcome = seats.enter(table=table, seat=seat, hand_number=hand, ns_tricks=ns)
                except Exception as exc:  # collected and asserted by the caller
                    with lock:
                        errors.append(repr(exc))
                    continue
                finally:
                    # Back to the pool, as at the end of a request: a thread holding its
                    # connection for the whole burst would keep the others waiting for it.
                    connection.close()
                elapsed = time.perf_counter() - began
                if on_submitted:
                    on_submitted()
                with lock:
                    outcomes.append(outcome)
                    latencies.append(elapsed)
        finally:
            connection.close()

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join((window or 0) + 120)
    return outcomes, errors, latencies


def stored_lines(event):
    return {
        s.entrant_id: (s.place, s.shared, s.total, s.hands_played, s.hands_won, s.sit_out_hands, s.first_half,
                       s.second_half)
        for s in Standing.objects.filter(event=event)
    }


def expected_lines(event):
    return {
        line.entrant: (place, shared, line.total, len(line.scores), line.won, len(line.sat_out_rounds) * HANDS,
                       line.first_half, line.second_half)
        for place, shared, line in standings_selectors.compute_for(event)
    }


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def _wait_for(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


@pytest.fixture
def empty_queue(celery_worker):
    """No stale task before, none left after: the 600 enqueued recomputations are
    redundant once one of them ran after the last submission."""
    from drive.celery import app

    app.control.purge()
    yield celery_worker
    app.control.purge()


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.worker
@pytest.mark.timeout(120)
def test_four_hundred_players_all_tables_report_at_once(empty_queue):
    from tests.services import require_postgres

    require_postgres()
    event, playing = build_evening()
    work = submissions(event, playing.number)
    assert len(work) == 600

    started = time.monotonic()
    outcomes, errors, latencies = submit_concurrently(work)
    took = time.monotonic() - started  # printed below, not asserted
    assert errors == []  # how long they took is bench/standings.py's and bench/evening_load.py's business

    # Nothing lost: every submission answered, every hand stored once and confirmed.
    assert len(outcomes) == 600
    assert outcomes.count("created") == outcomes.count("confirmed") == 300
    stored = HandResult.objects.filter(round=playing)
    assert stored.count() == TABLES * HANDS == 300
    assert not stored.exclude(status=HandResult.Status.CONFIRMED).exists()
    assert {(r.table.number, r.hand_number): r.ns_tricks for r in stored.select_related("table")} == {
        (t, h): ns_tricks(playing.number, t, h) for t in range(1, TABLES + 1) for h in range(1, HANDS + 1)
    }
    assert HandResult.history.filter(round=playing).count() == 600  # each submission in the audit trail

    # The worker's stored standings are exact: the same as computing them here (rules D3-D5).
    expected = expected_lines(event)
    assert len(expected) == PLAYERS
    assert _wait_for(lambda: stored_lines(event) == expected, 45), "the worker's standings differ"
    assert all(line[3] == ROUNDS * HANDS for line in expected.values())  # rule D4: all 24 hands count
    print(f"\n600 submissions from {THREADS} threads in {took:.2f} s; latency p50 "
          f"{percentile(latencies, .5) * 1000:.0f} ms, p95 {percentile(latencies, .95) * 1000:.0f} ms")
