"""The season table from evenings played and published through the services, and how it
follows by itself: an evening published or corrected after publishing, the season changed
(issue 22's rules, service level)."""
from datetime import date

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError

from drive.events.models import Event
from drive.scoring.models import Table
from drive.scoring.services import results
from drive.seasons import tasks
from drive.seasons.models import SeasonStanding, SeasonTable
from drive.seasons.selectors import seasons as selectors
from drive.seasons.services import seasons as services
from drive.seasons.services import table as table_services
from tests.seasons.conftest import local, one_table

pytestmark = pytest.mark.django_db


def stored(season):
    """The stored table as the API gives it, read without making it fresh first: what the
    tasks left."""
    return selectors.season_table(season)


def lines(season):
    return [(row["place"], row["name"], row["evenings"], row["counted"], row["score"], row["qualified"])
            for row in stored(season)["rows"]]


def test_tied_players_share_the_points_of_the_places_they_fill(make_season, play, people):
    season = make_season(placing_points=[10, 8, 6, 5])
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30))  # Ada & Cy tied 1st
    assert lines(season) == [(1, "Ada", 1, 1, "9.00", True), (1, "Cy", 1, 1, "9.00", True),
                             (3, "Bob", 1, 1, "5.50", True), (3, "Di", 1, 1, "5.50", True)]


def test_two_tied_second_with_10_8_6_get_7_each(make_season, play, people):
    season = make_season(placing_points=[10, 8, 6])
    a, b, c, d = people("Ada", "Bob", "Cy", "Di")
    # Round 1: Ada & Cy take 9 of 13; round 2: Ada & Bob take 9. Ada 18, Bob 13, Cy 13, Di 8:
    # the published results share 2nd place (the drive's tie-break: shared).
    play([one_table(a, b, c, d, 9), one_table(a, c, b, d, 9)], starts_at=local(2026, 12, 4, 19, 30),
         tie_break_rule="shared")
    assert lines(season) == [(1, "Ada", 1, 1, "10.00", True), (2, "Bob", 1, 1, "7.00", True),
                             (2, "Cy", 1, 1, "7.00", True), (4, "Di", 1, 1, "0.00", True)]  # 0 beyond the list
    # Another evening: Ada & Di share 1st ((10 + 8) / 2), Bob & Cy share 3rd ((6 + 0) / 2).
    play([one_table(a, b, d, c, 9), one_table(a, c, d, b, 9)], starts_at=local(2026, 12, 11, 19, 30),
         tie_break_rule="shared")
    assert {r[1]: r[4] for r in lines(season)} == {"Ada": "19.00", "Bob": "10.00", "Cy": "10.00", "Di": "9.00"}


def test_the_places_are_the_published_ones_a_broken_tie_is_no_tie(make_season, play, people):
    season = make_season(placing_points=[10, 8, 6])
    a, b, c, d = people("Ada", "Bob", "Cy", "Di")
    # Bob and Cy both 13, but Bob won round 2 (the second half): the drive's tie-break places him 2nd.
    play([one_table(a, b, c, d, 9), one_table(a, c, b, d, 9)], starts_at=local(2026, 12, 4, 19, 30))
    assert [(r[0], r[1], r[4]) for r in lines(season)] == [
        (1, "Ada", "10.00"), (2, "Bob", "8.00"), (3, "Cy", "6.00"), (4, "Di", "0.00")]


def test_a_fixed_pair_fills_one_place(make_season, play, people):
    season = make_season(placing_points=[10, 8, 6, 5])
    a, b, c, d, e, f, g, h = people("Ada", "Bob", "Cy", "Di", "Eve", "Fay", "Gil", "Hal")
    # Pairs Ada & Cy and Eve & Gil tie first: they fill places 1 and 2, (10 + 8) / 2 each partner;
    # Bob & Di and Fay & Hal fill 3 and 4: (6 + 5) / 2.
    play([[((a, b, c, d), [9]), ((e, f, g, h), [9])]], starts_at=local(2026, 12, 4, 19, 30),
         kind=Event.MovementKind.PAIRS)
    assert {r[1]: (r[0], r[4]) for r in lines(season)} == {
        "Ada": (1, "9.00"), "Cy": (1, "9.00"), "Eve": (1, "9.00"), "Gil": (1, "9.00"),
        "Bob": (5, "5.50"), "Di": (5, "5.50"), "Fay": (5, "5.50"), "Hal": (5, "5.50")}


def test_best_n_of_m(make_season, play, people):
    season = make_season(score="total", placing_points=[], best_of=2)
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    for day, tricks in ((4, 9), (11, 11), (18, 7)):  # Ada and Cy sit N-S each evening
        play([one_table(ada, bob, cy, di, tricks)], starts_at=local(2026, 12, day, 19, 30))
    # Ada: 9, 11, 7 -> the best two: 20; Bob: 4, 2, 6 -> 10.
    assert lines(season)[0] == (1, "Ada", 3, 2, "20.00", True)
    assert lines(season)[2] == (3, "Bob", 3, 2, "10.00", True)


