"""One player across evenings: a walk-in matched at the door plays on their own record, so
the season counts their evenings together; a walk-in added twice is merged into the one
record (the club's organisers only, audited, 409 when both played the same evening)."""
import pytest

from drive.core.errors import Conflict, Forbidden, Invalid
from drive.events.models import AuditEntry, Event, Player, Registration
from drive.events.services import arrivals
from drive.events.services.accounts import player_for_user
from drive.movements.models import Entrant
from drive.scoring.services import evening as evenings
from drive.seasons.models import SeasonStanding
from drive.seasons.selectors import seasons as season_selectors
from drive.seasons.selectors.players import alike, merge_suggestions
from drive.seasons.services.players import merge_players
from drive.seasons.services.table import fresh_table
from tests import seats
from tests.seasons.conftest import local, one_table

pytestmark = pytest.mark.django_db
Status = Registration.Status


@pytest.fixture
def door_evening(club, organiser, django_capture_on_commit_callbacks):
    """door_evening(walk_ins, starts_at=...) -> the published event, run as at the door: four
    walk-ins checked in (a name: a new record; a Player: found by name, their own), the
    evening started (entrants and movement from the check-ins), one hand played, published."""

    def run(walk_ins, *, starts_at, ns_tricks=9):
        with django_capture_on_commit_callbacks(execute=True):
            event = Event.objects.create(club=club, title=f"Drive {starts_at:%d %b}", starts_at=starts_at, capacity=8,
                                         published=True, rounds=1, hands_per_round=1, result_confirmation="single")
            for who in walk_ins:
                arrivals.add_walk_in(actor=organiser, event=event, **(
                    {"player": who} if isinstance(who, Player) else {"display_name": who}))
        with django_capture_on_commit_callbacks(execute=True):
            evenings.start_evening(actor=organiser, event=event)
        with django_capture_on_commit_callbacks(execute=True):
            evenings.start_round(actor=organiser, event=event)
            table = event.tables.get(number=1)
            seats.enter(table=table, seat="N", hand_number=1, ns_tricks=ns_tricks, trump="H")
            evenings.end_round(actor=organiser, event=event)
        with django_capture_on_commit_callbacks(execute=True):
            return evenings.publish_results(actor=organiser, event=event)

    return run


def season_rows(season):
    fresh_table(season=season)
    return {(row["name"], row["evenings"]) for row in season_selectors.season_table(season)["rows"]}


def player(name):
    return Player.objects.get(display_name=name)


def test_a_walk_in_matched_at_the_door_plays_on_their_own_record(make_season, door_evening):
    season = make_season(score="total", placing_points=[])
    door_evening(["Ada", "Bob", "Cy", "Di"], starts_at=local(2026, 12, 4, 19, 30))
    ada, bob = player("Ada"), player("Bob")
    # A week on Ada and Bob come again and are found by name; Eve and Fay are new. Bob is
    # typed in again by name instead: a second record, and a second line in the season.
    door_evening([ada, "Bob", "Eve", "Fay"], starts_at=local(2026, 12, 11, 19, 30))
    assert Entrant.objects.filter(player=ada).count() == 2
    assert Player.objects.filter(display_name="Bob").count() == 2
    assert season_rows(season) == {("Ada", 2), ("Bob", 1), ("Cy", 1), ("Di", 1), ("Eve", 1), ("Fay", 1)}
    rows = [row for row in season_selectors.season_table(season)["rows"] if row["name"] == "Bob"]
    assert len(rows) == 2 and {row["player_id"] for row in rows} == set(Player.objects.filter(
        display_name="Bob").values_list("pk", flat=True))
    assert bob.pk in {row["player_id"] for row in rows}


