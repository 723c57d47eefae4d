"""Online play's services (drive/play/services): tables, seats, robots and stand-ins."""
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from drive.core.errors import Conflict, Forbidden, Invalid
from drive.games.models import PlayAction, PlaySeat, PlayTable
from drive.games.selectors.tables import game_of, hand_records, table_view, tables_of
from drive.games.services import actions, robots, tables
from engine import Phase, check_game, find_variant
from tests.play.core_kit import THREE_ROBOTS, TWO_HAND_GAME, four_people, fresh, robot_table

pytestmark = pytest.mark.django_db


def test_a_table_is_dealt_at_once_with_its_creator_seated_and_robots_elsewhere(make_user):
    me = make_user()
    table = robot_table(me, "bid", {"E": "rules", "W": "strong"})
    seats = {s.seat: s for s in table.seats.all()}
    assert seats["N"].user == me and seats["E"].robot == "rules" and seats["W"].robot == "strong"
    assert seats["S"].is_open
    assert table.version == 0 and table.phase == "auction" and table.rules == "bid"
    assert check_game(table.record)["valid"] and len(table.record["deals"]) == 1
    assert list(tables_of(me)) == [table]


@pytest.mark.parametrize("rules", ["dummy", "two_handed", "prussian"])
def test_the_seats_are_the_variants_players(make_user, rules):
    table = tables.create_table(user=make_user(), rules=rules, robots={})
    assert sorted(s.seat for s in table.seats.all()) == sorted(find_variant(rules).seats)


@pytest.mark.parametrize("rules, robots, seat, field", [
    ("nonsense", {}, None, "rules"),
    (["short"], {}, None, "rules"),
    ({"name": "short", "no_such_option": 3}, {}, None, "rules"),
    ("short", {"E": "clever"}, None, "robots"),
    ("dummy", {"W": "rules"}, None, "robots"),  # dummy whist is played at N, E, S
    ("short", {"N": "rules", "E": "rules", "S": "rules", "W": "rules"}, None, "robots"),
    ("short", {"E": "rules"}, "E", "seat"),
])
def test_a_table_that_cannot_be_made_is_refused_with_its_field(make_user, rules, robots, seat, field):
    with pytest.raises(Invalid) as refused:
        tables.create_table(user=make_user(), rules=rules, robots=robots, seat=seat)
    assert refused.value.field == field
    assert not PlayTable.objects.exists()


def test_options_of_the_wrong_type_are_refused_before_play(make_user):
    with pytest.raises(Invalid):
        tables.create_table(user=make_user(), rules={"name": "short", "points": "many"}, robots={})


def test_only_a_signed_in_user_makes_a_table(db):
    from django.contrib.auth.models import AnonymousUser
    with pytest.raises(Forbidden):
        tables.create_table(user=AnonymousUser(), rules="short", robots=THREE_ROBOTS)


def test_an_open_seat_is_taken_by_the_link_once(make_user):
    me, friend, late = make_user(), make_user(), make_user()
    table = tables.create_table(user=me, rules="short", robots={"E": "rules", "W": "rules"})
    tables.take_seat(user=friend, table_id=table.pk, seat="S", invite=table.invite)
    assert table_view(friend, fresh(table))["seat"] == "S"
    with pytest.raises(Conflict):
        tables.take_seat(user=late, table_id=table.pk, seat="S", invite=table.invite)  # taken
    with pytest.raises(Conflict):
        tables.take_seat(user=friend, table_id=table.pk, seat="E", invite=table.invite)  # one seat a person... and E is a robot's
    with pytest.raises(Invalid):
        tables.take_seat(user=late, table_id=table.pk, seat="X", invite=table.invite)


def test_an_open_seat_needs_the_tables_own_invitation(make_user):
    me, guesser = make_user(), make_user()
    table = tables.create_table(user=me, rules="short", robots={"E": "rules", "W": "rules"})
    other = tables.create_table(user=me, rules="short", robots={"E": "rules", "W": "rules"})
    assert len(table.invite) >= 24 and table.invite != other.invite
    for wrong in (None, "", other.invite, table.invite[:-1], table.invite.upper(), 12345):
        with pytest.raises(Forbidden):
            tables.take_seat(user=guesser, table_id=table.pk, seat="S", invite=wrong)
    assert fresh(table).seats.get(seat="S").user is None


