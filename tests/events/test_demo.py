"""The demo a newcomer sees with README command (1)."""
import pytest
from django.core.management import call_command

from drive.events.models import Event
from drive.events.selectors.events import event_places
from drive.scoring.models import HandResult, Round, SeatClaim

pytestmark = pytest.mark.django_db(transaction=True)  # commits, as on a real start: the movement task runs


def test_demo_has_an_upcoming_drive_with_a_waitlist_and_an_evening_in_progress():
    call_command("load_demo", quiet=True)
    call_command("load_demo", quiet=True)  # idempotent
    upcoming = Event.objects.get(title="Christmas Whist Drive")
    places = event_places(upcoming)
    assert (places["taken"], places["capacity"], places["waitlisted"]) == (30, 30, 3)
    assert [p["kind"] for p in upcoming.prizes] == ["overall", "overall", "ladies", "gents", "booby"]
    tonight = Event.objects.get(title="Friday Whist Drive")
    assert [p["kind"] for p in tonight.prizes] == ["overall", "overall", "half_time", "booby"]
    assert tonight.phase == Event.Phase.IN_PROGRESS
    assert Round.objects.get(event=tonight, number=1).state == Round.State.PLAYING
    assert HandResult.objects.filter(round__event=tonight, status="disputed").count() == 1
    assert HandResult.objects.filter(round__event=tonight, status="confirmed").exists()
    # The results came from claimed seats: North signed in, East a phone.
    claimed = SeatClaim.objects.filter(round__event=tonight)
    assert claimed.filter(position="N", user__isnull=False).exists() and claimed.filter(position="E", user=None).exists()
