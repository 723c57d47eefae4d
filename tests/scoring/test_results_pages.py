"""The player's evening, live standings, results and score cards as pages; who may see what."""
import re

import pytest
from django.conf import settings

from drive.events.models import Event, Player
from drive.scoring.services import ranking
from drive.scoring.services import results
from drive.scoring.models import Round, Table
from tests import seats

from .conftest import seat_round

pytestmark = pytest.mark.django_db


def play(table, hand, ns, trump="S"):
    seats.enter(table=table, seat="N", hand_number=hand, ns_tricks=ns, trump=trump)
    seats.enter(table=table, seat="E", hand_number=hand, ns_tricks=ns, trump=trump)


@pytest.fixture
def played(evening, organiser, make_user):
    """Round 1 played: table 1 (9 then 6 to N-S), table 2 (7, then a dispute the organiser
    settles at 8 with a reason); P9 sat out. P1 and P9 have logins."""
    evening.prizes = [{"name": "First", "kind": "overall"}, {"name": "Second", "kind": "overall"},
                      {"name": "Half-time", "kind": "half_time"}, {"name": "Booby prize", "kind": "booby"}]
    evening.save()
    tables = {t.number: t for t in Table.objects.filter(event=evening)}
    play(tables[1], 1, 9)
    play(tables[1], 2, 6)
    play(tables[2], 1, 7)
    seats.enter(table=tables[2], seat="N", hand_number=2, ns_tricks=5, trump="H")
    seats.enter(table=tables[2], seat="E", hand_number=2, ns_tricks=8, trump="H")  # disputed
    results.correct_result(actor=organiser, table=tables[2], round_number=1, hand_number=2, ns_tricks=8,
                           reason="The E-W card was right")
    ranking.recompute_standings(event_id=evening.pk)
    users = {}
    for name in ("P1", "P9"):
        users[name] = make_user(name.lower())
        Player.objects.filter(display_name=name).update(user=users[name])
    return {"event": evening, "tables": tables, "users": users}


def publish(event):
    Event.objects.filter(pk=event.pk).update(phase=Event.Phase.RESULTS_PUBLISHED)


# --- the player's evening ------------------------------------------------------------------