def test_average_per_hand_is_the_mean_of_the_best_evening_averages(make_season, play, people):
    season = make_season(score="average", placing_points=[], best_of=1)
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    play([one_table(ada, bob, cy, di, 9, 6)], starts_at=local(2026, 12, 4, 19, 30))  # Ada 15 in 2 hands
    play([one_table(ada, bob, cy, di, 8, 8, 8)], starts_at=local(2026, 12, 11, 19, 30))  # Ada 24 in 3 hands
    assert lines(season)[0] == (1, "Ada", 2, 1, "8.00", True)  # 7.50 and 8.00: the best one
    assert lines(season)[2] == (3, "Bob", 2, 1, "5.50", True)  # 5.50 and 5.00


def test_the_qualifying_minimum_and_unqualified_rows_without_a_place(make_season, play, people):
    season = make_season(score="total", placing_points=[], min_evenings=2)
    ada, bob, cy, di, eve = people("Ada", "Bob", "Cy", "Di", "Eve")
    play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30))
    play([one_table(ada, bob, eve, di, 12)], starts_at=local(2026, 12, 11, 19, 30))  # Eve once, with 12
    assert lines(season) == [
        (1, "Ada", 2, 2, "21.00", True), (2, "Bob", 2, 2, "5.00", True), (2, "Di", 2, 2, "5.00", True),
        (None, "Eve", 1, 1, "12.00", False), (None, "Cy", 1, 1, "9.00", False)]


def test_one_person_across_evenings_is_their_player_record(make_season, play, people, club):
    """An account's player, or a walk-in matched to the same club player: one row."""
    season = make_season(score="total", placing_points=[])
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    from drive.events.models import Player

    namesake = Player.objects.create(display_name="Ada", club=club)  # another person of the same name
    play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30))
    play([one_table(namesake, bob, cy, di, 9)], starts_at=local(2026, 12, 11, 19, 30))
    ids = [row["player_id"] for row in stored(season)["rows"]]
    assert ids.count(ada.pk) == 1 and ids.count(namesake.pk) == 1 and ids.count(cy.pk) == 1
    assert next(r for r in stored(season)["rows"] if r["player_id"] == cy.pk)["evenings"] == 2


def test_only_published_evenings_of_the_club_count(make_season, play, people, other_club):
    season = make_season(score="total", placing_points=[])
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    finished = play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30), publish=False)
    assert finished.phase == Event.Phase.FINISHED
    counted = play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 11, 19, 30))
    Event.objects.filter(pk=counted.pk).update(club=other_club)
    table_services.recompute_season(season_id=season.pk)
    assert stored(season) == {"id": season.pk, "name": season.name, "evenings": [], "rows": []}


def test_an_evening_outside_the_range_is_ignored_until_the_range_grows(
        make_season, play, people, organiser, django_capture_on_commit_callbacks):
    season = make_season(score="total", placing_points=[], ends_on=date(2026, 12, 31))
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30))
    january = play([one_table(ada, bob, cy, di, 10)], starts_at=local(2027, 1, 8, 19, 30), title="January")
    assert [e["event"] for e in stored(season)["evenings"]] == [january.pk - 1]
    assert lines(season)[0] == (1, "Ada", 1, 1, "9.00", True)
    with django_capture_on_commit_callbacks(execute=True):
        services.update_season(actor=organiser, season=season, ends_on=date(2027, 2, 28))
    assert [e["title"] for e in stored(season)["evenings"]] == ["Drive 1", "January"]
    assert lines(season)[0] == (1, "Ada", 2, 2, "19.00", True)


def test_a_correction_after_publishing_changes_the_table(make_season, play, people, organiser,
                                                          django_capture_on_commit_callbacks):
    season = make_season(placing_points=[10, 8, 6, 5])
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    event = play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30))
    assert lines(season)[0][:2] == (1, "Ada")
    computed = SeasonTable.objects.get(season=season).computed_at
    table = Table.objects.get(event=event, number=1)
    with django_capture_on_commit_callbacks(execute=True):  # the organiser's request commits
        results.correct_result(actor=organiser, table=table, round_number=1, hand_number=1, ns_tricks=4,
                               reason="E-W took nine: cards recounted")
    assert SeasonTable.objects.get(season=season).computed_at > computed  # the task ran by itself
    assert lines(season) == [(1, "Bob", 1, 1, "9.00", True), (1, "Di", 1, 1, "9.00", True),
                             (3, "Ada", 1, 1, "5.50", True), (3, "Cy", 1, 1, "5.50", True)]


