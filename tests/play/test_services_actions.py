"""Every way to cheat at an online table is refused (issue 14): playing for another seat,
out of turn, a card not held, reading another hand, a stale or replayed message."""
import random

import pytest
from django.contrib.auth.models import AnonymousUser

from drive.core.errors import Conflict, Forbidden, Invalid, NotFound
from drive.games.models import PlayAction
from drive.games.selectors.tables import game_of, hand_records, table_view
from drive.games.services import actions, tables
from engine import Phase, find_variant
from tests.play.core_kit import four_people, fresh, hidden_cards, robot_table, shown_cards

pytestmark = pytest.mark.django_db


def _turn(table, people):
    game = game_of(fresh(table))
    return game, people[game.to_act]


def test_a_legal_card_is_applied_and_raises_the_version(make_user):
    table, people = four_people(make_user)
    game, player = _turn(table, people)
    card = str(game.legal_actions()[0])
    view = actions.apply_action(user=player, table_id=table.pk, action=card, version=0)
    assert view["version"] == 1 and card not in view["hand"]
    assert view["trick"] == [{"seat": game.to_act, "card": card}]
    logged = PlayAction.objects.get(table=table)
    assert (logged.version, logged.seat, logged.action, logged.by_robot) == (1, game.to_act, card, False)


def test_playing_for_another_seat_is_forbidden(make_user):
    table, people = four_people(make_user)
    game, player = _turn(table, people)
    other = next(s for s in "NESW" if s != game.to_act)
    with pytest.raises(Forbidden):
        actions.apply_action(user=people[other], table_id=table.pk, action=str(game.legal_actions()[0]), version=0, seat=game.to_act)
    with pytest.raises(Forbidden):
        actions.apply_action(user=player, table_id=table.pk, action=str(game.legal_actions()[0]), version=0, seat=other)
    assert fresh(table).version == 0


def test_someone_without_a_seat_cannot_act(make_user):
    table, people = four_people(make_user)
    game, _player = _turn(table, people)
    for outsider in (make_user(), AnonymousUser()):
        with pytest.raises(Forbidden):
            actions.apply_action(user=outsider, table_id=table.pk, action=str(game.legal_actions()[0]), version=0)
    with pytest.raises(NotFound):
        actions.apply_action(user=people["N"], table_id=999_999, action="AS", version=0)


def test_out_of_turn_is_a_conflict(make_user):
    table, people = four_people(make_user)
    game, _player = _turn(table, people)
    other = next(s for s in "NESW" if s != game.to_act)
    card = game.view(other)["hand"][0]
    with pytest.raises(Conflict):
        actions.apply_action(user=people[other], table_id=table.pk, action=card, version=0)
    assert fresh(table).version == 0 and not PlayAction.objects.exists()


def test_a_card_not_held_is_refused_with_its_rule(make_user):
    table, people = four_people(make_user)
    game, player = _turn(table, people)
    someone_elses = game.view(next(s for s in "NESW" if s != game.to_act))["hand"][0]
    with pytest.raises(Invalid) as refused:
        actions.apply_action(user=player, table_id=table.pk, action=someone_elses, version=0)
    assert refused.value.extra["reason"] == "not_in_hand" and refused.value.extra["rule"]  # S5: the hand dealt
    for nonsense in ("", "ZZ", "pass" * 20, "discard", "4 sideways"):
        with pytest.raises(Invalid):
            actions.apply_action(user=player, table_id=table.pk, action=nonsense, version=0)
    assert fresh(table).version == 0


def test_a_revoke_is_refused_with_its_rule(make_user, monkeypatch):
    # a seeded shuffle, so the deal has a lead the second player can revoke on, every run
    monkeypatch.setattr(tables, "new_rng", lambda: random.Random(7))
    table, people = four_people(make_user)
    game, player = _turn(table, people)
    lead = next(str(a) for a in game.legal_actions() if _revokes_after(game, a))
    actions.apply_action(user=player, table_id=table.pk, action=lead, version=0)
    game, second = _turn(table, people)
    revokes = _revokes_after(game, None)
    assert revokes
    with pytest.raises(Invalid) as refused:
        actions.apply_action(user=second, table_id=table.pk, action=revokes[0], version=1)
    assert refused.value.extra["rule"].startswith("S6")


def _revokes_after(game, lead):
    """The cards the next seat holds but may not play once ``lead`` is played."""
    game = game.copy()
    if lead is not None:
        game.apply(lead)
    legal = {str(a) for a in game.legal_actions()}
    return [c for c in game.view(game.to_act)["hand"] if c not in legal]


