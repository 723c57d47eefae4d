"""CSV and JSON exports of the results, and the prize rules (D4) on their own."""
import csv
import io
import json
from dataclasses import dataclass
from decimal import Decimal

import pytest

from drive.scoring.services import results
from drive.events.prizes import from_legacy, legacy_kind
from drive.scoring.prizes import award_prizes
from drive.scoring.services import results
from drive.scoring.prizes import award_prizes

from .test_results_pages import played, publish  # noqa: F401 (a fixture)


# --- exports ---------------------------------------------------------------------------------


def read_csv(response):
    text = response.content.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.django_db
def test_csv_has_every_entrant_hand_by_hand_in_one_table(client, played, organiser):
    event = played["event"]
    results.apply_revoke_penalty(actor=organiser, table=played["tables"][1], round_number=1, hand_number=1,
                                 offending_side="NS", reason="Revoke in spades")  # rule L8: 9 -> 6
    from drive.scoring.services import ranking

    ranking.recompute_standings(event_id=event.pk)
    publish(event)
    response = client.get(f"/events/{event.pk}/results.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"] and ".csv" in response["Content-Disposition"]
    rows = read_csv(response)
    header = rows[0]
    assert header[:4] == ["Place", "Number", "Player", "Total"]
    assert header[-4:] == ["R1 H1", "R1 H2", "R2 H1", "R2 H2"]
    entrants = {row[2]: dict(zip(header, row)) for row in rows[1:10]}
    assert len(entrants) == 9
    p1 = entrants["P1"]
    assert (p1["R1 H1"], p1["R1 H2"], p1["R2 H1"], p1["Total"]) == ("6", "6", "", "12.00")
    assert entrants["P2"]["R1 H1"] == "7"  # E-W gained the three tricks
    p9 = entrants["P9"]
    assert p9["R1 H1"] == "sat out" and p9["Hands sat out"] == "2" and Decimal(p9["Sit-out average credited"]) > 0
    # One table: the header and a row per entrant, each as wide as the header; the corrections
    # are an export of their own (test_corrections_export).
    assert len(rows) == 10 and all(len(row) == len(header) for row in rows)
    assert "Corrections" not in {cell for row in rows for cell in row}


@pytest.mark.django_db
def test_json_export_is_the_api_document(client, api, played, organiser):
    event = played["event"]
    publish(event)
    response = client.get(f"/events/{event.pk}/results.json")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert ".json" in response["Content-Disposition"]
    document = json.loads(response.content)
    assert document == api.get(f"/api/events/{event.pk}/results/").json()
    assert len(document["lines"]) == 9 and document["corrections"][0]["reason"] == "The E-W card was right"
    assert document["prizes"][0]["name"] == "First"


@pytest.mark.django_db
def test_organiser_may_export_before_publication(client, played, organiser):
    client.force_login(organiser)
    event = played["event"]
    assert client.get(f"/events/{event.pk}/results.csv").status_code == 200
    assert json.loads(client.get(f"/events/{event.pk}/results.json").content)["published"] is False


# --- prizes (rule D4) ---------------------------------------------------------------------------


@dataclass
class L:
    number: int
    place: int
    total: Decimal
    first_half: Decimal = Decimal(0)
    hands_played: int = 24
    sit_out_hands: int = 0
    category: str = ""
    missed_rounds: tuple = ()


def names(award):
    return [line.number for line in award.winners]


def P(*names_and_kinds):
    """Prizes as the organiser lists them: P("First", "overall", "Booby", "booby")."""
    pairs = zip(names_and_kinds[::2], names_and_kinds[1::2])
    return [{"name": name, "kind": kind} for name, kind in pairs]


def test_the_kind_decides_not_the_name():
    # "Regent Street voucher" has "gent" in it: an overall prize all the same (rule D4).
    lines = [L(1, 1, Decimal(150), category="lady"), L(2, 2, Decimal(140), category="gent")]
    voucher, = award_prizes(P("Regent Street voucher", "overall"), lines)
    assert (voucher.kind, voucher.category, names(voucher)) == ("overall", "", [1])
    booby, = award_prizes(P("First prize", "booby"), lines)
    assert names(booby) == [2]


def test_names_saved_before_kinds_keep_the_kind_they_were_given():
    assert legacy_kind("First") == "overall"
    assert legacy_kind("Booby prize") == "booby"
    assert legacy_kind("Half-time prize") == "half_time"
    assert legacy_kind("Ladies' first") == "ladies"
    assert legacy_kind("Gents booby") == "booby"
    assert legacy_kind("Regent Street voucher") == "gents"  # the old guess, wrong as it was
    assert legacy_kind("Утешительный приз") == "booby"
    assert legacy_kind("Втішний приз") == "booby"
    assert legacy_kind("Приз за первую половину") == "half_time"
    assert from_legacy(["First", {"name": "Regent Street voucher", "kind": "overall"}]) == [
        {"name": "First", "kind": "overall"}, {"name": "Regent Street voucher", "kind": "overall"}]


def test_prizes_in_order_booby_for_the_lowest_half_time_for_the_best_first_half():
    lines = [L(1, 1, Decimal(150), Decimal(70)), L(2, 2, Decimal(140), Decimal(80)), L(3, 3, Decimal(130)),
             L(4, 4, Decimal(90), Decimal(40)), L(5, 5, Decimal(80), Decimal(40))]
    awards = award_prizes(P("First", "overall", "Second", "overall", "Half-time", "half_time", "Booby", "booby",
                            "Third", "overall"), lines)
    assert [(a.name, names(a), a.shared) for a in awards] == [
        ("First", [1], False), ("Second", [2], False), ("Half-time", [2], False), ("Booby", [5], False),
        ("Third", [3], False)]