def test_a_revoke_penalty_after_publishing_changes_the_table(make_season, play, people, organiser,
                                                             django_capture_on_commit_callbacks):
    season = make_season(score="total", placing_points=[])
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    event = play([one_table(ada, bob, cy, di, 7)], starts_at=local(2026, 12, 4, 19, 30))
    with django_capture_on_commit_callbacks(execute=True):
        results.apply_revoke_penalty(actor=organiser, table=Table.objects.get(event=event, number=1),
                                     round_number=1, hand_number=1, offending_side="NS", reason="revoke")
    assert {r[1]: r[4] for r in lines(season)} == {"Bob": "9.00", "Di": "9.00", "Ada": "4.00", "Cy": "4.00"}


def test_publishing_asks_only_for_the_seasons_the_evening_counts_in(
        make_season, play, people, monkeypatch, other_club, organiser):
    winter = make_season()
    make_season(name="Spring", starts_on=date(2027, 3, 1), ends_on=date(2027, 5, 31))
    asked = []
    monkeypatch.setattr(tasks.recompute_season, "delay", lambda season_id: asked.append(season_id))
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30))
    assert asked == [winter.pk]


@pytest.mark.parametrize("starts_at, winter, autumn", [
    # Summer time (BST, UTC+1): 00:30 on 1 June is still 31 May in UTC.
    (local(2026, 6, 1, 0, 30), True, False),
    (local(2026, 5, 31, 23, 59), False, True),
    (local(2026, 6, 30, 23, 30), True, False),  # 22:30 UTC, the last day
    (local(2026, 7, 1, 0, 15), False, False),  # 30 June in UTC, 1 July here
])
def test_the_local_date_of_the_start_in_the_sites_time_zone(make_season, play, people, starts_at, winter,
                                                             autumn, settings):
    assert settings.TIME_ZONE == "Europe/London"
    june = make_season(name="June", starts_on=date(2026, 6, 1), ends_on=date(2026, 6, 30))
    may = make_season(name="May", starts_on=date(2026, 5, 1), ends_on=date(2026, 5, 31))
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    with timezone.override("Asia/Tokyo"):  # whoever asks, in whatever zone: the site's date counts
        play([one_table(ada, bob, cy, di, 9)], starts_at=starts_at)
        table_services.recompute_season(season_id=june.pk)
        table_services.recompute_season(season_id=may.pk)
    assert bool(stored(june)["rows"]) is winter
    assert bool(stored(may)["rows"]) is autumn
    if winter:
        assert stored(june)["evenings"][0]["date"] == starts_at.date().isoformat()


def test_deleting_a_season_keeps_its_evenings(make_season, play, people, organiser):
    season = make_season()
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    event = play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30))
    services.delete_season(actor=organiser, season=season)
    assert not SeasonStanding.objects.exists() and not SeasonTable.objects.exists()
    event.refresh_from_db()
    assert event.phase == Event.Phase.RESULTS_PUBLISHED and event.standings.count() == 4


def test_a_broker_down_loses_no_change_and_the_read_computes_the_table(
        club, organiser, play, people, monkeypatch, django_capture_on_commit_callbacks):
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30))

    def down(*args, **kwargs):
        raise OperationalError("Redis is down")

    monkeypatch.setattr(tasks.recompute_season, "delay", down)
    with django_capture_on_commit_callbacks(execute=True):  # the enqueue fails after commit: logged
        season = services.create_season(actor=organiser, club=club, name="Winter", starts_on=date(2026, 12, 1),
                                        ends_on=date(2027, 2, 28), score="total")
    assert not SeasonTable.objects.filter(season=season).exists()  # no task ran
    table_services.fresh_table(season=season)  # what a read does first
    assert [r["name"] for r in stored(season)["rows"]][:2] == ["Ada", "Cy"]
    assert table_services.recompute_season(season_id=season.pk, only_if_stale=True) is None  # fresh now


def test_a_read_finds_a_table_behind_a_correction_whose_task_was_lost(
        make_season, play, people, organiser, monkeypatch, django_capture_on_commit_callbacks):
    season = make_season(score="total", placing_points=[])
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    event = play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30))
    with django_capture_on_commit_callbacks(execute=False):  # committed, but nothing after it ran
        results.correct_result(actor=organiser, table=Table.objects.get(event=event, number=1), round_number=1,
                               hand_number=1, ns_tricks=3, reason="recount")
    assert lines(season)[0][1] == "Ada"  # the stored table is behind
    table_services.fresh_table(season=season)
    assert lines(season)[0][1:5] == ("Bob", 1, 1, "10.00")  # standings recomputed first, then the table


def test_the_task_of_a_deleted_season_does_nothing(make_season, organiser):
    season = make_season()
    season_id = season.pk
    services.delete_season(actor=organiser, season=season)
    assert tasks.recompute_season(season_id) is None


@pytest.mark.django_db(transaction=True)
def test_on_real_commits_the_table_follows_publishing(make_season, play, people):
    """No test transaction around it: every change commits as in a request, and what runs on
    commit (the signal, the task) runs then."""
    season = make_season(score="total", placing_points=[])
    ada, bob, cy, di = people("Ada", "Bob", "Cy", "Di")
    play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30))
    assert lines(season)[0] == (1, "Ada", 1, 1, "9.00", True)
