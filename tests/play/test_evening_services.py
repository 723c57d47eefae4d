"""An evening's online tables through the services: the organiser's setting (and who may
not change it), tables dealt when a round starts with the movement's players, every hand
played going into the results confirmed, robots finishing the hands at the deadline
(flagged), the hands shown to everyone once the round is closed."""
import random

import pytest

from drive.core.errors import Conflict, Forbidden, Invalid
from drive.games import access
from drive.games.models import PlayTable
from drive.scoring.selectors.online_tables import evening_tables, table_rules
from drive.games.selectors.tables import game_of, hand_records
from drive.scoring.services import online_tables as evening
from drive.scoring.models import HandResult, OnlineTables, Round, Standing, Table
from drive.scoring.rules import rotation_trump
from drive.scoring.selectors.rounds import tables_out
from drive.scoring.services import evening as ev
from drive.scoring.services import ranking
from drive.scoring.services import results as result_services
from engine import find_variant
from tests.play.evening_kit import past_deadline, play_hand, seated_evening, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def online_evening(make_event, organiser):
    event = seated_evening(make_event)
    evening.set_online_tables(actor=organiser, event=event, mode="online")
    return event


# --- the setting ---------------------------------------------------------------------------


def test_the_organiser_sets_tables_online_paper_or_mixed(make_event, organiser):
    event = seated_evening(make_event)
    assert evening_tables(event=event)["mode"] == "paper"  # the default: nothing changes for paper evenings
    setting = evening.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[2, 1, 2])
    assert (setting.mode, setting.tables, setting.robot) == ("mixed", [1, 2], "rules")
    setting = evening.set_online_tables(actor=organiser, event=event, mode="online", robot="strong")
    assert (setting.mode, setting.tables, setting.robot) == ("online", [], "strong")
    assert OnlineTables.objects.get(event=event).is_online(7)


def test_only_the_clubs_organisers_set_it(make_event, make_user, other_club):
    event = seated_evening(make_event)
    player = user_of(event, 1)
    for actor in (None, player, make_user("stranger"), other_club.organisers.get()):
        with pytest.raises(Forbidden):
            evening.set_online_tables(actor=actor, event=event, mode="online")
    assert not OnlineTables.objects.filter(event=event).exists()


@pytest.mark.parametrize("change, field", [
    ({"mode": "telepathy"}, "mode"),
    ({"mode": "mixed"}, "tables"),
    ({"mode": "mixed", "tables": ["1"]}, "tables"),
    ({"mode": "mixed", "tables": [0]}, "tables"),
    ({"mode": "online", "robot": "oracle"}, "robot"),
])
def test_a_bad_setting_is_refused_with_its_field(make_event, organiser, change, field):
    event = seated_evening(make_event)
    with pytest.raises(Invalid) as err:
        evening.set_online_tables(actor=organiser, event=event, **change)
    assert err.value.field == field


def test_a_change_during_a_round_holds_from_the_next_round(online_evening, organiser):
    ev.start_round(actor=organiser, event=online_evening)
    # Asked while round 1 is played: kept (no 409), and round 1 keeps its way of playing.
    setting = evening.set_online_tables(actor=organiser, event=online_evening, mode="mixed", tables=[1])
    assert (setting.mode, setting.tables) == ("mixed", [1])
    assert sorted(PlayTable.objects.filter(event=online_evening, round_number=1)
                  .values_list("table_number", flat=True)) == [1, 2]
    past_deadline(online_evening)
    ev.end_round(actor=organiser, event=online_evening)
    ev.start_round(actor=organiser, event=online_evening)  # round 2 is dealt by the new setting
    assert list(PlayTable.objects.filter(event=online_evening, round_number=2)
                .values_list("table_number", flat=True)) == [1]


def test_the_setting_is_frozen_once_the_evening_is_over(online_evening, organiser):
    online_evening.phase = "finished"
    online_evening.save()
    with pytest.raises(Conflict):
        evening.set_online_tables(actor=organiser, event=online_evening, mode="paper")


# --- a round starts --------------------------------------------------------------------------


