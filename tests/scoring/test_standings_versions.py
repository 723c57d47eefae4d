"""Standings are never stale when shown as final.

Every change that moves the standings raises the event's results version in its own
transaction; a recomputation records the version it read; a read that finds them behind
asks for a recomputation (final ones are recomputed first); publishing recomputes under
the event's lock; beat's sweep redoes what a lost task left undone, whatever the pending
mark says; a broker or cache outage after commit never fails a saved entry.
"""
import pytest
from django.core.cache import cache
from kombu.exceptions import OperationalError

from drive.events.models import Event, Registration
from drive.movements.models import Entrant
from drive.scoring.services.freshness import fresh_standings
from drive.scoring.services import evening as evenings
from drive.scoring import tasks
from drive.scoring.services import recompute
from drive.scoring.services import ranking
from drive.scoring.selectors import standings as standings_selectors
from drive.scoring.services import results
from drive.scoring.models import HandResult, Standing, Table
from drive.scoring.selectors import results as selectors
from tests import seats

pytestmark = pytest.mark.django_db


def stored_lines(event):
    return {s.entrant_id: (s.place, s.shared, s.total, s.hands_played, s.hands_won, s.sit_out_hands)
            for s in Standing.objects.filter(event=event)}


def recomputed_lines(event):
    """What the rows say now, computed afresh (nothing stored)."""
    return {line.entrant: (place, shared, line.total, len(line.scores), line.won,
                           len(line.sat_out_rounds) * event.hands_per_round)
            for place, shared, line in standings_selectors.compute_for(event)}


def play(table, hand, ns):
    seats.enter(table=table, seat="N", hand_number=hand, ns_tricks=ns, trump="H")
    seats.enter(table=table, seat="E", hand_number=hand, ns_tricks=ns, trump="H")


def version(event):
    state = standings_selectors.state_of(event.pk)
    return (state.results_version, state.computed_version) if state else None


@pytest.fixture
def no_tasks(monkeypatch):
    """Recomputations asked for are counted, not run (a worker that never comes)."""
    asked = []
    monkeypatch.setattr(tasks.recompute_standings, "delay", lambda event_id: asked.append(event_id))
    return asked


@pytest.fixture
def finished(evening, table1, organiser):
    """Round 1 played at table 1, the standings stored, the evening finished."""
    play(table1, 1, 9)
    play(table1, 2, 4)
    ranking.recompute_standings(event_id=evening.pk)
    Event.objects.filter(pk=evening.pk).update(phase=Event.Phase.FINISHED)
    evening.refresh_from_db()
    return evening


# --- versions ---------------------------------------------------------------------------------


def test_every_result_change_raises_the_version_and_a_recompute_records_it(evening, table1, organiser, no_tasks):
    assert version(evening) is None  # nothing entered yet
    seats.enter(table=table1, seat="N", hand_number=1, ns_tricks=7, trump="H")
    assert version(evening) == (1, 0)
    seats.enter(table=table1, seat="E", hand_number=1, ns_tricks=7, trump="H")  # confirmed
    assert version(evening) == (2, 0)
    seats.enter(table=table1, seat="E", hand_number=1, ns_tricks=7, trump="H")  # the same again: no change
    assert version(evening) == (2, 0)
    ranking.recompute_standings(event_id=evening.pk)
    assert version(evening) == (2, 2) and not standings_selectors.state_of(evening.pk).stale
    results.correct_result(actor=organiser, table=table1, round_number=1, hand_number=1, ns_tricks=8, reason="Card")
    assert version(evening) == (3, 2) and standings_selectors.state_of(evening.pk).stale


def test_entrants_raise_the_version_once_a_hand_counts(evening, table1, organiser, no_tasks):
    """A leaver moves the standings (their sit-out credit stops): the version goes up with it."""
    leaver = Entrant.objects.get(event=evening, number=9)
    evenings.remove_leaver(actor=organiser, event=evening, entrant=leaver)
    assert version(evening) is None  # before the first result there are no standings to move
    seats.enter(table=table1, seat="N", hand_number=1, ns_tricks=7, trump="H")
    ranking.recompute_standings(event_id=evening.pk)
    before = version(evening)
    evenings.remove_leaver(actor=organiser, event=evening, entrant=Entrant.objects.get(event=evening, number=8))
    assert version(evening)[0] > before[0] and standings_selectors.state_of(evening.pk).stale


def test_a_recompute_of_fresh_standings_is_skipped_only_when_asked(evening, table1, no_tasks):
    play(table1, 1, 9)
    assert ranking.recompute_standings(event_id=evening.pk, only_if_stale=True) == 9
    assert ranking.recompute_standings(event_id=evening.pk, only_if_stale=True) is None  # already fresh
    assert ranking.recompute_standings(event_id=evening.pk) == 9  # the publish path always recomputes


# --- reads ------------------------------------------------------------------------------------


