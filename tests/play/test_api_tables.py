"""Online play's REST API, exactly as issue 14 gives it: make a table, the caller's view,
seats, actions (200, 400 with the rule, 403, 409) and the finished hands."""
import io
import json
from contextlib import redirect_stdout

import pytest

from drive.games.models import PlayAction, PlaySeat, PlayTable
from drive.games.selectors.tables import game_of
from drive.games.services import tables
from engine.cli import main as engine_cli
from tests.play.core_kit import fresh, hidden_cards, shown_cards

pytestmark = pytest.mark.django_db

VIEW_KEYS = {"id", "rules", "phase", "to_act", "seat", "hand", "legal", "trick", "tricks", "trump", "auction",
             "score", "version", "hands_played", "last_record"}


@pytest.fixture
def people(make_user):
    return {seat: make_user(f"player-{seat}") for seat in "NESW"}


def client_of(api, user):
    api.force_authenticate(user)
    return api


def make_table(api, user, body=None):
    client_of(api, user)
    answer = api.post("/api/play/tables/", body or {"rules": "short", "robots": {"E": "rules", "S": "rules",
                                                                                  "W": "rules"}}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def invite_of(table_id):
    return PlayTable.objects.get(pk=table_id).invite


def four_at(api, people, rules="short"):
    created = make_table(api, people["N"], {"rules": rules})
    invite = invite_of(created["id"])
    for seat in "ESW":
        client_of(api, people[seat])
        assert api.post(f"/api/play/tables/{created['id']}/seats/", {"seat": seat, "invite": invite},
                        format="json").status_code == 200
    return PlayTable.objects.get(pk=created["id"])


def test_a_table_is_made_as_the_issue_says(api, make_user):
    body = make_table(api, make_user())
    table_id = body["id"]
    assert body == {"id": table_id, "seat": "N", "url": f"/play/{table_id}/", "ws": f"/ws/play/{table_id}/"}
    seats = {s.seat: s.robot for s in PlaySeat.objects.filter(table_id=table_id)}
    assert seats == {"N": "", "E": "rules", "S": "rules", "W": "rules"}


def test_the_callers_view_holds_the_issues_fields(api, make_user, django_capture_on_commit_callbacks):
    me = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        table_id = make_table(api, me)["id"]
    view = api.get(f"/api/play/tables/{table_id}/").json()
    assert VIEW_KEYS <= set(view)
    assert view["id"] == table_id and view["seat"] == "N" and view["rules"] == "short"
    assert view["to_act"] == "N" and view["legal"] and set(view["legal"]) <= set(view["hand"])
    assert view["tricks"] == {"NS": 0, "EW": 0} and view["last_record"] is None
    assert view["version"] == fresh(PlayTable.objects.get(pk=table_id)).version


def test_making_a_table_is_refused_with_field_messages(api, make_user):
    client_of(api, make_user())
    for body, field in (({"rules": "nonsense"}, "rules"), ({"rules": "short", "robots": {"E": "genius"}}, "robots"),
                        ({"rules": "short", "robots": {"N": "rules", "E": "rules", "S": "rules", "W": "rules"}},
                         "robots"),
                        ({"rules": "short", "seat": "Q"}, "seat"), ({}, "rules"),
                        ({"rules": {"name": "short", "bogus": 1}}, "rules")):
        answer = api.post("/api/play/tables/", body, format="json")
        assert answer.status_code == 400 and field in answer.json(), (body, answer.content)
    assert not PlayTable.objects.exists()


def test_anonymous_callers_are_refused(api, make_user):
    assert api.post("/api/play/tables/", {"rules": "short"}, format="json").status_code == 403
    table_id = make_table(api, make_user())["id"]
    api.force_authenticate(None)
    assert api.get(f"/api/play/tables/{table_id}/").status_code == 403
    assert api.post(f"/api/play/tables/{table_id}/seats/", {"seat": "E"}, format="json").status_code == 403
    assert api.post(f"/api/play/tables/{table_id}/actions/", {"action": "AS", "version": 0},
                    format="json").status_code == 403
    assert api.get(f"/api/play/tables/{table_id}/hands/").status_code == 403
    assert api.get("/api/play/tables/999999/").status_code == 403  # which tables exist is not told


def test_a_casual_tables_view_needs_its_invitation(api, make_user):
    table_id = make_table(api, make_user())["id"]
    client_of(api, make_user("stranger"))
    refused = api.get(f"/api/play/tables/{table_id}/")
    assert refused.status_code == 403 and "invitation" in refused.json()["detail"]
    assert api.get(f"/api/play/tables/{table_id}/", {"invite": invite_of(table_id)}).status_code == 200


def test_an_unknown_table_is_404(api, make_user):
    client_of(api, make_user())
    assert api.get("/api/play/tables/999999/").status_code == 404
    assert api.post("/api/play/tables/999999/actions/", {"action": "AS", "version": 0}, format="json").status_code == 404
    assert api.post("/api/play/tables/999999/seats/", {"seat": "E"}, format="json").status_code == 404
    assert api.get("/api/play/tables/999999/hands/").status_code == 404


def test_a_play_answers_the_new_view_and_the_robots_follow(api, make_user, django_capture_on_commit_callbacks):
    me = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        table_id = make_table(api, me)["id"]
    view = api.get(f"/api/play/tables/{table_id}/").json()
    card = view["legal"][0]
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(f"/api/play/tables/{table_id}/actions/", {"action": card, "version": view["version"]},
                          format="json")
    assert answer.status_code == 200
    assert answer.json()["version"] == view["version"] + 1 and card not in answer.json()["hand"]
    now = api.get(f"/api/play/tables/{table_id}/").json()
    assert now["to_act"] == "N"  # the robots played up to N's next turn
    robots = PlayAction.objects.filter(table_id=table_id, by_robot=True).values_list("seat", flat=True)
    assert set(robots) <= {"E", "S", "W"}


def test_each_cheat_gets_its_status(api, people, make_user):
    table = four_at(api, people)
    game = game_of(table)
    to_act = game.to_act
    other = next(s for s in "NESW" if s != to_act)
    url = f"/api/play/tables/{table.pk}/actions/"
    legal = str(game.legal_actions()[0])
    # another seat's action: 403 (named), and someone with no seat: 403
    client_of(api, people[other])
    assert api.post(url, {"action": legal, "version": 0, "seat": to_act}, format="json").status_code == 403
    client_of(api, make_user())
    assert api.post(url, {"action": legal, "version": 0}, format="json").status_code == 403
    # out of turn: 409
    client_of(api, people[other])
    assert api.post(url, {"action": game.view(other)["hand"][0], "version": 0}, format="json").status_code == 409
    # a card not held: 400 with the rule
    client_of(api, people[to_act])
    refused = api.post(url, {"action": game.view(other)["hand"][0], "version": 0}, format="json")
    assert refused.status_code == 400 and refused.json()["rule"] and refused.json()["detail"]
    # a bad body: 400 with field messages
    assert api.post(url, {"action": legal}, format="json").status_code == 400
    assert api.post(url, {"action": legal, "version": "x"}, format="json").status_code == 400
    # applied once, then the same message again: 200 and nothing new
    first = api.post(url, {"action": legal, "version": 0}, format="json")
    again = api.post(url, {"action": legal, "version": 0}, format="json")
    assert first.status_code == again.status_code == 200 and again.json()["version"] == 1
    assert PlayAction.objects.filter(table=table).count() == 1
    # another message from the old version: 409 with the current version
    stale = api.post(url, {"action": str(game.legal_actions()[1]), "version": 0}, format="json")
    assert stale.status_code == 409 and stale.json()["version"] == 1


def test_reading_another_hand_is_impossible(api, people, make_user):
    table = four_at(api, people, "bid")
    for seat in "NESW":
        client_of(api, people[seat])
        view = api.get(f"/api/play/tables/{table.pk}/").json()
        assert view["seat"] == seat and not shown_cards(view) & hidden_cards(table, seat)
    client_of(api, make_user())
    watcher = api.get(f"/api/play/tables/{table.pk}/", {"invite": table.invite}).json()
    assert watcher["seat"] is None and watcher["hand"] == [] and watcher["legal"] == []
    assert not shown_cards(watcher) & set.intersection(*(hidden_cards(table, s) for s in "NESW"))


def test_seats_taken_and_filled_through_the_api(api, make_user):
    me, friend, stranger = make_user(), make_user(), make_user("stranger")
    table_id = make_table(api, me, {"rules": "short", "robots": {"E": "rules"}})["id"]
    url, invite = f"/api/play/tables/{table_id}/seats/", invite_of(table_id)
    client_of(api, friend)
    taken = api.post(url, {"seat": "S", "invite": invite}, format="json")
    assert taken.status_code == 200 and taken.json()["seat"] == "S"
    client_of(api, stranger)
    assert api.post(url, {"seat": "S", "invite": invite}, format="json").status_code == 409
    assert api.post(url, {"seat": "W", "robot": "rules"}, format="json").status_code == 403
    assert api.post(url, {"seat": "W", "username": "stranger"}, format="json").status_code == 403
    assert api.post(url, {"seat": "Z"}, format="json").status_code == 400
    client_of(api, me)
    assert api.post(url, {"seat": "W", "robot": "clever"}, format="json").status_code == 400
    assert api.post(url, {"seat": "W", "username": "stranger"}, format="json").status_code == 202  # offered
    assert PlaySeat.objects.get(table_id=table_id, seat="W").user is None  # not seated until they accept
    PlaySeat.objects.filter(table_id=table_id, seat="S").update(standin=True)  # the friend went silent
    assert api.post(url, {"seat": "S", "robot": "strong"}, format="json").status_code == 200
    client_of(api, stranger)
    assert api.post(url, {"seat": "W"}, format="json").status_code == 200  # accepts: no link needed
    players = {p["seat"]: p for p in api.get(f"/api/play/tables/{table_id}/").json()["players"]}
    assert players["W"]["name"] == "stranger" and players["S"]["robot"] == "strong"


def test_the_finished_hands_are_records_the_engine_checks(api, make_user, django_capture_on_commit_callbacks, tmp_path):
    me = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        table_id = make_table(api, me)["id"]
    for _ in range(30):  # two hands and a bit
        view = api.get(f"/api/play/tables/{table_id}/").json()
        if view["hands_played"] >= 2 or view["phase"] == "over":
            break
        with django_capture_on_commit_callbacks(execute=True):
            api.post(f"/api/play/tables/{table_id}/actions/", {"action": view["legal"][0],
                                                               "version": view["version"]}, format="json")
    answer = api.get(f"/api/play/tables/{table_id}/hands/")
    assert answer.status_code == 200
    hands = answer.json()["hands"]
    assert [h["number"] for h in hands] == list(range(1, len(hands) + 1)) and len(hands) == view["hands_played"] >= 1
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(h["record"]) + "\n" for h in hands))
    out = io.StringIO()
    with redirect_stdout(out):
        engine_cli(["check", "--jsonl", str(path)])
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == len(hands) and all(a["valid"] for a in answers)
    assert view["last_record"]["actions"] == hands[-1]["record"]["deals"][-1]["actions"]
    client_of(api, make_user())
    over = PlayTable.objects.get(pk=table_id).finished_at is not None  # five points may come in two hands
    hands_url = f"/api/play/tables/{table_id}/hands/"
    assert api.get(hands_url, {"invite": invite_of(table_id)}).status_code == (200 if over else 403)
    assert api.get(hands_url).status_code == 403  # knowing the id is not enough


