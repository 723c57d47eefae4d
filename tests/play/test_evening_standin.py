"""An evening's online table does not wait on a player who never comes: once the table's
timeout has passed since the round started, a robot stands in for each person not seen at
the table since then (their turn or not), it plays their cards, the console shows it, the
hands it played in are flagged, and the standings count them. A person who came is not
stood in for until they are silent past the timeout, as before."""
from datetime import timedelta

import pytest
from django.utils import timezone

from drive.games.models import PlayTable
from drive.scoring.selectors.online_tables import evening_tables
from drive.games.selectors.tables import game_of
from drive.games.services import actions, robots
from drive.scoring.services import online_tables as evening
from drive.scoring.models import HandResult, Standing
from drive.scoring.services import evening as ev
from drive.scoring.services import ranking
from tests.play.evening_kit import seated_evening, user_of

pytestmark = pytest.mark.django_db


def fresh(table):
    return PlayTable.objects.get(pk=table.pk)


@pytest.fixture
def table(make_event, organiser, django_capture_on_commit_callbacks):
    """Table 1 of an online evening (four people), round 1 just started; N, S and W open
    the table, East never comes."""
    event = seated_evening(make_event)
    evening.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[1])
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_round(actor=organiser, event=event)
    table = PlayTable.objects.get(event=event, table_number=1)
    for number in (1, 3, 4):  # N, S, W come
        actions.seen_at_table(user=user_of(event, number), table_id=table.pk)
    return table


def play_people_until(table, seat, callbacks):
    """The people present play their first legal card until `seat` is to act."""
    for _ in range(60):
        table = fresh(table)
        game = game_of(table)
        if game.to_act in (seat, None):
            return game
        person = table.seats.get(seat=game.to_act)
        assert not person.played_by_robot, "only people are to act here"
        with callbacks(execute=True):
            actions.apply_action(user=person.user, table_id=table.pk, action=str(game.legal_actions()[0]), version=table.version)
    raise AssertionError(f"{seat} never came to act")


def play_out_hand(table, callbacks):
    """Everyone plays one hand through: the people their first legal card, the robot its own."""
    hands = game_of(fresh(table)).hands_played
    for _ in range(80):
        table = fresh(table)
        game = game_of(table)
        if game.hands_played > hands or game.to_act is None:
            return
        place = table.seats.get(seat=game.to_act)
        with callbacks(execute=True):
            if place.played_by_robot:
                robots.play_robot(table_id=table.pk, version=table.version)
            else:
                actions.apply_action(user=place.user, table_id=table.pk, action=str(game.legal_actions()[0]), version=table.version)
    raise AssertionError("the hand did not end")


def test_a_player_who_never_comes_is_played_by_a_stand_in_after_the_timeout_from_the_rounds_start(
        table, django_capture_on_commit_callbacks):
    game = play_people_until(table, "E", django_capture_on_commit_callbacks)
    assert game.to_act == "E"
    timeout = timedelta(seconds=table.timeout_seconds)
    now = timezone.now()
    # The round started a little more than the timeout ago; North played a moment ago.
    PlayTable.objects.filter(pk=table.pk).update(created_at=now - timeout - timedelta(seconds=2),
                                                 changed_at=now - timedelta(seconds=3))
    assert robots.sweep_silent_seats(now=now - timedelta(seconds=5)) == 0  # before the timeout: nobody stands in
    assert not fresh(table).seats.get(seat="E").standin
    before = fresh(table).version
    with django_capture_on_commit_callbacks(execute=True):
        assert robots.sweep_silent_seats(now=now) == 1  # East only: N, S and W came
    seats = {s.seat: s for s in fresh(table).seats.all()}
    assert seats["E"].standin and not any(seats[p].standin for p in "NSW")
    after = fresh(table)
    assert after.version > before and game_of(after).to_act != "E"  # the stand-in played East's card at once
    assert after.actions.filter(version=before + 1, seat="E", by_robot=True).exists()
    listed = {t["table"]: t for t in evening_tables(event=table.event)["online"]}[1]  # the console's list
    assert [s["standin"] for s in listed["seats"]] == [False, True, False, False]


def test_the_hand_a_stand_in_played_is_flagged_and_the_standings_count_it(table, django_capture_on_commit_callbacks):
    PlayTable.objects.filter(pk=table.pk).update(
        created_at=timezone.now() - timedelta(seconds=table.timeout_seconds + 1))
    with django_capture_on_commit_callbacks(execute=True):
        robots.sweep_silent_seats()
    assert fresh(table).seats.get(seat="E").standin
    play_out_hand(table, django_capture_on_commit_callbacks)
    result = HandResult.objects.get(round__event=table.event, table__number=1, hand_number=1)
    assert result.status == HandResult.Status.CONFIRMED
    assert result.change_kind == HandResult.ChangeKind.ROBOTS  # flagged: a robot played in it
    assert "robot standing in" in result.history.first().history_change_reason
    ranking.recompute_standings(event_id=table.event_id)
    lines = {s.entrant.number: s for s in Standing.objects.filter(event=table.event)}
    assert lines[1].total == result.ns_tricks and lines[2].total == 13 - result.ns_tricks  # East's too


def test_a_player_who_came_is_stood_in_for_only_when_silent_past_the_timeout(
        make_event, organiser, django_capture_on_commit_callbacks):
    event = seated_evening(make_event)
    evening.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[1])
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_round(actor=organiser, event=event)
    table = PlayTable.objects.get(event=event, table_number=1)
    for number in (1, 2, 3, 4):
        actions.seen_at_table(user=user_of(event, number), table_id=table.pk)
    now = timezone.now()
    PlayTable.objects.filter(pk=table.pk).update(created_at=now - timedelta(minutes=5),
                                                 changed_at=now - timedelta(seconds=3))
    assert robots.sweep_silent_seats(now=now) == 0
    assert not fresh(table).seats.filter(standin=True).exists()
    to_act = game_of(fresh(table)).to_act
    with django_capture_on_commit_callbacks(execute=True):
        assert robots.sweep_silent_seats(now=now + timedelta(seconds=table.timeout_seconds)) == 1  # silent
    assert list(fresh(table).seats.filter(standin=True).values_list("seat", flat=True)) == [to_act]
