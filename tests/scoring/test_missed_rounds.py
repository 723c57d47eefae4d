"""Players who miss rounds (arrived late, left early): listed with the rounds they missed,
and ranked by the event's rule: not eligible for prizes (the default), or on their average
per hand. A round sat out is not missed: it is credited (rule D5)."""
import csv
import io
from decimal import Decimal

import pytest

from drive.events.models import Event, Player
from drive.live.selectors.screen import screen_token
from drive.movements.models import Entrant
from drive.scoring.services.freshness import fresh_standings
from drive.scoring.services import ranking
from drive.scoring.models import HandResult, Round, Seat, Standing, Table
from drive.scoring.selectors.results import standings

pytestmark = pytest.mark.django_db

PRIZES = [{"name": "First", "kind": "overall"}, {"name": "Second", "kind": "overall"},
          {"name": "Half-time", "kind": "half_time"}, {"name": "Booby", "kind": "booby"}]

# Six rounds of four hands (24 hands). P8 leaves after round 2 (8 hands), P9 arrives for
# round 4 (12 hands), P10 sits out rounds 1, 2, 4, 5 and 6 (credited, never missed).
SEATING = {
    1: ({1: (1, 2, 3, 4), 2: (5, 6, 7, 8)}, (10,)),
    2: ({1: (1, 2, 3, 4), 2: (5, 6, 7, 8)}, (10,)),
    3: ({1: (1, 2, 3, 4), 2: (5, 6, 7, 10)}, ()),
    4: ({1: (1, 2, 3, 4), 2: (5, 6, 7, 9)}, (10,)),
    5: ({1: (1, 2, 3, 4), 2: (5, 6, 7, 9)}, (10,)),
    6: ({1: (1, 2, 3, 4), 2: (5, 6, 7, 9)}, (10,)),
}
# N-S tricks at each table, every hand of the round: P8 (E-W at table 2) takes 3 a hand;
# from round 4 P9 (E-W at table 2) takes 12 a hand.
NS_TRICKS = {1: {1: 7, 2: 10}, 2: {1: 6, 2: 10}, 3: {1: 7, 2: 6}, 4: {1: 7, 2: 1}, 5: {1: 6, 2: 1},
             6: {1: 7, 2: 1}}


@pytest.fixture
def evening(make_event):
    event = make_event(rounds=6, hands_per_round=4, phase=Event.Phase.FINISHED, movement_kind="individual",
                       prizes=PRIZES)
    entrants = {n: Entrant.objects.create(event=event, player=Player.objects.create(display_name=f"P{n}"), number=n,
                                          joined_round=4 if n == 9 else 1, left_after_round=2 if n == 8 else None)
                for n in range(1, 11)}
    tables = {n: Table.objects.create(event=event, number=n) for n in (1, 2)}
    for number, (at_tables, sit_out) in SEATING.items():
        round_ = Round.objects.create(event=event, number=number, state=Round.State.CLOSED)
        for table, players in at_tables.items():
            for position, player in zip("NESW", players):
                Seat.objects.create(round=round_, table=tables[table], position=position, entrant=entrants[player])
            for hand in range(1, 5):
                HandResult.objects.create(round=round_, table=tables[table], hand_number=hand, trump="S",
                                          ns_tricks=NS_TRICKS[number][table], status=HandResult.Status.CONFIRMED)
        for player in sit_out:
            Seat.objects.create(round=round_, table=None, position="", entrant=entrants[player])
    return event


def by_number(event):
    return {line.number: line for line in standings(event, fresh_standings(event=event))["lines"]}


def winners(event):
    return {award.name: sorted(line.number for line in award.winners) for award in standings(event, fresh_standings(event=event))["prizes"]}


def test_missed_rounds_are_found_and_a_sit_out_is_not_one(evening):
    ranking.recompute_standings(event_id=evening.pk)
    stored = {s.entrant.number: s for s in Standing.objects.filter(event=evening).select_related("entrant")}
    assert stored[8].missed_rounds == [3, 4, 5, 6] and stored[8].hands_played == 8
    assert stored[9].missed_rounds == [1, 2, 3] and stored[9].hands_played == 12
    assert stored[10].missed_rounds == [] and stored[10].sit_out_hands == 20  # rule D5: credited, not missed
    assert all(stored[n].missed_rounds == [] for n in range(1, 8))
    assert stored[9].average == Decimal("12.00")  # 12 tricks a hand, 12 hands


def test_by_default_they_are_listed_but_the_prizes_go_to_the_next_eligible(evening):
    ranking.recompute_standings(event_id=evening.pk)
    lines = by_number(evening)
    assert min(lines.values(), key=lambda line: line.total).number == 8  # the lowest total: 8 hands of 24
    assert not lines[8].eligible and not lines[9].eligible and lines[10].eligible
    won = winners(evening)
    assert 8 not in won["Booby"] and won["Booby"] == sorted(
        n for n, line in lines.items() if line.eligible and line.total == min(
            other.total for other in lines.values() if other.eligible))
    assert 9 not in won["First"] + won["Second"] + won["Half-time"]
    assert lines[8].place == max(line.place for line in lines.values())  # still listed, by total


