"""Seats follow the people (issue 19): a table's creator or organiser fills only a seat
nobody present holds, never moves themselves in front of another person's cards, and a
person is seated only by accepting an offer, whose answer never tells whether a username
exists."""
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from drive.core.errors import Conflict, Forbidden
from drive.games.models import PlaySeat, PlayTable
from drive.games.selectors.tables import game_of, table_view
from drive.games.services import tables
from tests.play.core_kit import fresh, hidden_cards, shown_cards

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_with_bob(make_user):
    """A casual table: its creator at N, bob at E (here now), robots at S and W."""
    creator, bob = make_user("creator"), make_user("bob")
    table = tables.create_table(user=creator, rules="short", robots={"S": "rules", "W": "rules"}, seat="N")
    tables.take_seat(user=bob, table_id=table.pk, seat="E", invite=table.invite)
    return table, creator, bob


def seat(table, letter) -> PlaySeat:
    return PlaySeat.objects.get(table=table, seat=letter)


def silent(table, letter) -> None:
    """The seat's person was last seen before the table's timeout."""
    long_ago = timezone.now() - timedelta(seconds=table.timeout_seconds + 5)
    PlaySeat.objects.filter(table=table, seat=letter).update(last_seen=long_ago)


def secret_cards(table, letter) -> set[str]:
    """The cards of the seat no other seat sees (not the turned trump card, not a dummy)."""
    other = next(s for s in "NESW" if s != letter)
    return set(game_of(fresh(table)).view(letter)["hand"]) & hidden_cards(table, other)


def seats_url(table) -> str:
    return f"/api/play/tables/{table.pk}/seats/"


# --- the attack: the creator moves into a present player's seat ------------------------------


def test_the_creator_cannot_move_into_a_present_players_seat_nor_see_their_cards(api, table_with_bob):
    table, creator, bob = table_with_bob
    bobs_cards = secret_cards(table, "E")
    api.force_authenticate(creator)
    assert api.post(seats_url(table), {"seat": "N", "robot": "rules"}, format="json").status_code == 200  # leaves N
    moved = api.post(seats_url(table), {"seat": "E", "username": "creator"}, format="json")
    assert moved.status_code == 409  # bob is here: his seat is not the creator's to give
    assert api.post(seats_url(table), {"seat": "E"}, format="json").status_code == 409  # nor to take
    view = api.get(f"/api/play/tables/{table.pk}/").json()
    assert view["seat"] is None and view["hand"] == []
    assert not shown_cards(view) & bobs_cards
    assert seat(table, "E").user == bob and seat(table, "E").offered_to is None


def test_no_robot_is_put_in_a_present_players_seat(table_with_bob):
    table, creator, bob = table_with_bob
    with pytest.raises(Conflict):
        tables.seat_robot(user=creator, table_id=table.pk, seat="E", robot="rules")
    with pytest.raises(Conflict):
        tables.offer_seat(user=creator, table_id=table.pk, seat="E", username="someone")
    assert seat(table, "E").user == bob and not seat(table, "E").robot


@pytest.mark.parametrize("away", ["standin", "silent"])
def test_a_seat_whose_player_left_or_went_silent_gets_a_robot_and_never_shows_their_hand(table_with_bob, away):
    table, creator, bob = table_with_bob
    if away == "standin":
        PlaySeat.objects.filter(table=table, seat="E").update(standin=True)
    else:
        silent(table, "E")
    bobs_cards = secret_cards(table, "E")
    tables.seat_robot(user=creator, table_id=table.pk, seat="E", robot="rules")
    assert seat(table, "E").user is None and seat(table, "E").robot == "rules"
    for person in (creator, bob):
        view = table_view(person, fresh(table))
        assert not shown_cards(view) & bobs_cards
    assert table_view(bob, fresh(table))["seat"] is None


def test_a_seated_manager_takes_no_other_seat_even_an_empty_players(make_user, table_with_bob):
    table, creator, bob = table_with_bob
    silent(table, "E")
    with pytest.raises(Forbidden):
        tables.offer_seat(user=creator, table_id=table.pk, seat="E", username="creator")  # never to themselves
    tables.seat_robot(user=creator, table_id=table.pk, seat="N", robot="rules")  # they leave their own seat
    with pytest.raises(Forbidden):
        tables.offer_seat(user=creator, table_id=table.pk, seat="E", username="creator")
    PlaySeat.objects.filter(table=table, seat="E").update(offered_to=creator)  # however an offer got there
    with pytest.raises(Conflict):
        tables.take_seat(user=creator, table_id=table.pk, seat="E")  # a silent player's cards: not for a manager
    assert seat(table, "E").user == bob


# --- forced seating: a username gets an offer, never a seat ---------------------------------


def test_a_username_gets_an_offer_and_sits_only_by_accepting_it(api, make_user):
    creator, carol = make_user("creator"), make_user("carol")
    table = tables.create_table(user=creator, rules="short", robots={"S": "rules", "W": "rules"}, seat="N")
    api.force_authenticate(creator)
    offered = api.post(seats_url(table), {"seat": "E", "username": "carol"}, format="json")
    assert offered.status_code == 202
    assert offered.json() == {"detail": "If carol plays here, they were offered seat E.", "seat": "E"}
    assert seat(table, "E").user is None and seat(table, "E").offered_to == carol
    assert table_view(carol, fresh(table))["seat"] is None
    api.force_authenticate(carol)
    assert api.get(f"/api/play/tables/{table.pk}/").status_code == 200  # she may look before she accepts
    assert api.post(seats_url(table), {"seat": "S"}, format="json").status_code == 403  # only the seat offered
    taken = api.post(seats_url(table), {"seat": "E"}, format="json")  # no invitation needed
    assert taken.status_code == 200 and taken.json()["seat"] == "E"
    assert seat(table, "E").user == carol and seat(table, "E").offered_to is None