def test_the_creator_seats_a_robot_and_it_plays_when_to_act(make_user, django_capture_on_commit_callbacks):
    for _ in range(60):  # a deal where the open seat S is to act first
        me = make_user()  # a creator for each try: one may keep only so many tables unfinished
        table = tables.create_table(user=me, rules="short", robots={"E": "rules", "W": "rules"})
        if game_of(table).to_act == "S":
            break
    assert game_of(table).to_act == "S"
    with django_capture_on_commit_callbacks(execute=True):
        tables.seat_robot(user=me, table_id=table.pk, seat="S", robot="random")
    assert PlaySeat.objects.get(table=table, seat="S").robot == "random"
    played = PlayAction.objects.get(table=table, version=1)
    assert played.seat == "S" and played.by_robot
    assert game_of(fresh(table)).to_act == "N"  # S then W played; N's turn


def test_only_the_creator_or_the_events_organiser_seats_robots_and_substitutes(make_user, event, organiser):
    me, stranger, sub = make_user(), make_user(), make_user("sub")
    table = tables.create_table(user=me, rules="short", robots={"E": "rules"})
    with pytest.raises(Forbidden):
        tables.seat_robot(user=stranger, table_id=table.pk, seat="S", robot="rules")
    with pytest.raises(Forbidden):
        tables.offer_seat(user=stranger, table_id=table.pk, seat="S", username="sub")
    with pytest.raises(Forbidden):
        tables.seat_robot(user=organiser, table_id=table.pk, seat="S", robot="rules")  # a casual table: not theirs
    PlayTable.objects.filter(pk=table.pk).update(event=event, round_number=1, table_number=1)
    PlaySeat.objects.filter(table=table, seat="N").update(standin=True)  # me went silent
    tables.offer_seat(user=organiser, table_id=table.pk, seat="N", username="sub")
    assert PlaySeat.objects.get(table=table, seat="N").user == me  # offered, not seated
    tables.take_seat(user=sub, table_id=table.pk, seat="N")
    assert PlaySeat.objects.get(table=table, seat="N").user == sub
    tables.seat_robot(user=organiser, table_id=table.pk, seat="S", robot="strong")
    tables.offer_seat(user=organiser, table_id=table.pk, seat="W", username="nobody-of-that-name")  # no word on who exists
    tables.offer_seat(user=organiser, table_id=table.pk, seat="W", username="sub")
    with pytest.raises(Conflict):
        tables.take_seat(user=sub, table_id=table.pk, seat="W")  # already at N


def test_a_whole_game_of_short_whist_against_three_robots(make_user, django_capture_on_commit_callbacks, seeded_deals):
    seeded_deals(TWO_HAND_GAME)
    me = make_user()
    table = robot_table(me, capture=django_capture_on_commit_callbacks)
    for _ in range(500):
        table = fresh(table)
        if table.finished_at:
            break
        view = table_view(me, table)
        assert view["to_act"] == "N" and view["legal"]
        with django_capture_on_commit_callbacks(execute=True):
            view = actions.apply_action(user=me, table_id=table.pk, action=view["legal"][-1], version=view["version"])
    table = fresh(table)
    game = game_of(table)
    assert table.phase == "over" and game.phase == Phase.OVER and game.score()["winner"] in ("NS", "EW")
    assert table.version == PlayAction.objects.filter(table=table).count()
    assert PlayAction.objects.filter(table=table, by_robot=False).exclude(seat="N").count() == 0
    hands = hand_records(table)
    assert len(hands) == len(table.record["deals"]) == game.hands_played
    assert all(check_game(h["record"])["valid"] for h in hands)
    assert check_game(hands[-1]["record"])["complete"]
    assert table_view(me, table)["last_record"]["actions"] == table.record["deals"][-1]["actions"]