def test_a_casual_table_is_not_open_to_whoever_knows_its_id(api, client, make_user):
    """The invitation: shown to the creator and the players as the link; without it (or
    with another table's, or a wrong one) a stranger may neither watch nor sit."""
    me, friend, stranger = make_user(), make_user(), make_user("stranger")
    table_id = make_table(api, me, {"rules": "short", "robots": {"E": "rules"}})["id"]
    other_id = make_table(api, me, {"rules": "short", "robots": {"E": "rules"}})["id"]
    invite = invite_of(table_id)
    mine = api.get(f"/api/play/tables/{table_id}/").json()
    assert mine["invite_url"] == f"/play/{table_id}/?invite={invite}"
    view_url, seats_url = f"/api/play/tables/{table_id}/", f"/api/play/tables/{table_id}/seats/"
    client_of(api, stranger)
    for wrong in (None, "", invite_of(other_id), invite[:-1], invite + "x", invite.swapcase()):
        query = {} if wrong is None else {"invite": wrong}
        assert api.get(view_url, query).status_code == 403, wrong
        body = {"seat": "S"} if wrong is None else {"seat": "S", "invite": wrong}
        answer = api.post(seats_url, body, format="json")
        assert answer.status_code == 403 and "invitation" in answer.json()["detail"], wrong
    assert PlaySeat.objects.get(table_id=table_id, seat="S").user is None
    watched = api.get(view_url, {"invite": invite}).json()
    assert watched["seat"] is None and watched["hand"] == [] and watched["invite_url"] is None  # a watcher: no link
    # The issue's exact {"seat": "E"} works for whoever came by the link: the page keeps it.
    client.force_login(friend)
    assert client.get(f"/play/{table_id}/").status_code == 403
    assert client.get(f"/play/{table_id}/?invite={invite}").status_code == 200
    answer = client.post(seats_url, {"seat": "S"}, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["seat"] == "S"
    assert answer.json()["invite_url"] == f"/play/{table_id}/?invite={invite}"  # a player passes it on
    assert client.get(f"/play/{table_id}/").status_code == 200  # a reload without the query


def test_an_event_table_follows_the_events_access(api, make_user, organiser, make_event):
    """An event's table: watched by whoever sees the event (organisers any table), its
    seats given by the organisers, never taken by a link."""
    player, stranger = make_user("player"), make_user("stranger")
    event = make_event(published=False)
    game = tables.playable_game(variant=tables.variant_of(rules="short"))
    table = PlayTable.objects.create(rules="short", record=game.record(), phase=str(game.phase), created_by=None,
                                     event=event, round_number=1, table_number=1)
    PlaySeat.objects.bulk_create([PlaySeat(table=table, seat=s, user=player if s == "N" else None) for s in "NESW"])
    view_url, seats_url = f"/api/play/tables/{table.pk}/", f"/api/play/tables/{table.pk}/seats/"
    client_of(api, stranger)
    assert api.get(view_url, {"invite": table.invite}).status_code == 403  # unpublished: no link opens it
    assert api.post(seats_url, {"seat": "E", "invite": table.invite}, format="json").status_code == 403
    client_of(api, player)
    assert api.get(view_url).status_code == 200 and api.get(view_url).json()["invite_url"] is None
    client_of(api, organiser)
    assert api.get(view_url).status_code == 200
    assert api.post(seats_url, {"seat": "E", "username": "stranger"}, format="json").status_code == 202
    client_of(api, stranger)
    assert api.post(seats_url, {"seat": "E"}, format="json").json()["seat"] == "E"  # the offer accepted
    type(event).objects.filter(pk=event.pk).update(published=True)
    client_of(api, make_user("anyone"))
    assert api.get(view_url).status_code == 200  # a published event's tables are watched by all
