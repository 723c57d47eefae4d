"""The Django admin of seasons: the API's rules on its form, the table shown, never edited."""
import pytest
from django.urls import reverse

from drive.seasons.models import Season, SeasonStanding
from tests.seasons.conftest import local, one_table

pytestmark = pytest.mark.django_db


def form(club, **fields):
    return {"club": club.pk, "name": "Winter", "starts_on": "2026-12-01", "ends_on": "2027-02-28",
            "score": "placing_points", "placing_points": "[10, 8, 6]", "best_of": "", "min_evenings": "1",
            "standings-TOTAL_FORMS": "0", "standings-INITIAL_FORMS": "0", **fields}


def test_the_admin_refuses_what_the_api_refuses(admin_client, club):
    url = reverse("admin:seasons_season_add")
    for bad in ({"ends_on": "2026-11-01"}, {"placing_points": "[1, 5]"}, {"placing_points": "[]"},
                {"min_evenings": "0"}, {"best_of": "0"}):
        response = admin_client.post(url, form(club, **bad))
        assert response.status_code == 200, bad  # the form again, with its errors
        assert response.context["adminform"].form.errors, bad
    assert not Season.objects.exists()
    response = admin_client.post(url, form(club))
    assert response.status_code == 302 and Season.objects.get().placing_points == [10, 8, 6]


def test_a_change_in_the_admin_has_the_table_follow(admin_client, club, make_season, play, people,
                                                    django_capture_on_commit_callbacks):
    season = make_season(score="total", placing_points=[])
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    play([one_table(ada, bob, cy, di, 9)], starts_at=local(2027, 3, 5, 19, 30))
    assert not SeasonStanding.objects.filter(season=season).exists()
    url = reverse("admin:seasons_season_change", args=[season.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(url, form(club, score="total", placing_points="[]", ends_on="2027-03-31"))
    assert response.status_code == 302
    assert SeasonStanding.objects.filter(season=season).count() == 4
    for name in ("season", "seasontable", "seasonstanding"):
        assert admin_client.get(reverse(f"admin:seasons_{name}_changelist")).status_code == 200
    assert admin_client.get(url).status_code == 200
    standing = SeasonStanding.objects.filter(season=season).first()
    assert admin_client.get(reverse("admin:seasons_seasonstanding_change", args=[standing.pk])).status_code == 200
