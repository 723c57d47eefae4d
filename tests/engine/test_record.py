import random

import pytest

from engine.cards import CardError
from engine.deal import deal, new_rng
from engine.play import HandState, IllegalPlay
from engine.record import BadDeal, RecordError, parse_record, replay, to_record
from engine.rules import preset
from engine.validate import ResultError, check_record, validate_result, validate_tricks


def record(seed=1, plays=52, rules="short", dealer=0, hand_number=0):
    r = preset(rules)
    rng = new_rng(seed)
    st = HandState.from_deal(deal(dealer, rng, r, hand_number))
    for _ in range(plays):
        moves = st.legal_moves()
        st.play(moves[rng.randrange(len(moves))])
    return to_record(st, r, hand_number=hand_number), st


def test_record_round_trip_and_replay():
    rec, st = record()
    assert replay(rec) == st
    assert rec["result"] == {"NS": st.tricks[0], "EW": st.tricks[1]}
    assert to_record(replay(rec), preset("short")) == rec


def test_record_with_rotation_trump():
    # rule D2: a record of a rotation hand names its trump suit instead of a turned card
    rec, st = record(rules="drive_rotation", hand_number=3)
    assert "trump_card" not in rec and rec["trump"] == "C"
    assert replay(rec) == st
    rec["trump"] = "H"
    with pytest.raises(BadDeal):
        parse_record(rec)


def test_ten_as_10_and_lower_case_accepted():
    rec, st = record(plays=8)
    rec["hands"] = {s: [c.lower().replace("t", "10") for c in cards] for s, cards in rec["hands"].items()}
    rec["plays"] = [c.replace("T", "10") for c in rec["plays"]]
    assert replay(rec) == st


@pytest.mark.parametrize("breakage,detail", [
    (lambda r: r["hands"]["N"].pop(), "12 cards"),
    (lambda r: r["hands"]["E"].__setitem__(0, r["hands"]["N"][0]), "twice"),
    (lambda r: r.__setitem__("trump_card", r["hands"]["E"][0]), "not the dealer's"),
    (lambda r: r.pop("trump_card"), "trump_card"),
    (lambda r: r["hands"].pop("W"), "no hand for W"),
    (lambda r: r.__setitem__("dealer", "X"), "dealer"),
])
def test_bad_deals(breakage, detail):
    rec, _ = record(plays=0)
    breakage(rec)
    with pytest.raises(BadDeal, match=detail):
        parse_record(rec)


def test_unreadable_records():
    rec, _ = record(plays=4)
    rec["plays"][1] = "ZZ"
    with pytest.raises(CardError):
        parse_record(rec)
    with pytest.raises(RecordError):
        parse_record([])
    with pytest.raises(RecordError):
        parse_record({**rec, "rules": "bridge"})


def test_replay_reports_the_first_illegal_play():
    rec, st = record(plays=52)
    rec["plays"].append("AS")
    with pytest.raises(IllegalPlay) as exc:
        replay(rec)
    assert exc.value.index == 52 and exc.value.reason == "not_in_hand"


def test_validate_tricks():
    # result entry: tricks per side 0-13 summing to 13
    assert validate_tricks(7, 6) == (7, 6)
    for args, code in [((7, 7), "not_thirteen"), ((14, -1), "out_of_range"),
                       (("7", 6), "not_a_number"), ((True, 12), "not_a_number")]:
        with pytest.raises(ResultError) as exc:
            validate_tricks(*args)
        assert exc.value.code == code


def test_result_must_match_a_complete_record():
    rec, st = record()
    ns, ew = st.tricks
    assert validate_result(ns, ew, rec) == (ns, ew)
    with pytest.raises(ResultError) as exc:
        validate_result(ns + 1, ew - 1, rec) if ew else validate_result(ns - 1, ew + 1, rec)
    assert exc.value.code == "result_mismatch"


def test_result_against_a_partial_record():
    rec, st = record(plays=20)          # five tricks played
    ns, ew = st.tricks
    assert validate_result(ns + 4, ew + 4, rec) == (ns + 4, ew + 4)
    if ns:
        with pytest.raises(ResultError):
            validate_result(ns - 1, 14 - ns, rec)


def test_check_record_answers():
    rec, st = record(plays=5)
    answer = check_record(rec)
    assert list(answer) == ["valid", "complete", "tricks", "winners", "to_play", "legal",
                            "trump_card_visible"]
    assert answer["valid"] and not answer["complete"] and answer["trump_card_visible"] is False
    assert answer["to_play"] == "NESW"[st.to_play]
    done, _ = record()
    done["result"] = {"NS": done["result"]["EW"], "EW": done["result"]["NS"]}
    if done["result"]["NS"] != done["result"]["EW"]:
        assert check_record(done)["error"]["reason"] == "result_mismatch"
    done["result"] = {"NS": 7, "EW": 7}
    assert check_record(done)["error"]["reason"] == "bad_result"


def test_many_random_records_replay_exactly():
    for seed in range(30):
        rec, st = record(seed=seed, plays=random.Random(seed).randrange(53), dealer=seed % 4)
        assert replay(rec) == st
