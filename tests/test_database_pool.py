"""Bounded PostgreSQL connections (`conn_max_age=60` under ASGI kept one
connection per request thread, 73 in 3 s for 20 clients, then "too many clients").
Each process has a psycopg pool sized from the environment; the embedded SQLite default
is unchanged. Under load: tests/integration/test_load_faults.py."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.embedded  # run in pass 2 too: it is about what the embedded default does

ROOT = Path(__file__).resolve().parents[1]
SHOW = ("import django, json, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'drive.settings'); django.setup(); "
        "from django.conf import settings as s; d = s.DATABASES['default']; "
        "print(json.dumps([d['ENGINE'], d['CONN_MAX_AGE'], d['OPTIONS'].get('pool')]))")


def database(**env):
    run = subprocess.run([sys.executable, "-c", SHOW], cwd=ROOT, env={"PATH": "/usr/bin:/bin", **env},
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_postgresql_gets_a_pool_sized_from_the_environment_and_no_persistent_connections():
    url = "postgres://whist:pw@db:5432/whist"
    engine, max_age, pool = database(DATABASE_URL=url)
    assert engine == "django.db.backends.postgresql" and max_age == 0  # Django refuses a pool otherwise
    assert pool == {"min_size": 2, "max_size": 10, "timeout": 30.0}
    sized = database(DATABASE_URL=url, DATABASE_POOL_MIN="1", DATABASE_POOL_MAX="4", DATABASE_POOL_TIMEOUT="5")[2]
    assert sized == {"min_size": 1, "max_size": 4, "timeout": 5.0}


def test_the_embedded_sqlite_default_has_no_pool(tmp_path):
    engine, _max_age, pool = database(SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    assert engine == "django.db.backends.sqlite3" and pool is None