def test_a_stranger_neither_offers_a_seat_nor_watches_by_an_offer_to_someone_else(api, make_user):
    creator, carol, stranger = make_user("creator"), make_user("carol"), make_user("stranger")
    table = tables.create_table(user=creator, rules="short", robots={"S": "rules", "W": "rules"}, seat="N")
    with pytest.raises(Forbidden):
        tables.offer_seat(user=stranger, table_id=table.pk, seat="E", username="stranger")
    tables.offer_seat(user=creator, table_id=table.pk, seat="E", username="carol")
    api.force_authenticate(stranger)
    assert api.get(f"/api/play/tables/{table.pk}/").status_code == 403
    assert api.post(seats_url(table), {"seat": "E"}, format="json").status_code == 403


def test_an_offer_is_void_once_a_robot_or_someone_else_takes_the_seat(make_user):
    creator, carol, dan, eve = make_user("creator"), make_user("carol"), make_user("dan"), make_user("eve")
    table = tables.create_table(user=creator, rules="short", robots={"W": "rules"}, seat="N")
    tables.offer_seat(user=creator, table_id=table.pk, seat="E", username="carol")
    tables.seat_robot(user=creator, table_id=table.pk, seat="E", robot="rules")
    assert seat(table, "E").offered_to is None
    with pytest.raises(Forbidden):  # no longer offered to her
        tables.take_seat(user=carol, table_id=table.pk, seat="E")
    tables.offer_seat(user=creator, table_id=table.pk, seat="S", username="dan")
    tables.take_seat(user=eve, table_id=table.pk, seat="S", invite=table.invite)
    assert seat(table, "S").offered_to is None
    with pytest.raises(Forbidden):
        tables.take_seat(user=dan, table_id=table.pk, seat="S")
    assert seat(table, "S").user == eve


def test_an_offer_cannot_be_accepted_once_the_seats_player_is_back(table_with_bob, make_user):
    table, creator, bob = table_with_bob
    carol = make_user("carol")
    silent(table, "E")
    tables.offer_seat(user=creator, table_id=table.pk, seat="E", username="carol")
    PlaySeat.objects.filter(table=table, seat="E").update(last_seen=timezone.now())  # bob plays again
    with pytest.raises(Conflict):
        tables.take_seat(user=carol, table_id=table.pk, seat="E")
    assert seat(table, "E").user == bob
    silent(table, "E")
    tables.take_seat(user=bob, table_id=table.pk, seat="E")  # bob back by his own request: the old offer goes
    assert seat(table, "E").offered_to is None


# --- the username oracle --------------------------------------------------------------------


def test_the_answer_is_the_same_whether_or_not_the_username_exists(api, make_user):
    creator = make_user("creator")
    make_user("carol")
    table = tables.create_table(user=creator, rules="short", robots={"S": "rules", "W": "rules"}, seat="N")
    api.force_authenticate(creator)
    answers = {}
    for name in ("carol", "no-such-person", "carol", "no-such-person"):
        with CaptureQueriesContext(connection) as queries:
            answer = api.post(seats_url(table), {"seat": "E", "username": name}, format="json")
        body = {k: v.replace(name, "NAME") if isinstance(v, str) else v for k, v in answer.json().items()}
        answers.setdefault(name, set()).add((answer.status_code, str(sorted(body.items())), len(queries)))
        view = api.get(f"/api/play/tables/{table.pk}/").json()
        assert [p for p in view["players"] if p["seat"] == "E"] == [
            {"seat": "E", "name": "", "robot": "", "standin": False, "open": True}]
    assert len(answers["carol"]) == 1 and answers["carol"] == answers["no-such-person"]
    assert next(iter(answers["carol"]))[0] == 202


# --- the offers on the pages ------------------------------------------------------------------


def test_the_person_offered_a_seat_sees_it_in_the_lobby_and_on_the_table_and_accepts(client, make_user):
    creator, carol = make_user("creator"), make_user("carol")
    table = tables.create_table(user=creator, rules="short", robots={"S": "rules", "W": "rules"}, seat="N")
    tables.offer_seat(user=creator, table_id=table.pk, seat="E", username="carol")
    client.force_login(carol)
    lobby = client.get("/play/").content.decode()
    assert "Seats offered to you" in lobby and f'action="/play/{table.pk}/seat/"' in lobby
    page = client.get(f"/play/{table.pk}/")  # no invitation: the offer opens the page
    assert page.status_code == 200 and "Seat E is offered to you." in page.content.decode()
    accepted = client.post(f"/play/{table.pk}/seat/", {"seat": "E", "from": "lobby"})
    assert accepted.status_code == 302 and accepted["Location"] == f"/play/{table.pk}/"
    assert seat(table, "E").user == carol
    assert "Seats offered to you" not in client.get("/play/").content.decode()


def test_an_offer_refused_on_acceptance_says_why_in_the_lobby(client, table_with_bob, make_user):
    table, creator, bob = table_with_bob
    carol = make_user("carol")
    silent(table, "E")
    tables.offer_seat(user=creator, table_id=table.pk, seat="E", username="carol")
    PlaySeat.objects.filter(table=table, seat="E").update(last_seen=timezone.now())  # bob is back
    client.force_login(carol)
    refused = client.post(f"/play/{table.pk}/seat/", {"seat": "E", "from": "lobby"}, follow=True)
    assert refused.redirect_chain[-1][0] == "/play/" and "Seat E is taken." in refused.content.decode()
    assert not PlayTable.objects.filter(seats__user=carol).exists()
