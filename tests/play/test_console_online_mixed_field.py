"""The Online tables page's "Tables played online" counts only when the evening is mixed:
the page's script hides it otherwise (tests/browser/test_online_setting.py), so a list left
typed in it when paper or online is chosen is dropped, as the service drops it, and never
refuses the form over a field out of sight. Without the script the field is in sight."""
import re

import pytest
from django.test import Client

from drive.scoring.models import OnlineTables
from tests.play.evening_kit import seated_evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(make_event):
    return seated_evening(make_event)


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def url(event):
    return f"/console/events/{event.pk}/online-tables/"


@pytest.mark.parametrize("mode", ["paper", "online"])
@pytest.mark.parametrize("stale", ["1, 3", "one", "0", "5-2"])
def test_a_list_left_typed_in_is_dropped_unless_mixed(event, organiser, mode, stale):
    client = signed_in(organiser)
    client.post(url(event), {"mode": "mixed", "tables": "2", "robot": "rules"})
    answer = client.post(url(event), {"mode": mode, "tables": stale, "robot": "strong"})
    assert answer.status_code == 302, answer.content.decode()
    setting = OnlineTables.objects.get(event=event)
    assert (setting.mode, setting.tables, setting.robot) == (mode, [], "strong")
    page = client.get(url(event)).content.decode()
    field = re.search(r'<input type="text" name="tables"[^>]*>', page).group(0)
    assert "value=" not in field  # nothing stored to show


def test_mixed_still_reads_the_list(event, organiser):
    answer = signed_in(organiser).post(url(event), {"mode": "mixed", "tables": "1, 3", "robot": "rules"})
    assert answer.status_code == 302
    assert OnlineTables.objects.get(event=event).tables == [1, 3]
    bad = signed_in(organiser).post(url(event), {"mode": "mixed", "tables": "one", "robot": "rules"})
    assert bad.status_code == 400 and "Give table numbers" in bad.content.decode()


def test_the_field_is_in_sight_without_the_script_which_the_page_loads_from_a_file(event, organiser):
    page = signed_in(organiser).get(url(event)).content.decode()
    field = re.search(r"<p [^>]*data-mixed-only[^>]*>", page).group(0)
    assert "hidden" not in field  # progressive enhancement: the script hides it
    assert re.search(r'<script src="/static/js/online_setting[^"]*\.js" defer></script>', page)
    assert "<form method=\"post\" class=\"online-form\" data-online-setting>" in page
    inline = re.findall(r'<script(?![^>]*\b(?:src=|type="application/json"))[^>]*>', page)
    assert not inline  # the policy runs no inline script
