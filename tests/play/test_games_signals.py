"""The online tables (drive.games) say what happened through Django signals and know
nothing of who listens: a hand scored (`hand_finished`, each side's tricks and the trump)
and a game over (`table_finished`), at a casual table as at an evening's."""
import pytest

from drive.games.models import PlayTable
from drive.games.signals import hand_finished, table_finished
from drive.games.selectors.tables import table_view
from drive.games.services import actions
from drive.scoring.models import HandResult
from drive.scoring.services import evening as ev
from drive.scoring.services import online_tables

from .core_kit import TWO_HAND_GAME, fresh, robot_table
from .evening_kit import play_hand, seated_evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    said = []

    def hand(sender, **kwargs):
        said.append(("hand", sender, kwargs))

    def over(sender, **kwargs):
        said.append(("over", sender, kwargs))

    hand_finished.connect(hand, dispatch_uid="test.hand")
    table_finished.connect(over, dispatch_uid="test.over")
    yield said
    hand_finished.disconnect(dispatch_uid="test.hand")
    table_finished.disconnect(dispatch_uid="test.over")


def test_a_casual_game_tells_each_hand_and_its_end(make_user, django_capture_on_commit_callbacks, heard, seeded_deals):
    seeded_deals(TWO_HAND_GAME)
    me = make_user("signals")
    table = robot_table(me, capture=django_capture_on_commit_callbacks)
    while not fresh(table).finished_at:
        view = table_view(me, fresh(table))
        with django_capture_on_commit_callbacks(execute=True):
            actions.apply_action(user=me, table_id=table.pk, action=view["legal"][0], version=view["version"])
    hands = [kwargs for kind, _sender, kwargs in heard if kind == "hand"]
    overs = [kwargs for kind, _sender, kwargs in heard if kind == "over"]
    assert [h["hand"] for h in hands] == list(range(1, len(hands) + 1)) and len(hands) >= 1
    assert all(sum(h["tricks"].values()) == 13 and not h["by_robots"] and not h["stood_in"] for h in hands)
    assert [o["table"].pk for o in overs] == [table.pk]
    assert all(sender is PlayTable for _kind, sender, _kwargs in heard)
    assert not HandResult.objects.exists()  # a casual table: nothing of an evening's


def test_an_evening_hand_is_told_and_counted(make_event, organiser, heard):
    event = seated_evening(make_event)
    online_tables.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[1])
    ev.start_round(actor=organiser, event=event)
    table = PlayTable.objects.get(event=event, table_number=1)
    play_hand(table)
    (kind, _sender, told), = [said for said in heard if said[0] == "hand"]
    result = HandResult.objects.get(round__event=event, table__number=1, hand_number=1)
    assert told["table"].pk == table.pk and told["hand"] == 1
    assert result.ns_tricks == told["tricks"]["NS"] and result.status == HandResult.Status.CONFIRMED
