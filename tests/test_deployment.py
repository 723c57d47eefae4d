"""Production settings pass `check --deploy`, and docker-compose.yml agrees with the settings."""
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.embedded  # run in pass 2 too: it is about what the embedded default does

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": "k" * 20 + "-production-secret-" + "z" * 30,
    "DJANGO_ALLOWED_HOSTS": "whist.example.org",
    "DATABASE_URL": "postgres://whist:secret@db.example.org:5432/whist",
    "REDIS_URL": "redis://redis.example.org:6379/0",
}


def settings_variables():
    """Every environment variable drive/settings.py reads."""
    source = (ROOT / "drive" / "settings.py").read_text()
    return set(re.findall(r'(?:environ\.get|env_bool|env_list)\(\s*"([A-Z_]+)"', source))


def test_check_deploy_is_clean_with_production_variables():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env={"PATH": "/usr/bin:/bin", **PRODUCTION}, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {"PATH": "/usr/bin:/bin", **PRODUCTION, "DJANGO_SECRET_KEY": ""}
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and "DJANGO_SECRET_KEY must be set" in result.stderr


def test_compose_services_and_variables_match_settings():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "migrate", "web", "worker"} <= set(services)
    known = settings_variables()
    for name in ("migrate", "web", "worker"):
        env = services[name]["environment"]
        assert set(env) <= known, f"{name} sets variables the settings never read: {set(env) - known}"
        assert {"DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DJANGO_DEBUG"} <= set(env)
        assert env["DJANGO_DEBUG"] == "false"
        assert "@postgres:5432/" in env["DATABASE_URL"] and env["REDIS_URL"].startswith("redis://redis:6379")
    assert "drive.asgi:application" in " ".join(services["web"]["command"])
    assert services["worker"]["command"][:3] == ["celery", "-A", "drive"]
    assert "migrate" in " ".join(services["migrate"]["command"])
    postgres = services["postgres"]["environment"]
    assert services["web"]["environment"]["DATABASE_URL"].startswith(f"postgres://{postgres['POSTGRES_USER']}:")
    assert "ports" not in services["postgres"] and "ports" not in services["redis"]  # not exposed outside


def test_settings_switch_on_environment():
    code = "from django.conf import settings as s; print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, s.CHANNEL_LAYERS['default']['BACKEND'])"
    run = lambda env: subprocess.run(  # noqa: E731
        [sys.executable, "-c", f"import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE','drive.settings'); django.setup(); {code}"],
        cwd=ROOT, env={"PATH": "/usr/bin:/bin", **env}, capture_output=True, text=True, timeout=120,
    ).stdout.split()
    assert run({}) == ["django.db.backends.sqlite3", "True", "channels.layers.InMemoryChannelLayer"]
    prod = run({k: v for k, v in PRODUCTION.items()})
    assert prod == ["django.db.backends.postgresql", "False", "drive.core.channel_layer.RedisChannelLayer"]


@pytest.mark.parametrize("how", ["SQLITE_PATH", "DATABASE_URL"])
def test_embedded_sqlite_uses_wal_and_immediate_transactions(tmp_path, how):
    """The same SQLite however it is named: its path, or a sqlite:// DATABASE_URL (which
    once got PostgreSQL's pool option and failed to connect)."""
    path = tmp_path / "db.sqlite3"
    database = {"SQLITE_PATH": str(path)} if how == "SQLITE_PATH" else {"DATABASE_URL": f"sqlite:///{path}"}
    code = (
        "from django.db import connection; c = connection.cursor(); c.execute('PRAGMA journal_mode'); "
        "print(c.fetchone()[0], connection.settings_dict['OPTIONS']['transaction_mode'], "
        "connection.settings_dict['OPTIONS']['timeout'])"
    )
    env = {"PATH": "/usr/bin:/bin", **database}
    out = subprocess.run(
        [sys.executable, "-c", f"import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE','drive.settings'); django.setup(); {code}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert out.stdout.split() == ["wal", "IMMEDIATE", "20"], out.stderr


def test_compose_restarts_its_processes_and_runs_one_beat():
    """A worker that exits (a Redis outage) comes back by itself, and beat sends
    the standings sweep that redoes lost recomputations."""
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    for name in ("web", "worker", "beat"):
        assert services[name].get("restart") == "unless-stopped", name
    assert services["beat"]["command"][:4] == ["celery", "-A", "drive", "beat"]
    assert services["beat"]["environment"] == services["worker"]["environment"]
    assert {"--without-gossip", "--without-mingle", "--without-heartbeat"} <= set(services["worker"]["command"])


def test_a_killed_workers_task_comes_back_within_minutes():
    """Redis hands an unacknowledged task to another worker after the visibility
    timeout: longer than any task (a movement search's safety net), far below its default
    hour; beat's sweep runs far more often still, and the worker never stops reconnecting."""
    from django.conf import settings

    assert settings.MOVEMENT_SAFETY_SECONDS < settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] < 3600
    assert settings.CELERY_BEAT_SCHEDULE["sweep-stale-standings"]["schedule"] <= 30
    assert settings.CELERY_TASK_ACKS_LATE and settings.CELERY_TASK_REJECT_ON_WORKER_LOST
    assert settings.CELERY_BROKER_CONNECTION_RETRY and settings.CELERY_BROKER_CONNECTION_MAX_RETRIES is None
