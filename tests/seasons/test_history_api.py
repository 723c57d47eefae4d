"""GET /api/players/<id>/history/ (issue 22): its keys exactly, newest evening first, who may
read it, and the grade following a correction after publishing."""
import pytest

from drive.events.models import Event
from drive.scoring.models import Table
from drive.scoring.services import results
from tests.seasons.conftest import local

pytestmark = pytest.mark.django_db

KEYS = {"player_id", "name", "evenings", "grade"}
EVENING_KEYS = {"event", "title", "date", "place", "of", "total", "hands_played"}
GRADE_KEYS = {"value", "provisional", "hands"}


@pytest.fixture
def ada(people, make_user):
    player, = people("Ada")
    player.user = make_user("ada")
    player.save()
    return player


@pytest.fixture
def two_evenings(play, people, ada):
    bob, cy, di, eve = people("Bob", "Cy", "Di", "Eve")
    first = play([[((ada, bob, cy, di), [9, 4])], [((ada, cy, bob, di), [8, 8])]],
                 starts_at=local(2026, 12, 4, 19, 30), title="Advent drive")
    second = play([[((ada, bob, eve, di), [10, 3, 7])], [((cy, ada, di, eve), [6, 6, 6])]],
                  starts_at=local(2026, 12, 11, 19, 30), title="Christmas drive")
    return first, second


def history(api, player, user=None):
    if user is not None:
        api.force_authenticate(user)
    return api.get(f"/api/players/{player.pk}/history/")


def test_the_keys_and_the_order_newest_first(api, ada, two_evenings):
    first, second = two_evenings
    response = history(api, ada, ada.user)
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == KEYS and set(body["grade"]) == GRADE_KEYS
    assert body["player_id"] == ada.pk and body["name"] == "Ada"
    assert [set(e) for e in body["evenings"]] == [EVENING_KEYS, EVENING_KEYS]
    assert [e["event"] for e in body["evenings"]] == [second.pk, first.pk]
    newest, oldest = body["evenings"]
    assert newest == {"event": second.pk, "title": "Christmas drive", "date": "2026-12-11",
                      "place": newest["place"], "of": 5, "total": newest["total"], "hands_played": 6}
    assert oldest["title"] == "Advent drive" and oldest["date"] == "2026-12-04" and oldest["of"] == 4
    # Ada: 9 + 4 in round 1 (N-S), 8 + 8 in round 2 (N-S): 29, first of four.
    assert (oldest["place"], oldest["total"], oldest["hands_played"]) == (1, "29.00", 4)
    assert body["grade"]["hands"] == 10
    assert body["grade"]["provisional"] is True
    assert isinstance(body["grade"]["value"], float) and round(body["grade"]["value"], 1) == body["grade"]["value"]
    assert body["grade"]["value"] > 50  # Ada won 7 hands of 10


def test_sixty_hands_make_the_grade_no_longer_provisional(api, play, people, ada):
    bob, cy, di = people("Bob", "Cy", "Di")
    play([[((ada, bob, cy, di), [7] * 12)] for _ in range(5)], starts_at=local(2026, 12, 4, 19, 30))
    body = history(api, ada, ada.user).json()
    assert body["grade"]["hands"] == 60 and body["grade"]["provisional"] is False


def test_a_player_without_a_rated_hand(api, ada):
    body = history(api, ada, ada.user).json()
    assert body == {"player_id": ada.pk, "name": "Ada", "evenings": [],
                    "grade": {"value": None, "provisional": True, "hands": 0}}


def test_an_evening_not_published_is_not_listed(api, play, people, ada, two_evenings):
    bob, cy, di = people("Bob", "Cy", "Di")
    play([[((ada, bob, cy, di), [9])]], starts_at=local(2026, 12, 18, 19, 30), publish=False)
    assert len(history(api, ada, ada.user).json()["evenings"]) == 2


def test_the_organisers_of_the_players_clubs_may_read_it(api, ada, two_evenings, organiser):
    assert history(api, ada, organiser).status_code == 200


def test_another_signed_in_user_is_refused(api, ada, two_evenings, make_user):
    response = history(api, ada, make_user("nosy"))
    assert response.status_code == 403
    assert "detail" in response.json()


def test_the_organiser_of_another_club_is_refused(api, ada, two_evenings, other_club):
    assert history(api, ada, other_club.organisers.get()).status_code == 403


def test_an_anonymous_visitor_is_refused(api, ada, two_evenings):
    assert history(api, ada).status_code == 403


def test_a_walk_in_is_read_by_the_clubs_organisers_only(api, people, two_evenings, organiser, make_user):
    bob, = people("Bob")  # a player without an account
    assert history(api, bob, organiser).status_code == 200
    assert history(api, bob, make_user("someone")).status_code == 403


def test_no_such_player(api, organiser):
    api.force_authenticate(organiser)
    assert api.get("/api/players/999999/history/").status_code == 404


def test_a_correction_after_publishing_changes_the_grade(api, ada, two_evenings, organiser,
                                                         django_capture_on_commit_callbacks):
    first, _ = two_evenings
    before = history(api, ada, ada.user).json()
    with django_capture_on_commit_callbacks(execute=True):
        results.correct_result(actor=organiser, table=Table.objects.get(event=first, number=1), round_number=1,
                               hand_number=1, ns_tricks=0, reason="E-W took every trick: cards recounted")
    after = history(api, ada, ada.user).json()
    assert after["grade"]["value"] < before["grade"]["value"]
    assert after["grade"]["hands"] == before["grade"]["hands"]
    assert after["evenings"][1]["total"] == "20.00"  # 0 + 4 + 8 + 8


def test_the_clubs_of_a_player_are_those_of_their_evenings(api, ada, two_evenings, other_club):
    """An account's player belongs to no one club: the organisers of the clubs they played
    for may read their history."""
    Event.objects.filter(pk=two_evenings[1].pk).update(club=other_club)
    ada.club = None
    ada.save()
    assert history(api, ada, other_club.organisers.get()).status_code == 200
