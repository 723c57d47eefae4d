"""The lobby a whist player would choose (issue 20, "One tap to play"): a quick game of every
preset in one tap, and public casual tables whose open seats anyone signed in may take
without the invitation link; a private table still needs it, an evening's table is never
listed, nor a finished, closed or full one, nor the viewer's own."""
import re
from datetime import timedelta
from html import unescape

import pytest
from django.test import Client
from django.utils import timezone

from drive.core.errors import Conflict, Forbidden, TooMany
from drive.games.models import PlayTable
from drive.games.selectors.tables import open_public_tables
from drive.games.services import tables
from drive.scoring.services import online_tables as evening
from drive.play.views.presets import labels
from drive.scoring.services import evening as ev
from engine import VARIANTS
from tests.play.evening_kit import seated_evening

pytestmark = pytest.mark.django_db

OPEN_E = {"S": "rules", "W": "rules"}  # N the creator's, E open


def signed_in(user, language="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def listed(user):
    return [(found.table.pk, found.seats) for found in open_public_tables(user)]


@pytest.fixture
def ann(make_user):
    return make_user("ann", first_name="Ann", last_name="Host")


@pytest.fixture
def public(ann):
    return tables.create_table(user=ann, rules="short", robots=OPEN_E, public=True)


# --- services: who may take a public table's seat -------------------------------------------


def test_a_table_is_private_unless_made_public(ann):
    assert tables.create_table(user=ann, rules="short", robots=OPEN_E).public is False
    assert tables.create_table(user=ann, rules="short", robots=OPEN_E, public=True).public is True


def test_anyone_signed_in_takes_a_public_tables_open_seat_without_the_link(public, make_user):
    bob = make_user("bob")
    tables.take_seat(user=bob, table_id=public.pk, seat="E")
    assert public.seats.get(seat="E").user == bob


def test_a_private_table_still_needs_its_invitation(ann, make_user):
    private = tables.create_table(user=ann, rules="short", robots=OPEN_E)
    bob = make_user("bob")
    with pytest.raises(Forbidden):
        tables.take_seat(user=bob, table_id=private.pk, seat="E")
    with pytest.raises(Forbidden):
        tables.take_seat(user=bob, table_id=private.pk, seat="E", invite="not-the-invite")
    assert private.seats.get(seat="E").user is None
    tables.take_seat(user=bob, table_id=private.pk, seat="E", invite=private.invite)  # the link still works
    assert private.seats.get(seat="E").user == bob


def test_nobody_signed_in_takes_a_public_seat(public):
    from django.contrib.auth.models import AnonymousUser
    with pytest.raises(Forbidden):
        tables.take_seat(user=AnonymousUser(), table_id=public.pk, seat="E")


def test_a_public_tables_taken_or_robot_seat_is_refused(ann, make_user):
    table = tables.create_table(user=ann, rules="short", robots={"W": "rules"}, public=True)  # E and S open
    bob = make_user("bob")
    tables.take_seat(user=bob, table_id=table.pk, seat="E")
    with pytest.raises(Conflict):
        tables.take_seat(user=make_user("cy"), table_id=table.pk, seat="E")
    with pytest.raises(Conflict):
        tables.take_seat(user=make_user("dee"), table_id=table.pk, seat="W")  # a robot's
    with pytest.raises(Conflict):  # one person, one seat
        tables.take_seat(user=bob, table_id=table.pk, seat="S")
    assert table.seats.get(seat="S").user is None


def test_a_closed_public_table_is_not_joined(public, ann, make_user):
    tables.close_table(user=ann, table_id=public.pk)
    with pytest.raises(Conflict):
        tables.take_seat(user=make_user("bob"), table_id=public.pk, seat="E")


def test_who_left_a_public_tables_seat_sits_again_only_there(ann, make_user):
    table = tables.create_table(user=ann, rules="short", robots={"W": "rules"}, public=True)  # E and S open
    bob = make_user("bob")
    tables.take_seat(user=bob, table_id=table.pk, seat="E")
    table.seats.filter(seat="E").update(last_seen=timezone.now() - timedelta(hours=1))  # bob went silent
    tables.seat_robot(user=ann, table_id=table.pk, seat="E", robot="rules")  # bob is out: he has seen E's cards
    assert listed(bob) == []  # S is open, but not his to take; E is a robot's
    with pytest.raises(Conflict):
        tables.take_seat(user=bob, table_id=table.pk, seat="S")
    assert listed(make_user("cy")) == [(table.pk, ["S"])]


def test_joining_public_tables_is_limited_like_opening_them(settings, make_user):
    settings.PLAY_TABLES_ALIVE_PER_USER = 2
    hosts = [make_user(f"host{i}") for i in range(3)]
    open_ones = [tables.create_table(user=host, rules="short", robots=OPEN_E, public=True) for host in hosts]
    bob = make_user("bob")
    tables.take_seat(user=bob, table_id=open_ones[0].pk, seat="E")
    tables.take_seat(user=bob, table_id=open_ones[1].pk, seat="E")
    with pytest.raises(TooMany):
        tables.take_seat(user=bob, table_id=open_ones[2].pk, seat="E")
    assert open_ones[2].seats.get(seat="E").user is None
    tables.take_seat(user=bob, table_id=open_ones[2].pk, seat="E", invite=open_ones[2].invite)  # by the link: an invitation, not a limit


def test_opening_a_public_table_keeps_the_limits(settings, ann):
    settings.PLAY_TABLES_ALIVE_PER_USER = 1
    tables.create_table(user=ann, rules="short", robots=OPEN_E, public=True)
    with pytest.raises(TooMany):
        tables.create_table(user=ann, rules="short", robots=OPEN_E, public=True)


# --- the list of public tables with open seats -------------------------------------------


def test_the_list_has_public_tables_with_an_open_seat_newest_first(ann, make_user):
    older = tables.create_table(user=ann, rules="short", robots={"W": "rules"}, public=True)  # E and S open
    newer = tables.create_table(user=ann, rules="bid", robots=OPEN_E, public=True)
    tables.create_table(user=ann, rules="short", robots=OPEN_E)  # private
    tables.create_table(user=ann, rules="short", robots={"E": "rules", "S": "rules", "W": "rules"}, public=True)  # full
    assert listed(make_user("bob")) == [(newer.pk, ["E"]), (older.pk, ["E", "S"])]


def test_a_full_table_leaves_the_list(public, make_user):
    bob, cy = make_user("bob"), make_user("cy")
    assert listed(cy) == [(public.pk, ["E"])]
    tables.take_seat(user=bob, table_id=public.pk, seat="E")
    assert listed(cy) == []


def test_the_viewers_own_tables_are_not_offered(public, ann, make_user):
    assert listed(ann) == []  # created and sat at
    bob = make_user("bob")
    two_open = tables.create_table(user=ann, rules="short", robots={"W": "rules"}, public=True)
    tables.take_seat(user=bob, table_id=two_open.pk, seat="E")
    assert listed(bob) == [(public.pk, ["E"])]  # he sits at two_open already: not offered it


def test_finished_and_closed_tables_are_not_listed(public, ann, make_user):
    finished = tables.create_table(user=make_user("cy"), rules="short", robots=OPEN_E, public=True)
    PlayTable.objects.filter(pk=finished.pk).update(phase=PlayTable.Phase.OVER, finished_at="2026-01-01T00:00Z")
    tables.close_table(user=ann, table_id=public.pk)
    assert listed(make_user("bob")) == []


def test_an_evenings_tables_are_never_listed(make_event, organiser, make_user, django_capture_on_commit_callbacks):
    event = seated_evening(make_event)
    evening.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[1])
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_round(actor=organiser, event=event)
    online = PlayTable.objects.get(event=event, table_number=1)
    online.public = True  # even marked public (the admin): an evening's seats are the organisers'
    online.save(update_fields=["public"])
    online.seats.update(user=None, robot="")
    assert listed(make_user("bob")) == []
    with pytest.raises(Forbidden):
        tables.take_seat(user=make_user("cy"), table_id=online.pk, seat="N")


