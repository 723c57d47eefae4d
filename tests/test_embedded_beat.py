"""The embedded default's beat (drive/core/beat.py): with no Redis nothing else runs the
sweeps of CELERY_BEAT_SCHEDULE (a stand-in robot for a player who never came waited for
ever on `bin/serve`), so the server runs them at their periods, eagerly."""
import pytest

from drive.core import beat

pytestmark = pytest.mark.embedded  # run in pass 2 too: it is about what the embedded default does


def test_every_scheduled_task_runs_at_once_then_at_its_period(settings):
    settings.CELERY_BEAT_SCHEDULE = {"a": {"task": "t.a", "schedule": 5}, "b": {"task": "t.b", "schedule": 60}}
    due, ran = {}, []
    assert beat.tick(due, 100.0, ran.append) == ["t.a", "t.b"]
    assert beat.tick(due, 104.0, ran.append) == []
    assert beat.tick(due, 105.0, ran.append) == ["t.a"]
    assert beat.tick(due, 160.0, ran.append) == ["t.a", "t.b"]
    assert ran == ["t.a", "t.b", "t.a", "t.a", "t.b"]


def test_it_starts_only_when_asked_on_the_embedded_default(settings, monkeypatch):
    monkeypatch.setattr(beat, "_started", None)
    started = []
    monkeypatch.setattr(beat.threading, "Thread", lambda **kw: started.append(kw) or type("Thread", (), {"start": lambda self: None})())
    settings.EMBEDDED_BEAT, settings.CELERY_TASK_ALWAYS_EAGER = False, True
    assert beat.start() is None
    settings.EMBEDDED_BEAT, settings.CELERY_TASK_ALWAYS_EAGER = True, False  # Redis: celery beat runs them
    assert beat.start() is None
    settings.EMBEDDED_BEAT, settings.CELERY_TASK_ALWAYS_EAGER = True, True
    assert beat.start() is not None and beat.start() is None  # once
    assert [kw["name"] for kw in started] == ["embedded-beat"]


# db: run_task closes stale connections first, and whether this process holds one depends
# on the tests run before it here (with xdist, another order on each worker).
def test_a_scheduled_task_runs_eagerly_and_a_failure_is_only_logged(db, monkeypatch, caplog):
    calls = []
    monkeypatch.setattr("drive.games.services.robots.sweep_silent_seats", lambda: calls.append(1) or 0)
    beat.run_task("drive.games.tasks.sweep_silent_seats")
    assert calls == [1]
    monkeypatch.setattr("drive.games.services.robots.sweep_silent_seats", lambda: 1 / 0)
    beat.run_task("drive.games.tasks.sweep_silent_seats")  # logged, not raised: tried again at its next period
    assert "sweep_silent_seats failed" in caplog.text
