"""The demo a newcomer sees with README command (1)."""
import pytest
from django.core.management import call_command

from drive.events.models import Event
from drive.events.selectors.events import event_places
from drive.scoring.models import Entrant, HandResult, Round, SeatClaim
from drive.seasons.models import Season, SeasonStanding
from drive.seasons.selectors.history import grade_of, history
from drive.seasons.selectors.seasons import local_date
from drive.seasons.services.history import fresh_history

pytestmark = pytest.mark.django_db(transaction=True)  # commits, as on a real start: the movement task runs


def test_demo_has_a_season_an_upcoming_drive_with_a_waitlist_and_an_evening_in_progress():
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

    season_of_three_published_evenings_and_grades()


def season_of_three_published_evenings_and_grades():
    """A newcomer sees the season's table and a player's grade: the club's last three
    evenings were played, every hand entered (single entry), and published. (Part of the
    test above: one load of the demo, which takes seconds.)"""
    past = list(Event.objects.filter(phase=Event.Phase.RESULTS_PUBLISHED).order_by("starts_at"))
    assert [e.title for e in past] == ["Harvest Supper Drive", "Bonfire Night Drive", "St Andrew's Drive"]
    tonight = Event.objects.get(title="Friday Whist Drive")
    assert all(e.starts_at < tonight.starts_at for e in past)
    for event in past:
        assert Entrant.objects.filter(event=event).count() == 16
        hands = HandResult.objects.filter(round__event=event)
        assert hands.count() == hands.filter(status="confirmed").count() == 4 * 4 * 4  # rounds x tables x hands
        assert len({h.ns_tricks for h in hands}) > 3  # scores that differ, so the standings do
    season = Season.objects.get(name="Autumn 2026", club=tonight.club)
    days = [local_date(e.starts_at) for e in [*past, tonight, Event.objects.get(title="Christmas Whist Drive")]]
    assert all(season.starts_on <= day <= season.ends_on for day in days)
    # Players 9-16 played all three evenings: a season row that qualifies, a grade on 48 hands.
    regular = Entrant.objects.filter(event=past[0], player__user__username="player9").get().player
    fresh_history(player=regular)  # as the pages do: with a Celery worker the tables follow a moment later
    row = SeasonStanding.objects.get(season=season, player=regular)
    assert row.evenings == 3 and row.place is not None
    assert SeasonStanding.objects.filter(season=season, place__isnull=False).count() >= 10
    assert len(history(regular)["evenings"]) == 3
    assert grade_of(regular)["hands"] == 48 and grade_of(regular)["value"] is not None
