"""The online-tables setting reads in words in the audit log: the entry names no Python
object ("OnlineTables object (1)"), the robot of an empty seat reads as a robot, only what
changed is shown, and a save that changes nothing leaves no entry."""
import pytest
from django.conf import settings
from django.urls import reverse

from drive.events.models import AuditEntry
from drive.scoring.services import online_tables as evening

pytestmark = pytest.mark.django_db


def audit_page(client, event, lang="en"):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client.get(reverse("console-audit", args=[event.pk])).content.decode()


def test_the_online_tables_entry_reads_in_words(client, event, organiser):
    evening.set_online_tables(actor=organiser, event=event, mode="online")
    evening.set_online_tables(actor=organiser, event=event, mode="online", robot="strong")
    client.force_login(organiser)
    page = audit_page(client, event)
    assert "online tables set" in page and "object (" not in page
    assert "rules robot" in page and "strong robot" in page  # the robot of an empty seat, in words
    entries = list(AuditEntry.objects.filter(event=event, action="tables.online").order_by("pk"))
    assert [e.object_repr for e in entries] == ["", ""]
    assert entries[1].before == {"robot": "rules"} and entries[1].after == {"robot": "strong"}  # only the change
    assert "робот по правилам" in audit_page(client, event, "ru")


def test_a_save_that_changes_nothing_is_not_logged(event, organiser):
    evening.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[1, 2])
    evening.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[2, 1])
    evening.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[1, 2], robot="rules")
    assert AuditEntry.objects.filter(event=event, action="tables.online").count() == 1