def test_the_next_hand_is_dealt_as_soon_as_one_is_scored(make_user):
    table, people = four_people(make_user, "rubber")  # no rubber is won in one hand
    for _ in range(52):
        game = game_of(fresh(table))
        actions.apply_action(user=people[game.to_act], table_id=table.pk, action=str(game.legal_actions()[0]), version=fresh(table).version)
    table = fresh(table)
    assert len(table.record["deals"]) == 2 and table.phase == "play"
    view = table_view(people["N"], table)
    assert view["hands_played"] == 1 and len(view["hand"]) == 13
    assert view["last_record"]["dealer"] == table.record["deals"][0]["dealer"]


# --- robots ------------------------------------------------------------------------------------


class SpyRobot:
    """Records every view it is given and plays its first legal action."""
    views: list = []

    def __init__(self, seed=0):
        pass

    def choose(self, view):
        SpyRobot.views.append(view)
        return view["legal"][0]


def test_a_robot_sees_only_its_own_seats_view(make_user, monkeypatch, django_capture_on_commit_callbacks):
    monkeypatch.setitem(robots.ROBOTS, "rules", SpyRobot)
    SpyRobot.views = []
    me = make_user()
    table = robot_table(me, "bid", capture=django_capture_on_commit_callbacks)
    for _ in range(30):
        game = game_of(fresh(table))
        if game.phase != Phase.AUCTION and game.to_act != "N":
            break
        if game.to_act != "N":
            break
        with django_capture_on_commit_callbacks(execute=True):
            actions.apply_action(user=me, table_id=table.pk, action=str(game.legal_actions()[0]), version=fresh(table).version)
    assert SpyRobot.views
    for view in SpyRobot.views:
        assert view["seat"] in "ESW" and view["to_act"] == view["seat"]
        assert set(view) >= {"hand", "legal"}
    logged = PlayAction.objects.filter(table=table, by_robot=True)
    assert {a.seat for a in logged} <= {"E", "S", "W"}


def test_a_robots_task_for_an_old_version_or_a_persons_turn_does_nothing(make_user):
    table, people = four_people(make_user)
    assert robots.play_robot(table_id=table.pk, version=table.version) is False  # a person is to act
    # the seat to act gets a robot; the other three people are there (robots never play alone)
    PlaySeat.objects.filter(table=table, seat=game_of(table).to_act).update(user=None, robot="rules")
    assert robots.play_robot(table_id=table.pk, version=table.version + 1) is False  # not the table's version
    assert robots.play_robot(table_id=table.pk, version=table.version) is True
    assert robots.play_robot(table_id=table.pk, version=table.version) is False  # sent twice: played once
    assert fresh(table).version == 1
    assert robots.play_robot(table_id=999_999, version=0) is False


def test_a_robots_move_reads_its_table_and_seats_once(make_user):
    """The table's row without its record (this process has the game at that version) and
    the seats with their players once: the robot woken next and the sockets use those."""
    table, people = four_people(make_user)
    PlaySeat.objects.filter(table=table, seat=game_of(table).to_act).update(user=None, robot="rules")
    table = fresh(table)
    game_of(table)  # the game at this version, as the move that led here left it in this process
    with CaptureQueriesContext(connection) as queries:
        assert robots.play_robot(table_id=table.pk, version=table.version) is True
    reads = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT")]
    rows = [sql for sql in reads if 'FROM "play_playtable"' in sql]
    assert len(rows) == 1 and '"record"' not in rows[0], rows
    assert len([sql for sql in reads if 'FROM "play_playseat"' in sql]) == 1, reads
    assert fresh(table).version == table.version + 1


def test_a_robot_waits_a_human_like_moment(make_user, settings, monkeypatch, django_capture_on_commit_callbacks):
    settings.PLAY_ROBOT_DELAY = (0.4, 1.2)
    sent = []
    monkeypatch.setattr(actions, "task", lambda name: type("T", (), {
        "apply_async": staticmethod(lambda args, countdown: sent.append((name, args, countdown)))}))
    me = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        table = tables.create_table(user=me, rules="short", robots=THREE_ROBOTS)
        while game_of(fresh(table)).to_act == "N":
            actions.apply_action(user=me, table_id=table.pk, action=str(game_of(fresh(table)).legal_actions()[0]), version=fresh(table).version)
    assert sent and all(name == actions.ROBOT_TASK and 0.4 <= delay <= 1.2 for name, _args, delay in sent)
    assert sent[-1][1][0] == table.pk


