"""The season API, exactly as issue 22 gives it."""
import pytest
from rest_framework.authtoken.models import Token

from drive.events.models import Event
from drive.scoring.models import Standing
from drive.seasons.models import Season
from tests.seasons.conftest import local, one_table

pytestmark = pytest.mark.django_db

BODY = {"name": "Winter 2026", "starts_on": "2026-12-01", "ends_on": "2027-02-28", "score": "placing_points",
        "placing_points": [10, 8, 6, 5, 4, 3, 2, 1], "best_of": 6, "min_evenings": 3}


@pytest.fixture
def as_organiser(api, organiser):
    api.force_authenticate(organiser)
    return api


def test_an_organiser_creates_a_season(as_organiser, club):
    response = as_organiser.post(f"/api/clubs/{club.pk}/seasons/", BODY, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    season = Season.objects.get()
    assert body["id"] == season.pk and body["url"] == f"/seasons/{season.pk}/"
    assert {key: body[key] for key in BODY} == BODY
    assert body["club"] == club.pk


def test_with_a_token_too(api, organiser, club):
    token = Token.objects.create(user=organiser)
    response = api.post(f"/api/clubs/{club.pk}/seasons/", BODY, format="json", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 201


def test_defaults(as_organiser, club):
    response = as_organiser.post(f"/api/clubs/{club.pk}/seasons/", {
        "name": "All year", "starts_on": "2026-01-01", "ends_on": "2026-12-31", "score": "total"}, format="json")
    assert response.status_code == 201, response.content
    assert (response.json()["best_of"], response.json()["min_evenings"]) == (None, 1)


@pytest.mark.parametrize("who", ["anonymous", "player", "other club's organiser"])
def test_anyone_but_the_clubs_organisers_is_refused(api, club, other_club, make_user, who):
    if who == "player":
        api.force_authenticate(make_user("player"))
    elif who != "anonymous":
        api.force_authenticate(other_club.organisers.get())
    response = api.post(f"/api/clubs/{club.pk}/seasons/", BODY, format="json")
    assert response.status_code == 403
    assert "detail" in response.json()
    bad = api.post(f"/api/clubs/{club.pk}/seasons/", {"name": ""}, format="json")
    assert bad.status_code == 403  # refused before its body is read
    assert not Season.objects.exists()


def test_an_unknown_club_is_404(as_organiser):
    assert as_organiser.post("/api/clubs/999999/seasons/", BODY, format="json").status_code == 404


@pytest.mark.parametrize("change, field", [
    ({"ends_on": "2026-11-30"}, "ends_on"),  # ends before it starts
    ({"placing_points": []}, "placing_points"),  # empty points
    ({"placing_points": None}, "placing_points"),
    ({"placing_points": [10, -8]}, "placing_points"),  # negative
    ({"placing_points": [6, 8, 10]}, "placing_points"),  # increasing
    ({"placing_points": "10, 8, 6"}, "placing_points"),
    ({"placing_points": [10, 8.5]}, "placing_points"),
    ({"score": "masterpoints"}, "score"),  # unknown score
    ({"score": None}, "score"),
    ({"best_of": 0}, "best_of"),
    ({"best_of": -1}, "best_of"),
    ({"best_of": "six"}, "best_of"),
    ({"best_of": 10**12}, "best_of"),
    ({"min_evenings": 0}, "min_evenings"),
    ({"min_evenings": None}, "min_evenings"),
    ({"starts_on": "01/12/2026"}, "starts_on"),
    ({"starts_on": "1900-01-01", "ends_on": "1900-02-01"}, "starts_on"),
    ({"name": ""}, "name"),
    ({"name": "x" * 121}, "name"),
    ({"name": "Winter\u200b"}, "name"),
])
def test_bad_bodies_are_400_with_field_messages(as_organiser, club, change, field):
    response = as_organiser.post(f"/api/clubs/{club.pk}/seasons/", {**BODY, **change}, format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert field in body and isinstance(body[field], list) and body[field][0], body
    assert not Season.objects.exists()


@pytest.mark.parametrize("missing", ["name", "starts_on", "ends_on", "score"])
def test_required_fields(as_organiser, club, missing):
    body = {key: value for key, value in BODY.items() if key != missing}
    response = as_organiser.post(f"/api/clubs/{club.pk}/seasons/", body, format="json")
    assert response.status_code == 400 and missing in response.json()


def test_placing_points_are_required_for_placing_points_only(as_organiser, club):
    body = {key: value for key, value in BODY.items() if key != "placing_points"}
    assert "placing_points" in as_organiser.post(f"/api/clubs/{club.pk}/seasons/", body, format="json").json()
    for score in ("total", "average"):
        response = as_organiser.post(f"/api/clubs/{club.pk}/seasons/", {**body, "score": score}, format="json")
        assert response.status_code == 201, response.content


def test_patch_changes_any_field_and_answers_with_the_season(as_organiser, club):
    season_id = as_organiser.post(f"/api/clubs/{club.pk}/seasons/", BODY, format="json").json()["id"]
    response = as_organiser.patch(f"/api/seasons/{season_id}/", {"best_of": None, "ends_on": "2027-03-31"},
                                  format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["id"], body["url"], body["best_of"], body["ends_on"]) == (season_id, f"/seasons/{season_id}/", None,
                                                                          "2027-03-31")
    assert body["name"] == "Winter 2026"  # untouched
    refused = as_organiser.patch(f"/api/seasons/{season_id}/", {"ends_on": "2026-01-01"}, format="json")
    assert refused.status_code == 400 and "ends_on" in refused.json()
    switched = as_organiser.patch(f"/api/seasons/{season_id}/", {"score": "total", "placing_points": []},
                                  format="json")
    assert switched.status_code == 200 and switched.json()["score"] == "total"
    back = as_organiser.patch(f"/api/seasons/{season_id}/", {"score": "placing_points"}, format="json")
    assert back.status_code == 400 and "placing_points" in back.json()


def test_patch_and_delete_are_the_organisers(api, as_organiser, club, make_user):
    season_id = as_organiser.post(f"/api/clubs/{club.pk}/seasons/", BODY, format="json").json()["id"]
    api.force_authenticate(make_user("player"))
    assert api.patch(f"/api/seasons/{season_id}/", {"name": "Mine"}, format="json").status_code == 403
    assert api.delete(f"/api/seasons/{season_id}/").status_code == 403
    api.force_authenticate(None)
    assert api.patch(f"/api/seasons/{season_id}/", {"name": "Mine"}, format="json").status_code == 403
    assert api.delete(f"/api/seasons/{season_id}/").status_code == 403
    assert Season.objects.get(pk=season_id).name == "Winter 2026"


def test_unknown_seasons_are_404(as_organiser):
    for method in ("get", "patch", "delete"):
        assert getattr(as_organiser, method)("/api/seasons/999999/", {}, format="json").status_code == 404
    assert as_organiser.get("/api/seasons/999999/table/").status_code == 404


def test_delete_removes_the_season_and_never_the_evenings(as_organiser, club, play, people):
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    event = play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30))
    season_id = as_organiser.post(f"/api/clubs/{club.pk}/seasons/", BODY, format="json").json()["id"]
    response = as_organiser.delete(f"/api/seasons/{season_id}/")
    assert response.status_code == 204 and not response.content
    assert not Season.objects.exists()
    assert Event.objects.filter(pk=event.pk, phase=Event.Phase.RESULTS_PUBLISHED).exists()
    assert Standing.objects.filter(event=event).count() == 4
    assert as_organiser.delete(f"/api/seasons/{season_id}/").status_code == 404


def test_the_table_is_public_with_exactly_the_issues_keys(api, as_organiser, club, play, people):
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    season_id = as_organiser.post(f"/api/clubs/{club.pk}/seasons/", {**BODY, "min_evenings": 2},
                                  format="json").json()["id"]
    first = play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30), title="Advent drive")
    play([one_table(ada, cy, bob, di, 10)], starts_at=local(2026, 12, 11, 19, 30), title="Christmas drive")
    people("Eve")
    api.force_authenticate(None)
    response = api.get(f"/api/seasons/{season_id}/table/")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"id", "name", "evenings", "rows"}
    assert (body["id"], body["name"]) == (season_id, "Winter 2026")
    assert body["evenings"] == [{"event": first.pk, "title": "Advent drive", "date": "2026-12-04"},
                                {"event": first.pk + 1, "title": "Christmas drive", "date": "2026-12-11"}]
    for row in body["rows"]:
        assert set(row) == {"place", "player_id", "name", "evenings", "counted", "score", "qualified"}
    # Evening 1: Ada & Cy 9 each, Bob & Di 5.5. Evening 2: Ada & Bob 9 each, Cy & Di 5.5.
    assert body["rows"] == [
        {"place": 1, "player_id": ada.pk, "name": "Ada", "evenings": 2, "counted": 2, "score": "18.00",
         "qualified": True},
        {"place": 2, "player_id": bob.pk, "name": "Bob", "evenings": 2, "counted": 2, "score": "14.50",
         "qualified": True},
        {"place": 2, "player_id": cy.pk, "name": "Cy", "evenings": 2, "counted": 2, "score": "14.50",
         "qualified": True},
        {"place": 4, "player_id": di.pk, "name": "Di", "evenings": 2, "counted": 2, "score": "11.00",
         "qualified": True},
    ]