def test_merging_the_duplicate_counts_its_evenings_together(club, organiser, make_season, door_evening,
                                                            django_capture_on_commit_callbacks):
    season = make_season(score="total", placing_points=[])
    door_evening(["Ada", "Bob", "Cy", "Di"], starts_at=local(2026, 12, 4, 19, 30))
    bob = player("Bob")
    second = door_evening(["Ada Again", "Bob", "Eve", "Fay"], starts_at=local(2026, 12, 11, 19, 30))
    duplicate = Player.objects.exclude(pk=bob.pk).get(display_name="Bob")
    assert season_rows(season) >= {("Bob", 1)}
    with django_capture_on_commit_callbacks(execute=True):
        kept = merge_players(actor=organiser, club=club, duplicate=duplicate, into=bob)
    assert kept.pk == bob.pk and not Player.objects.filter(pk=duplicate.pk).exists()
    assert Entrant.objects.filter(player=bob).count() == 2
    assert second.registrations.get(player=bob).status == Status.CHECKED_IN
    assert ("Bob", 2) in season_rows(season)
    assert SeasonStanding.objects.filter(season=season, player=bob).get().evenings == 2
    entry = AuditEntry.objects.get(action="player.merged")
    assert entry.club == club and entry.actor == organiser and entry.event is None
    assert entry.before == {"player": duplicate.pk, "display_name": "Bob"}
    assert entry.after["player"] == bob.pk and entry.after["evenings"] == [second.pk]
    assert entry.after["registrations"] == [second.registrations.get(player=bob).pk]


def test_the_table_follows_a_merge_even_when_its_task_is_lost(club, organiser, make_season, door_evening):
    season = make_season(score="total", placing_points=[])
    door_evening(["Ada", "Bob", "Cy", "Di"], starts_at=local(2026, 12, 4, 19, 30))
    door_evening(["Ada 2", "Bob", "Eve", "Fay"], starts_at=local(2026, 12, 11, 19, 30))
    bob, duplicate = Player.objects.filter(display_name="Bob").order_by("pk")
    merge_players(actor=organiser, club=club, duplicate=duplicate, into=bob)  # its on-commit work never runs
    assert ("Bob", 2) in season_rows(season)  # the read finds the table behind and computes it


def test_two_who_played_the_same_evening_are_two_people(club, organiser, door_evening, make_season):
    make_season()
    door_evening(["Ada", "Ada L", "Cy", "Di"], starts_at=local(2026, 12, 4, 19, 30))
    with pytest.raises(Conflict) as err:
        merge_players(actor=organiser, club=club, duplicate=player("Ada L"), into=player("Ada"))
    assert err.value.status == 409 and "both played in Drive 04 Dec" in err.value.message
    assert Player.objects.filter(display_name="Ada L").exists()
    assert not AuditEntry.objects.filter(action="player.merged").exists()


def test_both_on_the_list_of_one_evening_is_a_conflict_until_one_is_cancelled(club, organiser, make_event):
    event = make_event()
    ada = arrivals.add_walk_in(actor=organiser, event=make_event(title="Before"), display_name="Ada").player
    Registration.objects.create(event=event, player=ada, status=Status.REGISTERED, registered_at=event.created_at)
    typo = arrivals.add_walk_in(actor=organiser, event=event, display_name="Ada").player  # added again by name
    with pytest.raises(Conflict) as err:
        merge_players(actor=organiser, club=club, duplicate=typo, into=ada)
    assert "cancel one of the two registrations first" in err.value.message
    from drive.events.services.registration import cancel_registration

    cancel_registration(actor=organiser, registration=event.registrations.get(player=typo))
    merge_players(actor=organiser, club=club, duplicate=typo, into=ada)
    assert list(event.registrations.values_list("player_id", "status")) == [(ada.pk, Status.REGISTERED)]
    assert AuditEntry.objects.get(action="player.merged").after["dropped"] != []


def test_the_duplicates_cancelled_registration_gives_way_to_theirs(club, organiser, make_event):
    event = make_event()
    ada = arrivals.add_walk_in(actor=organiser, event=event, display_name="Ada").player
    before = make_event(title="Before")
    typo = arrivals.add_walk_in(actor=organiser, event=before, display_name="ada").player
    Registration.objects.create(event=event, player=typo, status=Status.CANCELLED, registered_at=event.created_at)
    merge_players(actor=organiser, club=club, duplicate=typo, into=ada)
    assert list(event.registrations.values_list("player_id", "status")) == [(ada.pk, Status.CHECKED_IN)]
    assert before.registrations.get().player_id == ada.pk