def test_my_evening_shows_table_partner_opponents_and_scores(client, played):
    event = played["event"]
    client.force_login(played["users"]["P1"])
    response = client.get(f"/events/{event.pk}/my-evening/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "This round: round 1" in html
    assert re.search(r"Table</small><strong>1</strong>", html) and "North" in html
    partner = html.split("Partner</dt>")[1].split("</dd>")[0]
    opponents = html.split("Opponents</dt>")[1].split("</dd>")[0]
    assert "P3" in partner and "P2" in opponents and "P4" in opponents and "P3" not in opponents
    # rule D3: N-S took 9 then 6: P1 (North) scores 9 and 6, total 15
    scores = html.split("Scores so far")[1]
    assert re.search(r'<td class="num">9</td>\s*<td class="num"><strong>9</strong>', scores)
    assert re.search(r'<td class="num">6</td>\s*<td class="num"><strong>6</strong>', scores)
    assert "<strong>15</strong>" in html
    assert "place of 9" in html


def test_my_evening_says_where_to_go_next_once_seated(client, played):
    event = played["event"]
    Round.objects.filter(event=event, number=1).update(state=Round.State.CLOSED)
    round2 = Round.objects.get(event=event, number=2)
    seat_round(round2, {1: (9, 2, 5, 4), 2: (3, 6, 1, 8)}, sit_out=(7,))
    Round.objects.filter(pk=round2.pk).update(state=Round.State.SEATED)
    client.force_login(played["users"]["P1"])
    html = client.get(f"/events/{event.pk}/my-evening/").content.decode()
    nxt = html.split("Next: round 2")[1].split("</section>")[0]
    assert re.search(r"Table</small><strong>2</strong>", nxt) and "South" in nxt
    assert "P3" in nxt.split("Partner</dt>")[1].split("</dd>")[0]
    assert "Round 1, finished" in html


def test_my_evening_of_a_player_who_sat_out_shows_the_credit(client, played):
    event = played["event"]
    client.force_login(played["users"]["P9"])
    html = client.get(f"/events/{event.pk}/my-evening/").content.decode()
    assert "You sit out this round." in html
    # rule D5: no hands of their own, so the room average 6.5 a hand for 2 hands
    assert "Sat out: an average is credited" in html and ">13<" in html


def test_a_round_sat_out_counts_once_it_is_scored(client, played):
    event = played["event"]
    Round.objects.filter(event=event, number=1).update(state=Round.State.CLOSED)
    seat_round(Round.objects.get(event=event, number=2), {1: (1, 2, 3, 4), 2: (5, 6, 7, 8)}, sit_out=(9,))
    client.force_login(played["users"]["P9"])
    html = client.get(f"/events/{event.pk}/my-evening/").content.decode()
    rows = re.findall(r'<tr class="sat-out">(.*?)</tr>', html, re.S)
    assert len(rows) == 2
    assert ">13<" in rows[0] and ">—<" in rows[1]  # round 2 is not scored yet: no credit for it (rule D5)
    assert "<strong>13</strong>" in html.split("Your total")[1]


def test_my_evening_needs_a_login_and_an_entry(client, played, make_user, organiser):
    url = f"/events/{played['event'].pk}/my-evening/"
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 404
    client.force_login(organiser)  # organises, does not play
    assert client.get(url).status_code == 404
    assert client.get("/events/999999/my-evening/").status_code == 404


def test_live_fragments_for_htmx(client, played):
    event = played["event"]
    html = client.get(f"/events/{event.pk}/standings/", HTTP_HX_REQUEST="true").content.decode()
    assert html.lstrip().startswith('<div id="standings"') and "<html" not in html
    assert f'data-live-event="{event.pk}"' in html and 'hx-trigger="results-refresh from:body"' in html
    client.force_login(played["users"]["P1"])
    html = client.get(f"/events/{event.pk}/my-evening/", HTTP_HX_REQUEST="true").content.decode()
    assert html.lstrip().startswith('<div id="my-evening"') and "<html" not in html


# --- standings -------------------------------------------------------------------------------


def rows(html):
    body = html.split('<table class="list standings">')[1].split("<tbody>")[1].split("</tbody>")[0]
    return [[" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def test_standings_page_is_public_with_shared_places_sit_outs_and_prizes(client, played):
    event = played["event"]
    html = client.get(f"/events/{event.pk}/standings/").content.decode()
    lines = rows(html)
    assert len(lines) == 9
    # Totals: P1, P3 15; P5, P7 15 (7+8); P2, P4 11; P6, P8 11; P9 13 (sat out, D5)
    table = {cells[2].split()[0]: cells for cells in lines}  # by name: place, number, name, total, won, played
    # rule D4 tie-break: most hands won parts the 15s (P5, P7 won 2, P1, P3 won 1); partners share
    assert [table[p][0] for p in ("P5", "P7", "P1", "P3", "P9", "P2", "P4", "P6", "P8")] == [
        "1=", "1=", "3=", "3=", "5", "6=", "6=", "8=", "8="]
    assert table["P1"][3] == "15" and table["P9"][3] == "13" and table["P6"][3] == "11"
    assert table["P9"][2] == "P9 ‡"  # rule D5: the sit-out is marked
    # rule D4: P5 and P7 tied first share First; Second goes to the next place (P1, P3 at 3=)
    assert table["P5"][2] == "P5 First Half-time" and table["P8"][2] == "P8 Booby prize"
    assert table["P1"][2] == "P1 Second Half-time" and table["P3"][2] == "P3 Second Half-time"
    assert [cells[2].split()[0] for cells in lines[:2]] == ["P5", "P7"]
    assert "‡" in html and "Sat out 2 hands" in html  # rule D5: the sit-out is marked
    assert "Prizes if the evening ended now" in html and "Booby prize" in html
    assert "Results</a>" not in html  # not published, not an organiser


def test_standings_of_an_unpublished_event_are_hidden_from_the_public(client, played, organiser):
    event = played["event"]
    Event.objects.filter(pk=event.pk).update(published=False)
    assert client.get(f"/events/{event.pk}/standings/").status_code == 404
    client.force_login(organiser)
    assert client.get(f"/events/{event.pk}/standings/").status_code == 200


def test_standings_before_any_result(client, evening):
    html = client.get(f"/events/{evening.pk}/standings/").content.decode()
    assert "No standings yet" in html


# --- results page -----------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["anonymous", "player", "rival organiser"])
def test_results_before_publication_are_for_organisers_only(client, played, other_club, who):
    event = played["event"]
    if who == "player":
        client.force_login(played["users"]["P1"])
    elif who == "rival organiser":
        client.force_login(other_club.organisers.get())
    for url in (f"/events/{event.pk}/results/", f"/events/{event.pk}/results.csv", f"/events/{event.pk}/results.json"):
        response = client.get(url)
        assert response.status_code == 403, url
        assert b"not published" in response.content


def test_results_page_for_the_organiser_before_publication(client, played, organiser):
    event = played["event"]
    client.force_login(organiser)
    html = client.get(f"/events/{event.pk}/results/").content.decode()
    assert "Not published yet" in html
    assert "The E-W card was right" in html and "Hand by hand" in html


def test_published_results_page_for_everyone(client, played):
    event = played["event"]
    publish(event)
    response = client.get(f"/events/{event.pk}/results/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Not published yet" not in html
    prizes = html.split("<h2>Prizes</h2>")[1].split("</section>")[0]
    assert "First" in prizes and "Booby prize" in prizes and "Half-time" in prizes
    assert "Final standings" in html and "Print the results sheet" in html
    assert "results.css" in html  # the print stylesheet
    # the correction, with its reason, and the hand-by-hand grid
    corrections = html.split("<h2>Corrections</h2>")[1]
    assert "The E-W card was right" in corrections and "correction" in corrections
    assert "sat out" in html.split("Hand by hand")[1]


def test_a_prize_is_awarded_by_its_kind_whatever_its_name_says(client, played):
    """"Regent Street voucher" has "gent" in it; set as an overall prize it is one (rule D4)."""
    event = played["event"]
    Event.objects.filter(pk=event.pk).update(phase=Event.Phase.RESULTS_PUBLISHED, prizes=[
        {"name": "Regent Street voucher", "kind": "overall"}, {"name": "Ladies' spoon", "kind": "booby"}])
    Player.objects.filter(display_name__in=["P5", "P6"]).update(category=Player.Category.GENT)
    html = client.get(f"/events/{event.pk}/results/").content.decode()
    prizes = html.split("<h2>Prizes</h2>")[1].split("</section>")[0]
    voucher = prizes.split("Regent Street voucher")[1].split("</li>")[0]
    assert "· overall" in voucher and "P5" in voucher and "P7" in voucher  # the shared first place
    spoon = prizes.split("Ladies&#x27; spoon")[1].split("</li>")[0]
    assert "· booby" in spoon and "P6" in spoon and "P8" in spoon  # the lowest, whoever they are


def test_results_of_an_invisible_event_are_404(client, played):
    event = played["event"]
    Event.objects.filter(pk=event.pk).update(published=False, phase=Event.Phase.RESULTS_PUBLISHED)
    assert client.get(f"/events/{event.pk}/results/").status_code == 404


# --- score cards ------------------------------------------------------------------------------


def test_scorecards_one_page_per_entrant_for_the_organiser(client, played, organiser):
    event = played["event"]
    client.force_login(organiser)
    response = client.get(f"/console/events/{event.pk}/scorecards/")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('<section class="scorecard"') == 9
    card = html.split('<section class="scorecard"')[1]
    assert "№ 1" in card and "P1" in card
    # rows per round and hand to write the tricks in: 2 rounds x 2 hands
    assert card.count('<td class="write"></td><td class="write"></td><td class="write"></td>') == 4
    assert "3 P3" in card  # round 1 partner of P1
    sat_out_card = html.split('<section class="scorecard"')[9]
    assert "Sat out" in sat_out_card


@pytest.mark.parametrize("who", ["player", "rival organiser"])
def test_scorecards_are_refused_to_others(client, played, other_club, who):
    event = played["event"]
    client.force_login(played["users"]["P1"] if who == "player" else other_club.organisers.get())
    assert client.get(f"/console/events/{event.pk}/scorecards/").status_code == 403


def test_scorecards_need_a_login(client, played):
    response = client.get(f"/console/events/{played['event'].pk}/scorecards/")
    assert response.status_code == 302


def test_pages_speak_russian(client, played):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    event = played["event"]
    assert client.get(f"/events/{event.pk}/standings/").status_code == 200
    client.force_login(played["users"]["P1"])
    html = client.get(f"/events/{event.pk}/my-evening/").content.decode()
    assert '<html lang="ru">' in html