def test_the_season_is_readable_by_everyone(api, as_organiser, club):
    season_id = as_organiser.post(f"/api/clubs/{club.pk}/seasons/", BODY, format="json").json()["id"]
    api.force_authenticate(None)
    response = api.get(f"/api/seasons/{season_id}/")
    assert response.status_code == 200 and response.json()["placing_points"] == BODY["placing_points"]


def test_a_patch_that_grows_the_range_brings_the_evening_in(as_organiser, api, club, play, people):
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    play([one_table(ada, bob, cy, di, 9)], starts_at=local(2027, 3, 5, 19, 30))  # March: after the season
    season_id = as_organiser.post(f"/api/clubs/{club.pk}/seasons/", BODY, format="json").json()["id"]
    assert as_organiser.get(f"/api/seasons/{season_id}/table/").json()["rows"] == []
    assert as_organiser.patch(f"/api/seasons/{season_id}/", {"ends_on": "2027-03-31"},
                              format="json").status_code == 200
    rows = as_organiser.get(f"/api/seasons/{season_id}/table/").json()["rows"]
    assert [row["name"] for row in rows] == ["Ada", "Cy", "Bob", "Di"]
    # Not qualified yet (3 evenings needed): by score, without a place.
    assert [(row["place"], row["qualified"], row["score"]) for row in rows] == [
        (None, False, "9.00"), (None, False, "9.00"), (None, False, "5.50"), (None, False, "5.50")]


def test_the_schema_documents_the_season_api(api):
    schema = api.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    create = paths["/api/clubs/{club_id}/seasons/"]["post"]
    assert {"201", "400", "403", "404"} <= set(create["responses"])
    detail = paths["/api/seasons/{season_id}/"]
    assert {"200", "400", "403", "404"} <= set(detail["patch"]["responses"])
    assert {"204", "403", "404"} <= set(detail["delete"]["responses"])
    assert {"200", "404"} <= set(paths["/api/seasons/{season_id}/table/"]["get"]["responses"])
