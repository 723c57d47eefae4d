"""Creating, changing and deleting seasons: the club's organisers only, rules on the
settings as field messages, an audit entry for each write."""
from datetime import date

import pytest

from drive.core.errors import Forbidden, Invalid
from drive.events.models import AuditEntry
from drive.seasons.models import Season
from drive.seasons.services import seasons as services

pytestmark = pytest.mark.django_db

GOOD = {"name": "Winter 2026", "starts_on": date(2026, 12, 1), "ends_on": date(2027, 2, 28),
        "score": "placing_points", "placing_points": [10, 8, 6, 5, 4, 3, 2, 1], "best_of": 6, "min_evenings": 3}


def test_an_organiser_creates_a_season_and_the_log_says_so(club, organiser):
    season = services.create_season(actor=organiser, club=club, **GOOD)
    assert (season.club, season.best_of, season.min_evenings) == (club, 6, 3)
    entry = AuditEntry.objects.get(action="season.created")
    assert entry.club == club and entry.event is None and entry.actor == organiser
    assert entry.after["placing_points"] == GOOD["placing_points"] and entry.after["starts_on"] == "2026-12-01"


def test_defaults_every_evening_counts_and_one_qualifies(club, organiser):
    season = services.create_season(actor=organiser, club=club, name="Open", starts_on=date(2026, 1, 1),
                                    ends_on=date(2026, 12, 31), score="total")
    assert (season.best_of, season.min_evenings, season.placing_points) == (None, 1, [])


@pytest.mark.parametrize("who", ["player", "other organiser", "anonymous"])
def test_only_the_clubs_organisers_may_create_change_or_delete(club, organiser, make_user, other_club, who):
    from django.contrib.auth.models import AnonymousUser

    actor = {"player": lambda: make_user("player"), "anonymous": AnonymousUser,
             "other organiser": lambda: other_club.organisers.get()}[who]()
    with pytest.raises(Forbidden):
        services.create_season(actor=actor, club=club, **GOOD)
    season = services.create_season(actor=organiser, club=club, **GOOD)
    with pytest.raises(Forbidden):
        services.update_season(actor=actor, season=season, name="Mine now")
    with pytest.raises(Forbidden):
        services.delete_season(actor=actor, season=season)
    assert Season.objects.get(pk=season.pk).name == "Winter 2026"


@pytest.mark.parametrize("change, field", [
    ({"ends_on": date(2026, 11, 30)}, "ends_on"),  # ends before it starts
    ({"placing_points": []}, "placing_points"),  # required for placing_points
    ({"placing_points": None}, "placing_points"),
    ({"placing_points": [10, -1]}, "placing_points"),
    ({"placing_points": [5, 8, 6]}, "placing_points"),  # increasing
    ({"placing_points": [10, "8"]}, "placing_points"),
    ({"score": "masterpoints"}, "score"),
    ({"best_of": 0}, "best_of"),
    ({"best_of": -2}, "best_of"),
    ({"min_evenings": 0}, "min_evenings"),
    ({"starts_on": date(1999, 12, 31)}, "starts_on"),
    ({"name": "  "}, "name"),
])
def test_bad_settings_are_refused_naming_the_field(club, organiser, change, field):
    with pytest.raises(Invalid) as err:
        services.create_season(actor=organiser, club=club, **{**GOOD, **change})
    assert err.value.field == field
    assert not Season.objects.exists()


def test_every_wrong_field_has_its_message(club, organiser):
    with pytest.raises(Invalid) as err:
        services.create_season(actor=organiser, club=club, **{**GOOD, "ends_on": date(2026, 1, 1), "best_of": 0,
                                                               "placing_points": [1, 2]})
    assert set(err.value.as_dict()) == {"ends_on", "best_of", "placing_points"}


def test_points_are_needed_only_when_placings_score(club, organiser):
    season = services.create_season(actor=organiser, club=club, **{**GOOD, "score": "average", "placing_points": []})
    assert season.score == "average"
    with pytest.raises(Invalid) as err:  # back to placings: points needed again
        services.update_season(actor=organiser, season=season, score="placing_points")
    assert err.value.field == "placing_points"
    assert services.update_season(actor=organiser, season=season, score="placing_points",
                                  placing_points=[3, 2, 1]).placing_points == [3, 2, 1]
    equal = services.update_season(actor=organiser, season=season, placing_points=[1, 1, 0])  # non-increasing
    assert equal.placing_points == [1, 1, 0]


def test_a_change_is_logged_with_what_changed(club, organiser):
    season = services.create_season(actor=organiser, club=club, **GOOD)
    services.update_season(actor=organiser, season=season, best_of=None, name="Winter")
    entry = AuditEntry.objects.get(action="season.changed")
    assert entry.before == {"best_of": 6, "name": "Winter 2026"} and entry.after == {"best_of": None, "name": "Winter"}
    services.update_season(actor=organiser, season=season, name="Winter")  # nothing changes: nothing logged
    assert AuditEntry.objects.filter(action="season.changed").count() == 1


def test_unknown_fields_are_refused(club, organiser):
    season = services.create_season(actor=organiser, club=club, **GOOD)
    with pytest.raises(Invalid):
        services.update_season(actor=organiser, season=season, club=None)


def test_deleting_is_logged_with_the_season_it_was(club, organiser):
    season = services.create_season(actor=organiser, club=club, **GOOD)
    services.delete_season(actor=organiser, season=season)
    entry = AuditEntry.objects.get(action="season.deleted")
    assert entry.before["name"] == "Winter 2026" and entry.club == club
    assert not Season.objects.exists()