def test_the_round_start_deals_each_online_table_with_the_movements_players(online_evening, organiser):
    round_ = ev.start_round(actor=organiser, event=online_evening)
    tables = list(PlayTable.objects.filter(event=online_evening).order_by("table_number"))
    assert [(t.round_number, t.table_number) for t in tables] == [(1, 1), (1, 2)]
    seats = {s.seat: s for s in tables[0].seats.all()}
    assert {p: seats[p].user for p in "NESW"} == {p: user_of(online_evening, n) for p, n in zip("NESW", (1, 2, 3, 4))}
    assert all(not s.robot for s in seats.values())
    game = game_of(tables[0])
    assert game.variant.options.scoring == "drive" and game.variant.options.hands_per_round == 2
    assert game.phase == "play" and len(game.view("N")["hand"]) == 13
    assert round_.deadline is not None  # the same clock as the paper tables
    assert evening.open_round_tables(event=online_evening, round_=round_) == 0  # safe twice


def test_a_player_without_an_account_is_played_by_the_events_robot(make_event, organiser):
    event = seated_evening(make_event, accounts=(1, 2, 3, 5, 6, 7, 8))
    evening.set_online_tables(actor=organiser, event=event, mode="online", robot="random")
    ev.start_round(actor=organiser, event=event)
    west = PlayTable.objects.get(event=event, table_number=1).seats.get(seat="W")
    assert (west.user, west.robot) == (None, "random")


def test_paper_and_mixed_evenings_deal_only_their_online_tables(make_event, organiser):
    paper = seated_evening(make_event)
    ev.start_round(actor=organiser, event=paper)
    assert not PlayTable.objects.filter(event=paper).exists()
    mixed = seated_evening(make_event)
    evening.set_online_tables(actor=organiser, event=mixed, mode="mixed", tables=[2])
    ev.start_round(actor=organiser, event=mixed)
    assert list(PlayTable.objects.filter(event=mixed).values_list("table_number", flat=True)) == [2]


@pytest.mark.parametrize("rule", ["rotation", "rotation_nt"])
def test_a_trump_rotation_runs_over_the_whole_evening(make_event, rule):
    event = make_event(hands_per_round=3, trump_rule=rule)
    for round_number in (1, 2, 3):
        game = find_variant(table_rules(event=event, round_number=round_number)).new_game(random.Random(1))
        for hand in (1, 2, 3):
            game.deal(random.Random(hand))
            assert game.view("N")["trump"] == rotation_trump(event, round_number, hand)  # rule D2
            while game.to_act:
                game.apply(game.legal_actions()[0])


# --- hands into the results ---------------------------------------------------------------------


def test_each_hand_played_counts_at_once_as_a_confirmed_result(online_evening, organiser):
    ev.start_round(actor=organiser, event=online_evening)
    table = PlayTable.objects.get(event=online_evening, table_number=1)
    play_hand(table)
    result = HandResult.objects.get(round__event=online_evening, table__number=1)
    game = game_of(PlayTable.objects.get(pk=table.pk))
    first = game.record()["deals"][0]
    assert result.hand_number == 1 and result.status == HandResult.Status.CONFIRMED
    assert result.change_kind == HandResult.ChangeKind.ENTRY and result.entered_by == ""
    assert result.history.first().history_change_reason == "played online"
    played = hand_records(PlayTable.objects.get(pk=table.pk))
    assert len(played) == 1 and played[0]["record"]["deals"][0]["hands"] == first["hands"]
    assert result.trump == first["trump_card"][-1]  # the turned card's suit (rule S5)
    play_hand(table)
    table = PlayTable.objects.get(pk=table.pk)
    assert table.phase == "over" and table.finished_at is None  # finished when the round is closed
    assert Table.objects.get(event=online_evening, number=1).number not in tables_out(
        Round.objects.get(event=online_evening, number=1))
    ranking.recompute_standings(event_id=online_evening.pk)
    lines = {s.entrant.number: s for s in Standing.objects.filter(event=online_evening)}
    ns = sum(r.ns_tricks for r in HandResult.objects.filter(round__event=online_evening, table__number=1))
    assert lines[1].total == lines[3].total == ns and lines[2].total == lines[4].total == 26 - ns