def test_live_standings_behind_the_results_show_updating_and_ask_again(
        evening, table1, no_tasks, django_capture_on_commit_callbacks):
    play(table1, 1, 9)
    ranking.recompute_standings(event_id=evening.pk)
    assert selectors.standings(evening, fresh_standings(event=evening))["updating"] is False
    seats.enter(table=table1, seat="N", hand_number=2, ns_tricks=4, trump="H")  # no worker: the task never runs
    cache.delete(recompute.pending_key(event_id=evening.pk))  # and its mark has expired
    no_tasks.clear()
    with django_capture_on_commit_callbacks(execute=True):
        table = selectors.standings(evening, fresh_standings(event=evening))
    assert table["updating"] is True and table["version"] == 2
    assert no_tasks == [evening.pk]  # the read asked for a recomputation
    cache.delete(recompute.pending_key(event_id=evening.pk))


def test_final_standings_are_recomputed_before_they_are_shown(finished, table1, organiser, no_tasks):
    """The stored standings are wrong and their task lost: the results page never shows them."""
    results.correct_result(actor=organiser, table=table1, round_number=1, hand_number=1, ns_tricks=2, reason="Card")
    Standing.objects.filter(event=finished).update(total=99)  # what a lost task would leave behind
    assert stored_lines(finished) != recomputed_lines(finished)
    table = selectors.standings(finished, fresh_standings(event=finished))
    assert table["updating"] is False
    assert stored_lines(finished) == recomputed_lines(finished)
    assert {line.entrant_id: line.total for line in table["lines"]} == {
        e: values[2] for e, values in recomputed_lines(finished).items()}
    assert not standings_selectors.state_of(finished.pk).stale


def test_publishing_recomputes_what_it_publishes(finished, table1, organiser, no_tasks):
    """Rule of publish never sends out the stored standings unchecked, even
    when their version says they are current (they are recomputed under the lock)."""
    results.correct_result(actor=organiser, table=table1, round_number=1, hand_number=2, ns_tricks=12, reason="Card")
    Standing.objects.filter(event=finished).update(total=0, place=1, shared=True)
    evenings.publish_results(actor=organiser, event=finished)
    finished.refresh_from_db()
    assert finished.phase == Event.Phase.RESULTS_PUBLISHED
    assert stored_lines(finished) == recomputed_lines(finished)
    assert not standings_selectors.state_of(finished.pk).stale


def test_publishing_is_for_organisers_only(finished, make_user):
    from drive.core.errors import Forbidden

    with pytest.raises(Forbidden):
        evenings.publish_results(actor=make_user(), event=finished)
    assert Event.objects.get(pk=finished.pk).phase == Event.Phase.FINISHED


# --- the sweep and the pending mark -------------------------------------------------------------


def test_the_sweep_recomputes_stale_events_whatever_the_pending_mark_says(evening, table1, no_tasks):
    play(table1, 1, 9)
    assert cache.get(recompute.pending_key(event_id=evening.pk)) is None  # no on_commit here: nothing was marked
    cache.set(recompute.pending_key(event_id=evening.pk), True, 600)  # a lost task's mark, still there
    assert standings_selectors.stale_event_ids() == [evening.pk]
    assert tasks.sweep_stale_standings() == [evening.pk]
    assert stored_lines(evening) == recomputed_lines(evening)
    assert standings_selectors.stale_event_ids() == []
    assert tasks.sweep_stale_standings() == []  # nothing behind: nothing done
    cache.delete(recompute.pending_key(event_id=evening.pk))


def test_the_pending_mark_expires_by_itself(evening, table1, monkeypatch, django_capture_on_commit_callbacks):
    """A killed worker's mark can block only until it expires: it is set with a short TTL."""
    added = []
    real_add = cache.add
    monkeypatch.setattr(tasks.recompute_standings, "delay", lambda event_id: None)
    monkeypatch.setattr(cache, "add", lambda key, value, timeout: added.append(timeout) or real_add(key, value, timeout))
    cache.delete(recompute.pending_key(event_id=evening.pk))
    with django_capture_on_commit_callbacks(execute=True):
        seats.enter(table=table1, seat="N", hand_number=1, ns_tricks=7, trump="H")
    assert added == [recompute.PENDING_SECONDS] and 0 < recompute.PENDING_SECONDS <= 60
    cache.delete(recompute.pending_key(event_id=evening.pk))


def test_a_task_clears_its_mark_and_skips_fresh_standings(evening, table1, no_tasks):
    play(table1, 1, 9)
    cache.set(recompute.pending_key(event_id=evening.pk), True, 600)
    assert tasks.recompute_standings(evening.pk) == 9
    assert cache.get(recompute.pending_key(event_id=evening.pk)) is None
    assert tasks.recompute_standings(evening.pk) is None  # the sweep or a read got there first


# --- outages after commit -----------------------------------------------------------------------


def broker_down(*args, **kwargs):
    raise OperationalError("Error 111 connecting to redis:6379. Connection refused.")


