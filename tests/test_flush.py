"""The flush after each transactional test (tests/flush.py) leaves PostgreSQL's tables as
Django's TRUNCATE and post_migrate would: every row gone but the content types and
permissions, which post_migrate writes back anyway."""
import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

from drive.events.services import registration
from tests.services import require_postgres

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def rows():
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    with connection.cursor() as cursor:
        counts = {}
        for table in tables:
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def test_a_flush_empties_every_table_but_the_content_types_and_permissions(make_event, organiser, make_user):
    require_postgres()
    assert connection.ops.sql_flush(no_style(), ["events_event"]) == ['DELETE FROM "events_event";']
    event = make_event()
    registration.register(actor=make_user("player"), event=event)  # rows that point at rows
    kinds, permissions = ContentType.objects.count(), Permission.objects.count()
    assert kinds and permissions
    before = rows()
    assert before["events_event"] and before["events_registration"] and before["auth_user"]
    call_command("flush", verbosity=0, interactive=False)
    after = rows()
    assert {table for table, count in after.items() if count} == {"django_content_type", "auth_permission"}
    assert ContentType.objects.count() == kinds and Permission.objects.count() == permissions


def test_a_flush_that_resets_the_sequences_truncates_and_writes_the_content_types_back(make_user):
    require_postgres()
    make_user("player")
    kinds = ContentType.objects.count()
    call_command("flush", verbosity=0, interactive=False, reset_sequences=True)
    assert ContentType.objects.count() == kinds and not rows()["auth_user"]