def test_the_hands_show_to_the_tables_players_then_to_everyone_once_the_round_is_over(online_evening, organiser,
                                                                                    make_user):
    ev.start_round(actor=organiser, event=online_evening)
    table = PlayTable.objects.get(event=online_evening, table_number=1)
    play_hand(table)
    play_hand(table)
    table = PlayTable.objects.get(pk=table.pk)
    stranger, other_table = make_user("watcher"), user_of(online_evening, 5)
    assert access.may_read_hands(user_of(online_evening, 1), table)
    assert access.may_read_hands(organiser, table)
    assert not access.may_read_hands(stranger, table)
    assert not access.may_read_hands(other_table, table)
    with pytest.raises(Forbidden):
        access.hands_table(stranger, table.pk)
    past_deadline(online_evening)
    ev.end_round(actor=organiser, event=online_evening)
    table = PlayTable.objects.get(pk=table.pk)
    assert table.finished_at is not None
    assert access.may_read_hands(stranger, table) and access.may_read_hands(other_table, table)


# --- the deadline ------------------------------------------------------------------------------


def test_at_the_deadline_robots_finish_the_hands_and_they_are_flagged(online_evening, organiser):
    ev.start_round(actor=organiser, event=online_evening)
    table = PlayTable.objects.get(event=online_evening, table_number=1)
    play_hand(table)  # hand 1 played by the people, hand 2 not begun; table 2 not begun
    assert evening.finish_late_tables() == 0  # the clock still runs: nothing to finish
    past_deadline(online_evening)
    assert evening.finish_late_tables() == 2
    results = {(r.table.number, r.hand_number): r for r in HandResult.objects.filter(round__event=online_evening)}
    assert sorted(results) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert results[1, 1].change_kind == HandResult.ChangeKind.ENTRY
    flagged = [k for k, r in results.items() if r.change_kind == HandResult.ChangeKind.ROBOTS]
    assert flagged == [(1, 2), (2, 1), (2, 2)]
    assert all(r.status == HandResult.Status.CONFIRMED for r in results.values())
    assert "robots" in results[2, 1].history.first().history_change_reason
    listed = {t["table"]: t for t in evening_tables(event=online_evening)["online"]}
    assert listed[1]["finished_by_robots"] == [2] and listed[2]["finished_by_robots"] == [1, 2]
    assert tables_out(Round.objects.get(event=online_evening, number=1)) == []
    closed = ev.end_round(actor=organiser, event=online_evening)
    assert closed.late_tables == [] and evening.finish_late_tables() == 0


def test_a_round_ended_anyway_has_its_online_hands_finished_by_robots(online_evening, organiser):
    ev.start_round(actor=organiser, event=online_evening)
    with pytest.raises(Conflict):
        ev.end_round(actor=organiser, event=online_evening)  # before the deadline: tables out
    assert not HandResult.objects.filter(round__event=online_evening).exists()
    closed = ev.end_round(actor=organiser, event=online_evening, force=True)
    assert closed.late_tables == []
    assert HandResult.objects.filter(round__event=online_evening, change_kind="robots").count() == 4
    assert not PlayTable.objects.filter(event=online_evening, finished_at__isnull=True).exists()
    # Round 2 is seated from the plan; its clock deals new online tables.
    ev.start_round(actor=organiser, event=online_evening)
    assert PlayTable.objects.filter(event=online_evening, round_number=2).count() == 2


def test_an_organisers_correction_of_an_online_hand_stands(online_evening, organiser):
    ev.start_round(actor=organiser, event=online_evening)
    table = PlayTable.objects.get(event=online_evening, table_number=1)
    scoring_table = Table.objects.get(event=online_evening, number=1)
    play_hand(table)
    result_services.correct_result(actor=organiser, table=scoring_table, round_number=1, hand_number=2, ns_tricks=13,
                                   reason="claimed all", trump="H")
    past_deadline(online_evening)
    evening.finish_late_tables()
    assert HandResult.objects.get(round__event=online_evening, table=scoring_table, hand_number=2).ns_tricks == 13
    with pytest.raises(Invalid):  # robots' kind is not the organiser's to choose
        result_services.correct_result(actor=organiser, table=scoring_table, round_number=1, hand_number=1,
                                       ns_tricks=7, reason="x", kind="robots")