@pytest.mark.parametrize("who", ["player", "other organiser", "anonymous"])
def test_only_the_clubs_organisers_merge(club, organiser, make_event, make_user, other_club, who):
    from django.contrib.auth.models import AnonymousUser

    actor = {"player": lambda: make_user("player"), "anonymous": AnonymousUser,
             "other organiser": lambda: other_club.organisers.get()}[who]()
    event = make_event()
    a = arrivals.add_walk_in(actor=organiser, event=event, display_name="Ada").player
    b = arrivals.add_walk_in(actor=organiser, event=make_event(title="Other"), display_name="Ada").player
    with pytest.raises(Forbidden):
        merge_players(actor=actor, club=club, duplicate=b, into=a)
    assert Player.objects.filter(pk=b.pk).exists() and not AuditEntry.objects.filter(action="player.merged").exists()


def test_what_cannot_be_merged(club, organiser, other_club, make_event, make_user):
    event = make_event()
    ada = arrivals.add_walk_in(actor=organiser, event=event, display_name="Ada").player
    with pytest.raises(Invalid) as err:
        merge_players(actor=organiser, club=club, duplicate=ada, into=ada)
    assert err.value.field == "into"
    stranger = Player.objects.create(display_name="Ada", club=other_club)
    with pytest.raises(Invalid) as err:
        merge_players(actor=organiser, club=club, duplicate=stranger, into=ada)
    assert err.value.field == "duplicate"
    with pytest.raises(Invalid) as err:
        merge_players(actor=organiser, club=club, duplicate=ada, into=stranger)
    assert err.value.field == "into"
    from drive.events.services.registration import register

    user = make_user("ada-account")
    later = make_event(title="Later")
    register(actor=user, event=later)
    account = player_for_user(user=user)
    with pytest.raises(Invalid) as err:  # an account is never the one removed
        merge_players(actor=organiser, club=club, duplicate=account, into=ada)
    assert err.value.field == "duplicate"
    merge_players(actor=organiser, club=club, duplicate=ada, into=account)  # the other way round is right
    assert event.registrations.get().player_id == later.registrations.get().player_id == account.pk


def test_alike_names():
    assert alike("Ada L", "ada lovelace") and alike("Ada", "Ada Lovelace") and alike("АДА", "Ада Лавлейс")
    assert alike("Алёна", "Алена Петрова")
    assert alike("A. Lovelace", "Ada Lovelace") and alike("Ada Lovelace", "ADA LOVELACE")
    assert not alike("Ada", "Bob") and not alike("Ada Byron", "Ada Lovelace") and not alike("", "Ada")
    assert not alike("Ada", "Adam Smith") and not alike("B. Lovelace", "Ada Lovelace")


def test_the_suggestions_pair_each_walk_in_with_a_player_alike(club, organiser, make_event, make_user):
    from drive.events.services.registration import register

    event = make_event()
    user = make_user("ada", first_name="Ada", last_name="Lovelace")
    register(actor=user, event=event)
    first = arrivals.add_walk_in(actor=organiser, event=make_event(title="A"), display_name="Ada L").player
    arrivals.add_walk_in(actor=organiser, event=make_event(title="B"), display_name="Bob")
    second = arrivals.add_walk_in(actor=organiser, event=make_event(title="C"), display_name="ada l").player
    pairs = {(s["duplicate"]["id"], s["into"]["id"]) for s in merge_suggestions(club)}
    account = player_for_user(user=user)
    assert pairs == {(first.pk, account.pk), (second.pk, account.pk), (second.pk, first.pk)}


# --- the API and the console ---------------------------------------------------------------


@pytest.fixture
def two_adas(organiser, make_event):
    a = arrivals.add_walk_in(actor=organiser, event=make_event(title="A"), display_name="Ada Lovelace").player
    b = arrivals.add_walk_in(actor=organiser, event=make_event(title="B"), display_name="Ada L").player
    return a, b


