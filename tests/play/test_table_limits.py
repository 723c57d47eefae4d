"""Limits on what one user may start (issue 19): casual tables alive, tables opened an
hour and strong-robot seats are settings; past one the service refuses with TooMany, the
API and the lobby page answer 429 with the sentence, and nothing is made."""
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from drive.core.errors import TooMany
from drive.games.models import PlaySeat, PlayTable
from drive.games.services import tables
from tests.services import require_postgres

pytestmark = pytest.mark.django_db

STRONG_THREE = {"E": "strong", "S": "strong", "W": "strong"}
FULL = "You already have the most unfinished tables allowed (2): finish or close one before opening another."


@pytest.fixture
def limits(settings):
    settings.PLAY_TABLES_ALIVE_PER_USER = 2
    settings.PLAY_TABLES_PER_HOUR = 3
    settings.PLAY_STRONG_SEATS_PER_USER = 3
    return settings


def make(user, robots=None):
    return tables.create_table(user=user, rules="short", robots=robots if robots is not None else {"E": "rules"})


def test_tables_alive_past_the_limit_are_refused_until_one_is_finished(limits, make_user):
    me, other = make_user(), make_user()
    first, _second = make(me), make(me)
    with pytest.raises(TooMany) as refused:
        make(me)
    assert refused.value.status == 429 and "unfinished tables allowed (2)" in refused.value.message
    assert PlayTable.objects.filter(created_by=me).count() == 2
    make(other)  # a limit of each user's own
    PlayTable.objects.filter(pk=first.pk).update(finished_at=timezone.now())
    make(me)


def test_tables_opened_an_hour_past_the_limit_are_refused(limits, make_user):
    limits.PLAY_TABLES_ALIVE_PER_USER = 100
    me = make_user()
    for _ in range(3):
        PlayTable.objects.filter(pk=make(me).pk).update(finished_at=timezone.now())  # finished: still counted
    with pytest.raises(TooMany) as refused:
        make(me)
    assert "tables allowed in an hour (3)" in refused.value.message
    PlayTable.objects.filter(created_by=me).update(created_at=timezone.now() - timedelta(minutes=61))
    make(me)


def test_strong_robots_past_the_limit_are_refused_at_a_new_table_and_in_a_seat(limits, make_user):
    me = make_user()
    table = make(me, STRONG_THREE)
    with pytest.raises(TooMany) as refused:
        make(me, {"E": "strong"})
    assert "limited to 3" in refused.value.message and PlayTable.objects.filter(created_by=me).count() == 1
    other = make(me, {"E": "rules"})
    with pytest.raises(TooMany):
        tables.seat_robot(user=me, table_id=other.pk, seat="S", robot="strong")  # an open seat
    assert PlaySeat.objects.get(table=other, seat="S").is_open
    tables.seat_robot(user=me, table_id=table.pk, seat="E", robot="strong")  # a strong robot in place of a strong robot: no more
    tables.seat_robot(user=me, table_id=other.pk, seat="S", robot="rules")
    PlayTable.objects.filter(pk=table.pk).update(finished_at=timezone.now())
    tables.seat_robot(user=me, table_id=other.pk, seat="W", robot="strong")


def test_the_api_answers_429_with_the_sentence(limits, api, make_user):
    me = make_user()
    api.force_authenticate(me)
    body = {"rules": "short", "robots": {"E": "rules"}}
    assert [api.post("/api/play/tables/", body, format="json").status_code for _ in range(2)] == [201, 201]
    flood = api.post("/api/play/tables/", body, format="json")
    assert flood.status_code == 429
    assert flood.json() == {"detail": FULL, "code": "too_many"}
    table_id = PlayTable.objects.filter(created_by=me).first().pk
    strong = api.post(f"/api/play/tables/{table_id}/seats/", {"seat": "S", "robot": "strong"}, format="json")
    assert strong.status_code == 200
    limits.PLAY_STRONG_SEATS_PER_USER = 1
    strong = api.post(f"/api/play/tables/{table_id}/seats/", {"seat": "W", "robot": "strong"}, format="json")
    assert strong.status_code == 429 and strong.json()["code"] == "too_many"


def test_the_lobby_shows_the_sentence_with_429(limits, client, make_user):
    me = make_user()
    client.force_login(me)
    form = {"rules": "short", "robot_E": "rules", "robot_S": "rules", "robot_W": "rules"}
    assert [client.post("/play/", form).status_code for _ in range(2)] == [302, 302]
    page = client.post("/play/", form)
    assert page.status_code == 429
    assert FULL in page.content.decode()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_tables_at_once_cannot_both_take_the_last_place(limits, make_user):
    require_postgres()
    me = make_user()
    make(me)
    results, start = [None] * 4, threading.Barrier(4)

    def run(i):
        start.wait()
        try:
            results[i] = make(me)
        except Exception as exc:  # noqa: BLE001 - the test reads it
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(isinstance(r, PlayTable) for r in results) == 1, results
    assert sum(isinstance(r, TooMany) for r in results) == 3, results
    assert PlayTable.objects.filter(created_by=me).count() == 2