def test_the_list_keeps_to_the_newest_twenty(make_user):
    hosts = [make_user(f"host{i}") for i in range(23)]
    made = [tables.create_table(user=host, rules="short", robots=OPEN_E, public=True) for host in hosts]
    shown = listed(make_user("bob"))
    assert [pk for pk, _seats in shown] == [t.pk for t in reversed(made)][:20]


# --- the lobby page -------------------------------------------------------------------------


def forms_of(page: str, css: str) -> list[tuple[dict, str, dict]]:
    """(attributes, button text, fields) of each form with this class."""
    found = []
    for form in re.findall(r"<form\b[^>]*>.*?</form>", page, flags=re.S):
        head = re.match(r"<form\b([^>]*)>", form).group(1)
        attributes = dict(re.findall(r'([\w-]+)="([^"]*)"', head))
        if attributes.get("class") != css:
            continue
        button = unescape(re.search(r"<button[^>]*>(.*?)</button>", form, flags=re.S).group(1).strip())
        fields = dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form))
        found.append((attributes, button, fields))
    return found


def test_the_lobby_has_one_quick_game_per_preset_named_by_its_label(make_user):
    page = signed_in(make_user()).get("/play/").content.decode()
    quick = forms_of(page, "quick-game")
    by_players = [name for count in (4, 3, 2) for name in VARIANTS if len(VARIANTS[name].seats) == count]
    assert [a["data-rules"] for a, _b, _f in quick] == by_players  # four players first, then three, then two
    assert len(quick) == len(VARIANTS) == 24
    names = labels()
    for attributes, button, fields in quick:
        assert attributes["method"] == "post" and button == names[attributes["data-rules"]]
        assert fields["rules"] == attributes["data-rules"]
    assert "<details" not in page  # every game in one tap: none behind a disclosure