def test_the_api_merges(api, organiser, club, two_adas, other_club, make_user):
    into, duplicate = two_adas
    url = f"/api/clubs/{club.pk}/players/merge/"
    body = {"duplicate": duplicate.pk, "into": into.pk}
    for actor in (None, make_user("player"), other_club.organisers.get()):
        api.force_authenticate(actor)
        assert api.post(url, body, format="json").status_code == 403
        assert api.post(url, {}, format="json").status_code == 403  # refused before the body is read
    api.force_authenticate(organiser)
    assert api.post(url, {"duplicate": "x"}, format="json").json().keys() == {"duplicate", "into"}
    assert api.post(url, {"duplicate": 2 ** 31 - 1, "into": into.pk}, format="json").json() == {
        "duplicate": ["Choose one of the club's players."]}
    assert api.post(url, {"duplicate": into.pk, "into": into.pk}, format="json").status_code == 400
    response = api.post(url, body, format="json")
    assert response.status_code == 200, response.content
    assert response.json() == {"id": into.pk, "name": "Ada Lovelace"}
    assert api.post("/api/clubs/999999/players/merge/", body, format="json").status_code == 404


def test_the_api_says_409_for_two_who_played_together(api, club, organiser, door_evening):
    door_evening(["Ada", "Ada L", "Cy", "Di"], starts_at=local(2026, 12, 4, 19, 30))
    api.force_authenticate(organiser)
    response = api.post(f"/api/clubs/{club.pk}/players/merge/",
                        {"duplicate": player("Ada L").pk, "into": player("Ada").pk}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "conflict"


def test_the_console_offers_and_merges(client, organiser, club, two_adas):
    into, duplicate = two_adas
    client.force_login(organiser)
    page = client.get(f"/console/clubs/{club.pk}/players/")
    html = page.content.decode()
    assert page.status_code == 200 and "Likely the same person" in html
    assert f'name="duplicate" value="{duplicate.pk}"' in html and f'name="into" value="{into.pk}"' in html
    found = client.get(f"/console/clubs/{club.pk}/players/", {"q": "ada"}).content.decode()
    assert "Merge the walk-in" in found and "Ada Lovelace" in found
    response = client.post(f"/console/clubs/{club.pk}/players/merge/", {"duplicate": duplicate.pk, "into": into.pk},
                           follow=True)
    assert "Ada L is merged into Ada Lovelace: their evenings count together." in response.content.decode()
    assert not Player.objects.filter(pk=duplicate.pk).exists()
    again = client.post(f"/console/clubs/{club.pk}/players/merge/", {"duplicate": duplicate.pk, "into": into.pk},
                        follow=True)
    assert "Choose one of the club&#x27;s players." in again.content.decode()


def test_the_console_players_page_is_the_organisers(client, club, make_user, other_club, two_adas):
    into, duplicate = two_adas
    for actor in (make_user("player"), other_club.organisers.get()):
        client.force_login(actor)
        assert client.get(f"/console/clubs/{club.pk}/players/").status_code == 403
        assert client.post(f"/console/clubs/{club.pk}/players/merge/",
                           {"duplicate": duplicate.pk, "into": into.pk}).status_code == 403
    client.logout()
    assert client.get(f"/console/clubs/{club.pk}/players/").status_code == 302
    assert Player.objects.filter(pk=duplicate.pk).exists()


def test_the_grades_follow_a_merge_as_from_scratch(club, organiser, door_evening, django_capture_on_commit_callbacks):
    from drive.seasons.models import PlayerGrade
    from drive.seasons.services.grades import fresh_grades, update_grades

    door_evening(["Ada", "Bob", "Cy", "Di"], starts_at=local(2026, 12, 4, 19, 30), ns_tricks=10)
    door_evening(["Ada", "Bob", "Eve", "Fay"], starts_at=local(2026, 12, 11, 19, 30), ns_tricks=3)
    fresh_grades()
    first, second = Player.objects.filter(display_name="Ada").order_by("pk")
    with django_capture_on_commit_callbacks(execute=True):
        merge_players(actor=organiser, club=club, duplicate=second, into=first)
    fresh_grades()
    merged = {row.player_id: (row.mu, row.sigma, row.hands) for row in PlayerGrade.objects.all()}
    assert merged[first.pk][2] == 2 and second.pk not in merged  # one hand each evening, on one record now
    update_grades(from_scratch=True)
    assert {row.player_id: (row.mu, row.sigma, row.hands) for row in PlayerGrade.objects.all()} == merged
