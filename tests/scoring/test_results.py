"""Result entry from the tables: validation, cross-checks, idempotence, corrections with history."""
import pytest

from drive.core.errors import Conflict, Forbidden, Invalid
from drive.scoring.services import results
from drive.scoring.selectors import rounds as round_selectors
from drive.scoring.selectors import table as table_selectors
from drive.scoring.models import HandResult
from tests import seats

pytestmark = pytest.mark.django_db
Status = HandResult.Status


def submit(table, seat, hand, ns, trump="H"):
    return seats.enter(table=table, seat=seat, hand_number=hand, ns_tricks=ns, trump=trump)


def test_entry_then_confirmation_by_the_opponents(table1):
    result, outcome = submit(table1, "N", 1, 8)
    assert outcome == "created" and result.status == Status.ENTERED and result.ew_tricks == 5
    assert submit(table1, "S", 1, 8)[1] == "unchanged"  # partner's repeat changes nothing
    result, outcome = submit(table1, "E", 1, 8)
    assert outcome == "confirmed" and result.status == Status.CONFIRMED and result.confirmed_by == "E"
    assert submit(table1, "W", 1, 8)[1] == "unchanged"  # idempotent


def test_disagreement_flags_the_hand(table1):
    submit(table1, "N", 1, 8)
    result, outcome = submit(table1, "E", 1, 6)
    assert outcome == "disputed" and result.status == Status.DISPUTED
    assert result.ns_tricks == 8 and result.disputed_ns_tricks == 6  # nothing stored is lost
    with pytest.raises(Conflict):
        submit(table1, "N", 1, 7)


def test_same_side_may_fix_its_unconfirmed_entry(table1):
    first, _ = submit(table1, "N", 1, 8)
    result, outcome = seats.enter(table=table1, seat="S", hand_number=1, ns_tricks=9, trump="H",
                                  expected_version=first.version)
    assert outcome == "updated" and result.ns_tricks == 9 and result.version == 2


def test_partners_typing_different_counts_at_once_get_a_conflict(table1):
    submit(table1, "N", 1, 8)
    with pytest.raises(Conflict) as err:  # S had not seen N's entry: nothing is overwritten unseen
        submit(table1, "S", 1, 9)
    assert err.value.extra["stored"]["ns_tricks"] == 8
    assert HandResult.objects.get(hand_number=1).ns_tricks == 8


def test_single_entry_confirms_at_once(table1, evening):
    evening.result_confirmation = "single"
    evening.save()
    result, outcome = submit(table1, "W", 2, 4)
    assert outcome == "confirmed" and result.status == Status.CONFIRMED


def test_confirmed_round_is_locked_for_players(table1):
    for hand in (1, 2):
        submit(table1, "N", hand, 7)
        submit(table1, "E", hand, 7)
    with pytest.raises(Conflict, match="locked"):
        submit(table1, "N", 1, 9)


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"ns_tricks": 14}, "ns_tricks"),
        ({"ns_tricks": -1}, "ns_tricks"),
        ({"ns_tricks": "7"}, "ns_tricks"),
        ({"ns_tricks": True}, "ns_tricks"),
        ({"hand_number": 3}, "hand_number"),
        ({"hand_number": 0}, "hand_number"),
        ({"seat": "X"}, "seat"),
        ({"trump": "NT"}, "trump"),
        ({"trump": None}, "trump"),
    ],
)
def test_bad_entries_are_refused_with_the_field(table1, fields, field):
    args = {"seat": "N", "hand_number": 1, "ns_tricks": 7, "trump": "H", **fields}
    with pytest.raises(Invalid) as err:
        results.submit_result(table=table1, claim=seats.claim(table1, "N"), **args)
    assert err.value.field == field
    assert not HandResult.objects.exists()


def test_rotation_fixes_the_trump(table1, evening):
    evening.trump_rule = "rotation"
    evening.save()
    assert submit(table1, "N", 1, 7, trump=None)[0].trump == "H"  # rule D2: hearts first
    assert submit(table1, "N", 2, 7, trump=None)[0].trump == "D"
    with pytest.raises(Invalid):
        submit(table1, "E", 1, 7, trump="S")