def test_the_home_page_has_play_now_as_the_quick_game_of_short_whist(client):
    quick = forms_of(client.get("/").content.decode(), "quick-game")
    assert [(a["data-rules"], b) for a, b, _f in quick] == [("short", "Play now")]


@pytest.mark.parametrize("rules, robots", [("bid", {"E": "rules", "S": "rules", "W": "rules"}),
                                           ("dummy", {"E": "rules", "S": "rules"}),
                                           ("two_handed", {"E": "rules"}), ("prussian", {"S": "rules"})])
def test_a_quick_game_opens_the_preset_with_rules_robots_and_the_player_first(make_user, rules, robots):
    me = make_user()
    client = signed_in(me)
    quick = {a["data-rules"]: f for a, _b, f in forms_of(client.get("/play/").content.decode(), "quick-game")}
    answer = client.post("/play/", quick[rules])
    table = PlayTable.objects.get(created_by=me)
    assert answer.status_code == 302 and answer["Location"] == f"/play/{table.pk}/"
    first = VARIANTS[rules].seats[0]
    assert {s.seat: (s.user_id, s.robot) for s in table.seats.all()} == {
        first: (me.pk, ""), **{seat: (None, kind) for seat, kind in robots.items()}}
    assert table.rules == rules and table.public is False and table.event_id is None


def test_a_quick_game_past_a_limit_answers_429_with_its_sentence(settings, make_user):
    settings.PLAY_TABLES_ALIVE_PER_USER = 1
    me = make_user()
    client = signed_in(me)
    quick = {a["data-rules"]: f for a, _b, f in forms_of(client.get("/play/").content.decode(), "quick-game")}
    assert client.post("/play/", quick["bid"]).status_code == 302
    refused = client.post("/play/", quick["siberian"])
    assert refused.status_code == 429 and "unfinished tables allowed (1)" in refused.content.decode()
    assert PlayTable.objects.filter(created_by=me).count() == 1


def test_the_new_table_form_makes_a_public_table(make_user):
    me = make_user()
    client = signed_in(me)
    page = client.get("/play/").content.decode()
    assert 'name="public"' in page and "Anyone may join" in page
    client.post("/play/", {"rules": "short", "robot_E": "", "robot_S": "rules", "robot_W": "rules", "public": "1"})
    client.post("/play/", {"rules": "short", "robot_E": "", "robot_S": "rules", "robot_W": "rules"})
    assert sorted(PlayTable.objects.values_list("public", flat=True)) == [False, True]


def test_the_lobby_lists_a_public_table_and_seats_a_stranger_in_one_tap(public, make_user):
    bob = make_user("bob")
    client = signed_in(bob)
    page = client.get("/play/").content.decode()
    assert "Short whist, to 5 points" in page and "Ann Host" in page
    sit = re.search(r'<form method="post" action="(/play/%d/seat/)">.*?name="seat" value="(\w)".*?'
                    r'<button type="submit">Sit at E</button>' % public.pk, page, flags=re.S)
    assert sit and sit.group(2) == "E"
    answer = client.post(sit.group(1), {"seat": "E", "from": "lobby"})
    assert answer.status_code == 302 and answer["Location"] == f"/play/{public.pk}/"
    assert public.seats.get(seat="E").user == bob
    assert client.get(answer["Location"]).status_code == 200  # seated: the table is his to see
    assert f'action="/play/{public.pk}/seat/"' not in client.get("/play/").content.decode()