# --- stand-ins ----------------------------------------------------------------------------------


def _silent(table, seconds):
    PlayTable.objects.filter(pk=table.pk).update(changed_at=timezone.now() - timedelta(seconds=seconds))


def test_a_silent_player_gets_a_robot_standing_in_until_they_are_back(make_user, django_capture_on_commit_callbacks):
    table, people = four_people(make_user)
    to_act = game_of(table).to_act
    _silent(table, 10)
    assert robots.sweep_silent_seats() == 0  # within the 45 seconds
    _silent(table, 60)
    with django_capture_on_commit_callbacks() as callbacks:
        assert robots.sweep_silent_seats() == 1
    assert PlaySeat.objects.get(table=table, seat=to_act).standin
    assert callbacks  # the broadcast and the robot's move
    assert robots.sweep_silent_seats() == 0  # once
    assert robots.play_robot(table_id=table.pk, version=0) is True
    played = PlayAction.objects.get(table=table, version=1)
    assert played.seat == to_act and played.by_robot
    tables.take_seat(user=people[to_act], table_id=table.pk, seat=to_act)  # back
    seat = PlaySeat.objects.get(table=table, seat=to_act)
    assert not seat.standin and seat.last_seen


def test_a_stand_in_ends_when_its_player_acts(make_user):
    table, people = four_people(make_user)
    to_act = game_of(table).to_act
    PlaySeat.objects.filter(table=table, seat=to_act).update(standin=True)
    actions.apply_action(user=people[to_act], table_id=table.pk, action=str(game_of(table).legal_actions()[0]), version=0)
    assert not PlaySeat.objects.get(table=table, seat=to_act).standin
    assert robots.play_robot(table_id=table.pk, version=0) is False  # the robot's task came too late


def test_a_robots_lost_move_is_asked_for_again_by_the_sweep(make_user, monkeypatch,
                                                          django_capture_on_commit_callbacks):
    me = make_user()
    table = tables.create_table(user=me, rules="short", robots={"E": "rules", "S": "rules", "W": "rules"})
    game = game_of(table)
    if game.to_act == "N":                       # make a robot the one to act
        actions.apply_action(user=me, table_id=table.pk, action=str(game.legal_actions()[0]), version=table.version)
        table = PlayTable.objects.get(pk=table.pk)
    assert game_of(table).to_act != "N"          # its task never ran here: the move is lost
    asked = []
    monkeypatch.setattr(robots, "send_robot_move", lambda table_id, version: asked.append((table_id, version)))
    _silent(table, 10)
    with django_capture_on_commit_callbacks(execute=True):
        robots.sweep_silent_seats()
    assert asked == []                           # within the table's timeout: not yet
    _silent(table, 60)
    with django_capture_on_commit_callbacks(execute=True):
        assert robots.sweep_silent_seats() == 0  # no person stood in for
    assert asked == [(table.pk, table.version)]
    assert robots.play_robot(table_id=table.pk, version=table.version) is True   # the task asked again plays once
    assert robots.play_robot(table_id=table.pk, version=table.version) is False


def test_the_sweep_leaves_robots_open_seats_and_finished_tables_alone(make_user):
    me = make_user()
    table = tables.create_table(user=me, rules="short", robots={"E": "rules", "S": "rules"})  # W open
    _silent(table, 3600)
    robots.sweep_silent_seats()
    assert not PlaySeat.objects.filter(table=table, standin=True).exclude(seat="N").exists()
    PlayTable.objects.filter(pk=table.pk).update(finished_at=timezone.now())
    PlaySeat.objects.filter(table=table).update(standin=False)
    assert robots.sweep_silent_seats() == 0
