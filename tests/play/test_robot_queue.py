"""Robots' moves are queued fairly (issue 19, "Robots as a service of their own"): one
pending move a table, in the robots' own queue; a strong robot's move, or one at a table
where nobody waits, in the slow queue, so a quick robot's move where a person waits is
never behind them. The queues are consumed by workers of their own (docs/deployment.md)."""
from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from celery.signals import before_task_publish
from django.utils import timezone

from drive.celery import app as celery_app
from drive.games.models import PlayAction, PlaySeat, PlayTable
from drive.games.selectors.tables import game_of
from drive.games.services import actions, robots, tables
from tests.play.core_kit import THREE_ROBOTS, fresh

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """The robot moves sent to the broker: (table id, version, queue named at the call or None)."""
    sent = []

    class Task:
        @staticmethod
        def apply_async(args, countdown, queue=None):
            sent.append((*args, queue))

    monkeypatch.setattr(actions, "task", lambda name: Task)
    return sent


def robot_to_act(user, robots_at=None):
    """A casual table, `user` at N, a robot to act (no robot's task runs here)."""
    table = tables.create_table(user=user, rules="short", robots=robots_at or THREE_ROBOTS, seat="N")
    game = game_of(table)
    if game.to_act == "N":
        actions.apply_action(user=user, table_id=table.pk, action=str(game.legal_actions()[0]), version=table.version)
    table = fresh(table)
    assert game_of(table).to_act != "N"
    return table


def test_one_pending_move_a_table(make_user, sent):
    table = robot_to_act(make_user())
    actions.send_robot_move(table_id=table.pk, version=table.version)
    actions.send_robot_move(table_id=table.pk, version=table.version)  # the sweep, a second wake: not queued again
    assert [s[:2] for s in sent] == [(table.pk, table.version)]
    other = robot_to_act(make_user())
    actions.send_robot_move(table_id=other.pk, version=other.version)  # another table has its own
    assert len(sent) == 2
    assert robots.play_robot(table_id=table.pk, version=table.version) is True  # the move ran: the next may be queued
    actions.send_robot_move(table_id=table.pk, version=table.version + 1)
    assert [s[:2] for s in sent][-1] == (table.pk, table.version + 1)


def test_a_move_overtaken_asks_for_the_tables_own_version(make_user, sent, django_capture_on_commit_callbacks):
    table = robot_to_act(make_user())
    actions.send_robot_move(table_id=table.pk, version=table.version)
    PlayTable.objects.filter(pk=table.pk).update(version=table.version + 1)  # moved on meanwhile
    actions.send_robot_move(table_id=table.pk, version=table.version + 1)  # held back: a move is pending
    assert len(sent) == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert robots.play_robot(table_id=table.pk, version=table.version) is False  # stale: plays nothing...
    assert [s[:2] for s in sent] == [(table.pk, table.version), (table.pk, table.version + 1)]  # ...asks again
    assert not PlayAction.objects.filter(table=table, by_robot=True).exists()


def test_no_move_is_queued_for_a_finished_table(make_user, sent):
    table = robot_to_act(make_user())
    PlayTable.objects.filter(pk=table.pk).update(finished_at=timezone.now())
    actions.send_robot_move(table_id=table.pk, version=table.version)
    assert sent == []


def test_a_quick_robot_where_a_person_waits_goes_to_the_robots_queue(make_user, sent, settings):
    table = robot_to_act(make_user())
    actions.send_robot_move(table_id=table.pk, version=table.version)
    assert sent[0][2] is None  # routed by settings.CELERY_TASK_ROUTES:
    route = celery_app.amqp.router.route({}, actions.ROBOT_TASK, (table.pk, table.version), {})
    assert route["queue"].name == settings.PLAY_ROBOT_QUEUE == "robots"
    assert celery_app.amqp.router.route({}, "drive.scoring.tasks.recompute_standings", (1,), {})["queue"].name \
        == "celery"  # other work keeps the default queue


def test_a_strong_robots_move_goes_to_the_slow_queue(make_user, sent, settings):
    table = robot_to_act(make_user(), {"E": "strong", "S": "strong", "W": "strong"})
    actions.send_robot_move(table_id=table.pk, version=table.version)
    assert sent[0][2] == settings.PLAY_ROBOT_SLOW_QUEUE == "robots_slow"


def test_an_event_table_where_nobody_is_present_goes_to_the_slow_queue(make_user, make_event, sent, settings):
    me = make_user()
    table = robot_to_act(me)
    PlayTable.objects.filter(pk=table.pk).update(event=make_event(), round_number=1, table_number=1)
    PlaySeat.objects.filter(table=table, user=me).update(standin=True, last_seen=timezone.now() - timedelta(hours=1))
    actions.send_robot_move(table_id=table.pk, version=table.version)
    assert sent[0][2] == settings.PLAY_ROBOT_SLOW_QUEUE


def test_the_message_is_published_to_the_robots_queue(make_user, settings):
    """Published for real (the embedded broker, or Redis): the routing key names the queue."""
    table = robot_to_act(make_user())
    published = []

    def seen(sender=None, routing_key=None, **_):
        published.append((sender, routing_key))

    before_task_publish.connect(seen)
    celery_app.conf.task_always_eager = False  # restored by the conftest fixture
    try:
        actions.send_robot_move(table_id=table.pk, version=table.version)
    finally:
        before_task_publish.disconnect(seen)
        actions.robot_move_started(table=table)
    assert published == [(actions.ROBOT_TASK, "robots")]


def test_compose_runs_workers_of_their_own_for_the_robots_queues(settings):
    services = yaml.safe_load((Path(__file__).resolve().parents[2] / "docker-compose.yml").read_text())["services"]

    def queues(name):
        command = services[name]["command"]
        assert command[:4] == ["celery", "-A", "drive", "worker"]
        return command[command.index("-Q") + 1].split(",")

    assert queues("worker") == [settings.CELERY_TASK_DEFAULT_QUEUE]
    assert queues("robots") == [settings.PLAY_ROBOT_QUEUE]
    assert queues("robots-slow") == [settings.PLAY_ROBOT_SLOW_QUEUE]
    for name in ("robots", "robots-slow"):
        assert services[name]["restart"] == "unless-stopped"
        assert {"--without-gossip", "--without-mingle", "--without-heartbeat"} <= set(services[name]["command"])