def test_shared_places_share_the_prizes_they_cover():
    lines = [L(1, 1, Decimal(150)), L(2, 1, Decimal(150)), L(3, 3, Decimal(120)), L(4, 4, Decimal(90)),
             L(5, 4, Decimal(90))]
    awards = award_prizes(P("First", "overall", "Second", "overall", "Third", "overall", "Booby prize", "booby"),
                          lines)
    # rule D4: the tie shares the prize it ties for, the next prize goes to the next place
    assert [(names(a), a.shared) for a in awards] == [([1, 2], True), ([3], False), ([4, 5], True), ([4, 5], True)]


def test_tied_leaders_share_first_and_second_goes_to_the_third_placed():
    lines = [L(1, 1, Decimal(150), Decimal(60)), L(2, 1, Decimal(150), Decimal(70)), L(3, 3, Decimal(140), Decimal(70)),
             L(4, 4, Decimal(120), Decimal(50)), L(5, 5, Decimal(90), Decimal(40)), L(6, 5, Decimal(90), Decimal(30)),
             L(7, 7, Decimal(80), Decimal(40))]
    awards = award_prizes(P("First", "overall", "Second", "overall", "Third", "overall", "Half-time", "half_time",
                            "Half-time runner-up", "half_time", "Booby", "booby", "Second booby", "booby",
                            "Third booby", "booby"), lines)
    assert [(a.name, names(a), a.shared) for a in awards] == [
        ("First", [1, 2], True), ("Second", [3], False), ("Third", [4], False),
        ("Half-time", [2, 3], True), ("Half-time runner-up", [1], False),  # 70 and 70 share, then 60
        ("Booby", [7], False), ("Second booby", [5, 6], True), ("Third booby", [4], False)]  # from the bottom


def test_a_pair_wins_its_prize_together_without_sharing_it():
    pair, other = [L(1, 1, Decimal(20)), L(2, 1, Decimal(20))], [L(3, 3, Decimal(10)), L(4, 3, Decimal(10))]
    for line in pair:
        line.unit = 1
    for line in other:
        line.unit = 3
    first, second = award_prizes(P("First", "overall", "Second", "overall"), pair + other)
    assert (names(first), first.shared, names(second), second.shared) == ([1, 2], False, [3, 4], False)


def test_separate_lists_for_ladies_and_gents():
    lines = [L(1, 1, Decimal(150), category="gent"), L(2, 2, Decimal(140), category="lady"),
             L(3, 3, Decimal(130), category="lady"), L(4, 4, Decimal(90), category="gent")]
    awards = award_prizes(P("Ladies first", "ladies", "Gents first", "gents", "Ladies second", "ladies",
                            "First", "overall", "Second", "overall"), lines)
    assert [names(a) for a in awards] == [[2], [1], [3], [1], [2]]  # each list counts its own places


def test_no_prize_before_a_hand_counts_and_no_more_winners_than_players():
    waiting = [L(1, 1, Decimal(0), hands_played=0), L(2, 1, Decimal(0), hands_played=0)]
    assert all(not a.winners for a in award_prizes(P("First", "overall", "Booby", "booby", "Half-time", "half_time"),
                                                   waiting))
    two = [L(1, 1, Decimal(20), Decimal(10)), L(2, 2, Decimal(10))]
    awards = award_prizes(P("First", "overall", "Second", "overall", "Third", "overall", "Half-time", "half_time",
                            "Half-time runner-up", "half_time"), two)
    assert [names(a) for a in awards] == [[1], [2], [], [1], []]  # nobody else scored in the first half


def test_a_player_who_only_sat_out_so_far_can_still_be_placed():
    lines = [L(1, 1, Decimal(13), hands_played=0, sit_out_hands=2), L(2, 2, Decimal(11))]
    assert names(award_prizes(P("First", "overall"), lines)[0]) == [1]


def test_a_player_who_missed_rounds_wins_nothing_by_default_and_the_next_eligible_does():
    left_early = L(5, 5, Decimal(40), Decimal(40), hands_played=8, missed_rounds=(3, 4, 5, 6))
    late = L(1, 1, Decimal(160), Decimal(90), hands_played=20, missed_rounds=(1,))
    lines = [late, L(2, 2, Decimal(150), Decimal(80)), L(3, 3, Decimal(140), Decimal(70)),
             L(4, 4, Decimal(90), Decimal(40)), left_early]
    prizes = P("First", "overall", "Half-time", "half_time", "Booby", "booby")
    assert [names(a) for a in award_prizes(prizes, lines, half_after_round=3)] == [[2], [2], [4]]
    # Ranked on their average instead, they may win; the half-time prize wants the whole first half.
    awards = award_prizes(prizes, lines, missed_rounds="average", half_after_round=3)
    assert [names(a) for a in awards] == [[1], [2], [5]]
    assert names(award_prizes(P("Half-time", "half_time"), [left_early, L(2, 2, Decimal(9), Decimal(9))],
                              missed_rounds="average", half_after_round=2)[0]) == [5]  # missed only the second half