def test_a_seat_taken_meanwhile_is_refused_back_in_the_lobby(public, make_user):
    late = signed_in(make_user("late"))
    tables.take_seat(user=make_user("bob"), table_id=public.pk, seat="E")
    refused = late.post(f"/play/{public.pk}/seat/", {"seat": "E", "from": "lobby"}, follow=True)
    assert refused.redirect_chain[-1][0] == "/play/" and "Seat E is taken." in refused.content.decode()


def test_the_lobby_does_not_offer_a_private_table(ann, make_user):
    tables.create_table(user=ann, rules="short", robots=OPEN_E)
    page = signed_in(make_user("bob")).get("/play/").content.decode()
    assert "Sit at" not in page and "Ann Host" not in page


@pytest.mark.parametrize("language, words", [
    ("ru", ["Сесть может любой", "Четыре игрока", "Сесть на место В", "Столы ждут игроков", "хозяин: Ann Host"]),
    ("uk", ["Сісти може будь-хто", "Чотири гравці", "Сісти на місце Сх", "Столи чекають на гравців"])])
def test_the_lobby_speaks_the_readers_language(public, make_user, language, words):
    page = signed_in(make_user("bob"), language).get("/play/").content.decode()
    missing = [word for word in words if word not in page]
    assert not missing
    for english in ("Anyone may join", "Four players", "Tables waiting for players", "opened by"):
        assert english not in page


# --- the API ----------------------------------------------------------------------------------


def test_the_api_makes_a_public_table_and_lists_it(api, ann, make_user):
    api.force_authenticate(ann)
    made = api.post("/api/play/tables/", {"rules": "bid", "robots": OPEN_E, "public": True}, format="json")
    assert made.status_code == 201
    table = PlayTable.objects.get(pk=made.json()["id"])
    assert table.public is True
    private = api.post("/api/play/tables/", {"rules": "bid", "robots": OPEN_E}, format="json").json()
    assert PlayTable.objects.get(pk=private["id"]).public is False
    assert api.get("/api/play/tables/open/").json() == []  # her own
    bob = make_user("bob")
    api.force_authenticate(bob)
    rows = api.get("/api/play/tables/open/").json()
    assert [(r["id"], r["rules"], r["open_seats"], r["created_by"]) for r in rows] == [
        (table.pk, "bid", ["E"], "Ann Host")]
    assert rows[0]["seats_url"] == f"/api/play/tables/{table.pk}/seats/" and rows[0]["url"] == f"/play/{table.pk}/"
    assert [(p["seat"], p["open"], p["robot"]) for p in rows[0]["players"]] == [
        ("N", False, ""), ("E", True, ""), ("S", False, "rules"), ("W", False, "rules")]
    taken = api.post(rows[0]["seats_url"], {"seat": "E"}, format="json")  # no invitation
    assert taken.status_code == 200 and taken.json()["seat"] == "E"
    assert api.get("/api/play/tables/open/").json() == []
    refused = api.post(f"/api/play/tables/{private['id']}/seats/", {"seat": "E"}, format="json")
    assert refused.status_code == 403


def test_the_api_refuses_a_public_flag_that_is_no_boolean(api, ann):
    api.force_authenticate(ann)
    refused = api.post("/api/play/tables/", {"rules": "short", "public": "perhaps"}, format="json")
    assert refused.status_code == 400 and "public" in refused.json()
    assert not PlayTable.objects.exists()


def test_the_open_tables_need_a_signed_in_caller(api, public):
    assert api.get("/api/play/tables/open/").status_code == 403


def test_the_schema_documents_the_open_tables_and_the_public_flag(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    spec = schema.json()
    operation = spec["paths"]["/api/play/tables/open/"]["get"]
    assert set(operation["responses"]) >= {"200", "403"}
    created = spec["paths"]["/api/play/tables/"]["post"]
    body = created["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert spec["components"]["schemas"][body]["properties"]["public"]["type"] == "boolean"
