"""The row lock on real PostgreSQL: the same action sent at once from two connections is
applied once, and two seats racing for one turn give one play and one conflict."""
import threading

import pytest
from django.db import connection

from drive.core.errors import Conflict
from drive.games.models import PlayAction
from drive.games.selectors.tables import game_of
from drive.games.services import actions
from tests.play.core_kit import four_people, fresh
from tests.services import require_postgres

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _at_once(calls):
    """Run the calls in threads started together; their answers or errors, in order."""
    results = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(i, call):
        start.wait()
        try:
            results[i] = call()
        except Exception as exc:  # noqa: BLE001 - the test reads it
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_the_same_action_sent_twice_at_once_is_applied_once(make_user):
    require_postgres()
    table, people = four_people(make_user)
    game = game_of(table)
    player, card = people[game.to_act], str(game.legal_actions()[0])
    results = _at_once([lambda: actions.apply_action(user=player, table_id=table.pk, action=card, version=0)] * 4)
    assert all(isinstance(r, dict) and r["version"] == 1 for r in results), results
    assert PlayAction.objects.filter(table=table).count() == 1 and fresh(table).version == 1


def test_two_cards_for_one_turn_one_wins(make_user):
    require_postgres()
    table, people = four_people(make_user)
    game = game_of(table)
    player = people[game.to_act]
    first, second = (str(a) for a in game.legal_actions()[:2])
    results = _at_once([lambda: actions.apply_action(user=player, table_id=table.pk, action=first, version=0),
                        lambda: actions.apply_action(user=player, table_id=table.pk, action=second, version=0)])
    assert sum(isinstance(r, dict) for r in results) == 1
    assert sum(isinstance(r, Conflict) for r in results) == 1
    assert PlayAction.objects.filter(table=table).count() == 1