def test_ranked_on_the_average_per_hand_when_the_event_says_so(evening):
    Event.objects.filter(pk=evening.pk).update(missed_rounds=Event.MissedRounds.AVERAGE)
    evening.refresh_from_db()
    ranking.recompute_standings(event_id=evening.pk)
    lines = by_number(evening)
    assert lines[9].place == 1 and lines[9].total < max(line.total for line in lines.values())
    ordered = sorted(lines.values(), key=lambda line: line.place)
    assert [line.average for line in ordered] == sorted((line.average for line in ordered), reverse=True)
    won = winners(evening)
    assert won["First"] == [9]  # 12 a hand over 12 hands beats the full evenings' averages
    assert won["Booby"] == [8]  # 3 a hand: lowest on average too, and eligible under this rule
    assert 9 not in won["Half-time"]  # the half-time prize needs the whole first half played


def test_the_pages_csv_and_api_show_the_missed_rounds_and_the_rule(client, api, evening):
    ranking.recompute_standings(event_id=evening.pk)
    Event.objects.filter(pk=evening.pk).update(phase=Event.Phase.RESULTS_PUBLISHED)
    html = client.get(f"/events/{evening.pk}/standings/").content.decode()
    assert "† missed rounds 3–6" in html and "† missed rounds 1–3" in html
    assert "listed, but not eligible for prizes" in html
    results = client.get(f"/events/{evening.pk}/results/").content.decode()
    assert "players who arrive late or leave early</" not in results  # a setting, not a heading
    assert "players who arrive late or leave early: listed, not eligible for prizes" in " ".join(results.split())
    rows = list(csv.reader(io.StringIO(client.get(f"/events/{evening.pk}/results.csv").content.decode("utf-8-sig"))))
    table = {row[2]: dict(zip(rows[0], row)) for row in rows[1:] if len(row) > 2}
    assert table["P8"]["Missed rounds"] == "3–6" and table["P10"]["Missed rounds"] == ""
    assert table["P9"]["Average per hand"] == "12.00"
    body = api.get(f"/api/events/{evening.pk}/results/").json()
    assert body["event"]["missed_rounds"] == "not_eligible"
    lines = {line["number"]: line for line in body["lines"]}
    assert lines[8]["missed_rounds"] == [3, 4, 5, 6] and lines[8]["eligible"] is False
    assert lines[10]["missed_rounds"] == [] and lines[10]["eligible"] is True
    assert Decimal(lines[9]["average"]) == 12


def test_the_average_rule_shows_an_average_column(client, evening):
    Event.objects.filter(pk=evening.pk).update(missed_rounds=Event.MissedRounds.AVERAGE)
    ranking.recompute_standings(event_id=evening.pk)
    html = client.get(f"/events/{evening.pk}/standings/").content.decode()
    assert ">Average</th>" in html and "ranked on their average per hand played" in html


def test_the_rule_is_set_before_the_evening_and_fixed_once_it_starts(make_event, organiser):
    from drive.core.errors import Conflict
    from drive.events.services import events as services

    event = make_event()
    assert event.missed_rounds == Event.MissedRounds.NOT_ELIGIBLE  # the default
    event = services.update_event(actor=organiser, event=event, missed_rounds="average")
    assert event.missed_rounds == "average"
    Event.objects.filter(pk=event.pk).update(phase=Event.Phase.IN_PROGRESS)
    with pytest.raises(Conflict):
        services.update_event(actor=organiser, event=Event.objects.get(pk=event.pk), missed_rounds="not_eligible")


def test_the_room_screen_shows_the_average_it_ranks_on(client, evening, organiser):
    from drive.live.services import screen

    Event.objects.filter(pk=evening.pk).update(missed_rounds=Event.MissedRounds.AVERAGE,
                                               phase=Event.Phase.IN_PROGRESS)
    Round.objects.filter(event=evening, number=6).update(state=Round.State.PLAYING)
    ranking.recompute_standings(event_id=evening.pk)
    linked = screen.issue_screen_link(actor=organiser, event=Event.objects.get(pk=evening.pk))
    html = client.get(f"/screen/{screen_token(linked)}/").content.decode()
    first = html.split('data-entrant="9"')[1].split("</li>")[0]
    assert '<span class="place num">1</span>' in first and ">12.00<" in first and "(average per hand)" in html


def test_a_leaver_reads_why_no_prize_on_their_own_page(client, evening, make_user):
    ranking.recompute_standings(event_id=evening.pk)
    Event.objects.filter(pk=evening.pk).update(phase=Event.Phase.RESULTS_PUBLISHED)
    leaver = make_user("p8")
    Player.objects.filter(display_name="P8").update(user=leaver)
    client.force_login(leaver)
    html = client.get(f"/events/{evening.pk}/my-evening/").content.decode()
    assert "You missed rounds 3–6: not eligible for prizes." in html and "Your prize" not in html
