"""The console's list of a club's events: as the home page orders them, each with its stage."""
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from drive.events.models import Event

pytestmark = pytest.mark.django_db


def test_the_console_lists_tonight_and_the_coming_events_then_the_past_each_with_its_stage(client, organiser, make_event, other_club):
    now = timezone.now()
    # Made in an order that is neither the dates' nor their reverse.
    make_event(title="Autumn Drive", starts_at=now - timedelta(days=14), phase=Event.Phase.RESULTS_PUBLISHED)
    make_event(title="New Year Drive", starts_at=now + timedelta(days=25))
    make_event(title="Christmas Drive", starts_at=now + timedelta(days=14))
    make_event(title="Tonight's Drive", starts_at=now - timedelta(minutes=30), phase=Event.Phase.IN_PROGRESS)
    make_event(title="Harvest Drive", starts_at=now - timedelta(days=28), phase=Event.Phase.FINISHED)
    Event.objects.create(club=other_club, title="Rival Drive", starts_at=now, capacity=8)
    client.force_login(organiser)
    html = client.get("/console/").content.decode()
    rows = re.findall(r"<tr><td><a href=\"/console/events/\d+/\">([^<]+)</a>\s*<small class=\"stage\">([^<]*)</small>",
                      html)
    assert [(title.replace("&#x27;", "'"), stage) for title, stage in rows] == [
        ("Tonight's Drive", "In progress"), ("Christmas Drive", "Before the evening"),
        ("New Year Drive", "Before the evening"),
        ("Autumn Drive", "Results published"), ("Harvest Drive", "Finished")]
