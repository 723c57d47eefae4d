"""Nobody sees two hands of one game (issue 19): a person who leaves a seat (a robot put
in it, or it taken on an offer while they were away) has seen its cards, so at that table
they may sit again only there, whoever invites or offers them another seat."""
import pytest

from drive.core.errors import Conflict
from drive.games.selectors.tables import table_view
from drive.games.services import tables
from tests.play.core_kit import fresh
from tests.play.test_seat_offers import seat, silent, table_with_bob  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def test_a_player_replaced_by_a_robot_is_not_offered_another_hand(table_with_bob):
    table, creator, bob = table_with_bob
    silent(table, "E")
    tables.seat_robot(user=creator, table_id=table.pk, seat="E", robot="rules")  # bob, away, leaves E: he saw E's cards
    tables.seat_robot(user=creator, table_id=table.pk, seat="W", robot="rules")
    tables.offer_seat(user=creator, table_id=table.pk, seat="W", username="bob")
    with pytest.raises(Conflict, match="you may sit again only there"):
        tables.take_seat(user=bob, table_id=table.pk, seat="W")
    assert seat(table, "W").user is None and table_view(bob, fresh(table))["seat"] is None
    tables.offer_seat(user=creator, table_id=table.pk, seat="E", username="bob")
    tables.take_seat(user=bob, table_id=table.pk, seat="E")  # his own seat again: the cards he saw
    assert seat(table, "E").user == bob


def test_a_player_whose_seat_was_taken_on_an_offer_cannot_take_an_open_one(make_user, table_with_bob):
    table, creator, bob = table_with_bob
    carol = make_user("carol")
    silent(table, "E")
    tables.offer_seat(user=creator, table_id=table.pk, seat="E", username="carol")
    tables.take_seat(user=carol, table_id=table.pk, seat="E")  # bob was away: carol sits at E
    tables.seat_robot(user=creator, table_id=table.pk, seat="S", robot="rules")
    tables.seat_robot(user=creator, table_id=table.pk, seat="S", robot="rules")
    tables.seat_robot(user=creator, table_id=table.pk, seat="W", robot="rules")
    with pytest.raises(Conflict):
        tables.take_seat(user=bob, table_id=table.pk, seat="E", invite=table.invite)  # taken by carol
    open_w = seat(table, "W")
    open_w.robot = ""
    open_w.save()
    with pytest.raises(Conflict, match="only there"):
        tables.take_seat(user=bob, table_id=table.pk, seat="W", invite=table.invite)  # an open seat by the invitation: still not
    assert seat(table, "W").user is None


def test_the_creator_leaving_their_seat_for_a_robot_cannot_sit_elsewhere(make_user):
    creator = make_user("creator")
    table = tables.create_table(user=creator, rules="short", robots={"S": "rules", "W": "rules"}, seat="N")  # E open
    tables.seat_robot(user=creator, table_id=table.pk, seat="N", robot="rules")  # leaves N: saw its cards
    with pytest.raises(Conflict, match="only there"):
        tables.take_seat(user=creator, table_id=table.pk, seat="E", invite=table.invite)
    assert seat(table, "E").user is None