def test_a_stale_version_is_a_conflict_and_a_replayed_message_is_applied_once(make_user):
    table, people = four_people(make_user)
    game, player = _turn(table, people)
    card = str(game.legal_actions()[0])
    first = actions.apply_action(user=player, table_id=table.pk, action=card, version=0)
    again = actions.apply_action(user=player, table_id=table.pk, action=card, version=0)  # the same message sent twice
    assert again["version"] == first["version"] == 1 and again["hand"] == first["hand"]
    assert PlayAction.objects.filter(table=table).count() == 1
    other = str(game.legal_actions()[1])
    with pytest.raises(Conflict) as stale:
        actions.apply_action(user=player, table_id=table.pk, action=other, version=0)  # another action from the old version
    assert stale.value.extra["version"] == 1
    game, nxt = _turn(table, people)
    with pytest.raises(Conflict):
        actions.apply_action(user=nxt, table_id=table.pk, action=str(game.legal_actions()[0]), version=0)  # its own action, stale
    with pytest.raises(Conflict):
        actions.apply_action(user=nxt, table_id=table.pk, action=str(game.legal_actions()[0]), version=7)  # from the future
    with pytest.raises(Conflict):
        actions.apply_action(user=nxt, table_id=table.pk, action=card, version=0)  # the first player's message replayed by another
    assert fresh(table).version == 1


def test_a_replay_after_the_robots_moved_on_is_still_applied_once(make_user, django_capture_on_commit_callbacks):
    me = make_user()
    table = robot_table(me, capture=django_capture_on_commit_callbacks)
    for _ in range(13):  # until robots answer N's card (N may win a trick it closes and lead again)
        view = table_view(me, fresh(table))
        card, version = view["legal"][0], view["version"]
        with django_capture_on_commit_callbacks(execute=True):
            actions.apply_action(user=me, table_id=table.pk, action=card, version=version)
        if fresh(table).version > version + 1:
            break
    assert fresh(table).version > version + 1
    mine = PlayAction.objects.filter(table=table, seat="N", by_robot=False).count()
    again = actions.apply_action(user=me, table_id=table.pk, action=card, version=version)
    assert again["version"] == fresh(table).version
    assert PlayAction.objects.filter(table=table, seat="N", by_robot=False).count() == mine


def test_nothing_is_played_once_the_game_is_over(make_user, django_capture_on_commit_callbacks):
    me = make_user()
    table = robot_table(me, "short", capture=django_capture_on_commit_callbacks)
    while not fresh(table).finished_at:
        view = table_view(me, fresh(table))
        with django_capture_on_commit_callbacks(execute=True):
            actions.apply_action(user=me, table_id=table.pk, action=view["legal"][0], version=view["version"])
    table = fresh(table)
    with pytest.raises(Conflict):
        actions.apply_action(user=me, table_id=table.pk, action="AS", version=table.version)
    assert game_of(table).phase == Phase.OVER


@pytest.mark.parametrize("rules", ["short", "bid", "siberian", "dummy", "prussian"])
def test_no_view_shows_a_card_its_reader_may_not_see(make_user, rules):
    people = {seat: make_user(f"{rules}-{seat}") for seat in "NESW"}
    table = tables.create_table(user=people["N"], rules=rules, robots={})
    seats = list(find_variant(rules).seats)  # N first: the creator's
    for seat in seats[1:]:
        tables.take_seat(user=people[seat], table_id=table.pk, seat=seat, invite=table.invite)
    for step in range(12):  # through the auction into the play
        table = fresh(table)
        for seat in seats:
            view = table_view(people[seat], table)
            assert view["seat"] == seat and set(view["hand"]) <= shown_cards(view)  # the check reads cards
            assert not shown_cards(view) & hidden_cards(table, seat), (rules, seat, step)
            assert view["legal"] == ([] if view["to_act"] != seat else view["legal"])
        watcher = table_view(make_user(), table)
        assert watcher["seat"] is None and watcher["hand"] == [] and watcher["legal"] == []
        everyone_hides = set.intersection(*(hidden_cards(table, s) for s in seats))
        assert not shown_cards(watcher) & everyone_hides
        game = game_of(table)
        if game.phase not in (Phase.AUCTION, Phase.EXCHANGE, Phase.PLAY):
            break
        actions.apply_action(user=people[game.to_act], table_id=table.pk, action=str(game.legal_actions()[0]), version=table.version)


def test_the_finished_hands_show_every_card_only_to_the_table_until_the_game_is_over(make_user):
    table, people = four_people(make_user, "rubber")  # no rubber is won in one hand
    for _ in range(52):
        game, player = _turn(table, people)
        actions.apply_action(user=player, table_id=table.pk, action=str(game.legal_actions()[0]), version=fresh(table).version)
    stranger = make_user()
    table = fresh(table)
    assert table_view(people["E"], table)["last_record"]["hands"]
    assert table_view(stranger, table)["last_record"] is None
    assert len(hand_records(table)) == 1