def cache_down(*args, **kwargs):
    from redis.exceptions import ConnectionError as RedisConnectionError

    raise RedisConnectionError("Connection refused")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("outage", ["broker", "cache", "both"])
def test_an_entry_is_answered_2xx_and_stored_whatever_redis_says(api, evening, monkeypatch, outage):
    """The enqueue runs after commit; a broker or cache that raises there is
    logged, and the phone gets its 2xx for the stored hand."""
    table = Table.objects.get(event=evening, number=1)
    secret = seats.api_claim(api, table, "N")
    if outage in ("broker", "both"):
        monkeypatch.setattr(tasks.recompute_standings, "delay", broker_down)
    if outage in ("cache", "both"):
        monkeypatch.setattr(cache, "add", cache_down)
        monkeypatch.setattr(cache, "delete", cache_down)
    response = api.post(f"/api/tables/{table.token}/results/", {"hand_number": 1, "ns_tricks": 8, "trump": "H"},
                        format="json", HTTP_X_SEAT_CLAIM=secret)
    assert response.status_code in (200, 201), response.content
    assert HandResult.objects.get(round__event=evening, table=table, hand_number=1).ns_tricks == 8
    # Without a broker the sweep will see the standings behind; a cache outage alone
    # still lets the task run (eager here), the mark being only an optimisation.
    assert standings_selectors.state_of(evening.pk).stale == (outage != "cache")


@pytest.mark.django_db(transaction=True)
def test_a_cancellation_stands_when_the_broker_refuses_the_waitlist_task(make_event, make_user, monkeypatch):
    """`delay_on_commit` of every task is robust (drive.celery.RobustTask)."""
    from drive.events.services import registration as registration_services
    from drive.events.tasks import promote_waitlist

    event = make_event(capacity=1)
    first = registration_services.register(actor=make_user(), event=event)
    monkeypatch.setattr(promote_waitlist, "delay", broker_down)
    registration_services.cancel_registration(actor=first.player.user, registration=first)  # no exception
    assert Registration.objects.get(pk=first.pk).status == Registration.Status.CANCELLED


def test_the_api_says_which_version_it_shows_and_whether_it_is_updating(api, evening, table1, no_tasks):
    play(table1, 1, 9)
    ranking.recompute_standings(event_id=evening.pk)
    body = api.get(f"/api/events/{evening.pk}/standings/").json()
    assert (body["version"], body["updating"]) == (2, False)
    seats.enter(table=table1, seat="N", hand_number=2, ns_tricks=4, trump="H")  # the task never runs
    body = api.get(f"/api/events/{evening.pk}/standings/").json()
    assert (body["version"], body["updating"]) == (2, True)


def test_the_standings_page_says_when_it_is_updating(client, evening, table1, no_tasks):
    play(table1, 1, 9)
    ranking.recompute_standings(event_id=evening.pk)
    assert "Updating" not in client.get(f"/events/{evening.pk}/standings/").content.decode()
    seats.enter(table=table1, seat="N", hand_number=2, ns_tricks=4, trump="H")  # the task never runs
    html = client.get(f"/events/{evening.pk}/standings/").content.decode()
    assert "Updating: the latest results are being counted." in html


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_publishing_waits_for_a_running_recomputation_without_deadlock(finished, organiser):
    """A recomputation that stores a new line reads the event's row (its foreign key):
    publishing takes the recomputation lock before that row, never the other way round."""
    import threading

    import psycopg
    from django.db import connection

    from tests.asgi_server import database_url
    from tests.services import require_postgres

    require_postgres()
    key = (ranking.ADVISORY_LOCK_CLASS, finished.pk % 2**31)
    gone = Standing.objects.filter(event=finished).order_by("entrant_id").first()
    gone.delete()  # the running recomputation will store this line anew
    outcome = {}

    def publish():
        try:
            evenings.publish_results(actor=organiser, event=finished)
            outcome["published"] = True
        except Exception as exc:  # noqa: BLE001 - reported below
            outcome["error"] = exc
        finally:
            connection.close()

    with psycopg.connect(database_url()) as running:  # the worker's recomputation, mid-way
        running.execute("SELECT pg_advisory_xact_lock(%s, %s)", key)
        publisher = threading.Thread(target=publish)
        publisher.start()
        waiting = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s AND objid = %s AND NOT granted"
        with psycopg.connect(database_url(), autocommit=True) as probe:
            for _ in range(600):
                if probe.execute(waiting, key).fetchone()[0]:
                    break
                threading.Event().wait(0.05)
        running.execute(
            "INSERT INTO scoring_standing (event_id, entrant_id, place, shared, total, hands_played, hands_won, "
            "sit_out_hands, first_half, second_half, computed_at) VALUES (%s, %s, 1, false, 0, 0, 0, 0, 0, 0, now())",
            (finished.pk, gone.entrant_id))
        running.commit()
    publisher.join(60)
    assert outcome == {"published": True}
    assert stored_lines(finished) == recomputed_lines(finished)