def test_bad_token_is_not_found():
    from drive.core.errors import NotFound

    with pytest.raises(NotFound):
        table_selectors.table_by_token("nope")


def test_organiser_correction_keeps_history(table1, organiser):
    submit(table1, "N", 1, 8)
    submit(table1, "E", 1, 6)
    result = results.correct_result(actor=organiser, table=table1, round_number=1, hand_number=1, ns_tricks=7,
                                    reason="Both cards re-counted")
    assert result.status == Status.CONFIRMED and result.ns_tricks == 7 and result.change_kind == "correction"
    history = list(result.history.order_by("history_date"))
    assert [h.ns_tricks for h in history] == [8, 8, 7]
    assert history[-1].history_change_reason == "Both cards re-counted" and history[-1].history_user == organiser


@pytest.mark.parametrize("seat", ["N", "E"])
def test_a_hand_the_organiser_set_before_the_table_entered_it_stays_theirs(table1, organiser, seat):
    """The organiser entered hand 1 before either side (nobody at the table entered it): a
    player's entry then is the same count (nothing changes) or a conflict naming the stored
    count, never a dispute of the organiser's word nor a server error."""
    results.correct_result(actor=organiser, table=table1, round_number=1, hand_number=1, ns_tricks=7,
                           trump="H", reason="Entered from the score card")
    assert submit(table1, seat, 1, 7)[1] == "unchanged"
    with pytest.raises(Conflict) as err:
        submit(table1, seat, 1, 9)
    assert err.value.extra["stored"]["ns_tricks"] == 7
    stored = HandResult.objects.get(hand_number=1)
    assert (stored.status, stored.ns_tricks, stored.disputed_ns_tricks) == (Status.CONFIRMED, 7, None)


def test_correction_needs_a_reason_and_an_organiser(table1, organiser, make_user):
    submit(table1, "N", 1, 8)
    with pytest.raises(Invalid) as err:
        results.correct_result(actor=organiser, table=table1, round_number=1, hand_number=1, ns_tricks=7, reason=" ")
    assert err.value.field == "reason"
    with pytest.raises(Forbidden):
        results.correct_result(actor=make_user(), table=table1, round_number=1, hand_number=1, ns_tricks=7, reason="x")


def test_stale_correction_is_a_conflict_with_stored_values(table1, organiser):
    result, _ = submit(table1, "N", 1, 8)
    with pytest.raises(Conflict) as err:
        results.correct_result(actor=organiser, table=table1, round_number=1, hand_number=1, ns_tricks=7,
                               reason="r", expected_version=result.version + 5)
    assert err.value.extra["stored"]["ns_tricks"] == 8


def test_revoke_penalty_moves_three_tricks(table1, organiser):
    submit(table1, "N", 1, 8)
    result = results.apply_revoke_penalty(actor=organiser, table=table1, round_number=1, hand_number=1,
                                          offending_side="NS", reason="revoke in trick 5")  # rule L8
    assert result.ns_tricks == 5 and result.change_kind == "revoke"


def test_tables_out(evening, table1):
    round_ = evening.evening_rounds.get(number=1)
    assert round_selectors.tables_out(round_) == [1, 2]
    for hand in (1, 2):
        submit(table1, "N", hand, 7)
        submit(table1, "E", hand, 7)
    assert round_selectors.tables_out(round_) == [2]


@pytest.mark.parametrize("token", ["", "short", "a\x00" * 10, "x" * 65])
def test_malformed_tokens_are_not_found(token):
    from drive.core.errors import NotFound

    with pytest.raises(NotFound):
        table_selectors.table_by_token(token)


def test_overlong_correction_reason_is_refused(table1, organiser):
    submit(table1, "N", 1, 8)
    with pytest.raises(Invalid) as err:
        results.correct_result(actor=organiser, table=table1, round_number=1, hand_number=1, ns_tricks=7, reason="x" * 101)
    assert err.value.field == "reason"
