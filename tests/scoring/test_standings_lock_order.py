"""A recomputation of the standings and an organiser's action on the same event never
deadlock (real PostgreSQL).

Seen in CI: end_round locks the event's row, then raises the results version (the state
row); a worker's recomputation had updated the state row and then, at commit, ran the
new lines' deferred foreign-key check, which waits for the event's row. Each waited for
the other. The recomputation now takes the event row's key-share lock first.
"""
import threading
import time

import pytest
from django.db import connection, transaction

from drive.events.models import Event
from drive.scoring.models import Standing
from drive.scoring.selectors import standings as standings_selectors
from drive.scoring.services import ranking, versions
from tests.services import require_postgres

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def waiting_on_a_lock(pid):
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return row is not None and row[0] == "Lock"


def test_a_recomputation_waits_for_an_action_holding_the_event_and_neither_fails(evening):
    require_postgres()
    versions.bump(event_id=evening.pk)  # the state row exists, as after any entry
    assert not Standing.objects.filter(event=evening).exists()  # the recomputation inserts lines
    locked, errors, pid = threading.Event(), [], []

    def organiser():  # as end_round: the event's row first, then the results version
        try:
            with transaction.atomic():
                Event.objects.select_for_update().get(pk=evening.pk)
                locked.set()
                deadline = time.monotonic() + 60
                while not (pid and waiting_on_a_lock(pid[0])) and time.monotonic() < deadline:
                    time.sleep(0.02)
                versions.bump(event_id=evening.pk)
        except Exception as exc:  # noqa: BLE001 - asserted below
            errors.append(exc)
        finally:
            locked.set()
            connection.close()

    def worker():  # the recomputation task, started while the action holds the event
        try:
            locked.wait(60)
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pid.append(cursor.fetchone()[0])
            ranking.recompute_standings(event_id=evening.pk)
        except Exception as exc:  # noqa: BLE001 - asserted below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=organiser), threading.Thread(target=worker)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    state = standings_selectors.state_of(evening.pk)
    # The recomputation ran after the action committed: it read the raised version.
    assert state.computed_version == state.results_version == 2
    assert Standing.objects.filter(event=evening).count() == 9
