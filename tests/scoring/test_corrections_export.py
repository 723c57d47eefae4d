"""The corrections of the results as an export of their own: a CSV file (one table, beside
the standings' CSV) and GET /api/events/<id>/results/corrections/, readable when the results
are (everyone once published, before that the club's organisers only)."""
import csv
import io

import pytest

from drive.scoring.services import ranking

from drive.scoring.services import results

from .test_results_pages import played, publish  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def read_csv(response):
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.fixture
def revoked(played, organiser):
    """The played evening with a revoke penalty on top of its correction (rule L8: 9 -> 6)."""
    results.apply_revoke_penalty(actor=organiser, table=played["tables"][1], round_number=1, hand_number=1,
                                 offending_side="NS", reason="=Revoke in spades")
    ranking.recompute_standings(event_id=played["event"].pk)
    return played


def test_the_corrections_csv_is_one_table_of_changes(client, revoked):
    event = revoked["event"]
    publish(event)
    response = client.get(f"/events/{event.pk}/corrections.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"] and "-corrections.csv" in response["Content-Disposition"]
    rows = read_csv(response)
    assert rows[0] == ["When", "By", "Round", "Table", "Hand", "Kind", "Old N-S tricks", "New N-S tricks", "Reason"]
    assert all(len(row) == len(rows[0]) for row in rows)  # one table, no blank line, no second part
    changes = [dict(zip(rows[0], row)) for row in rows[1:]]
    assert [(c["Table"], c["Hand"], c["Kind"], c["Old N-S tricks"], c["New N-S tricks"], c["By"]) for c in changes] == [
        ("2", "2", "correction", "5", "8", "organiser"), ("1", "1", "revoke penalty", "9", "6", "organiser")]
    assert changes[0]["Reason"] == "The E-W card was right" and changes[0]["When"]
    assert changes[1]["Reason"] == "'=Revoke in spades"  # the organiser's words, never a formula


def test_no_corrections_is_a_header_alone(client, evening, organiser):
    client.force_login(organiser)
    assert len(read_csv(client.get(f"/events/{evening.pk}/corrections.csv"))) == 1


@pytest.mark.parametrize("who", ["anonymous", "player", "rival organiser"])
def test_before_publication_for_the_organisers_only(client, api, played, other_club, organiser, who):
    event = played["event"]
    if who == "player":
        client.force_login(played["users"]["P1"])
        api.force_authenticate(played["users"]["P1"])
    elif who == "rival organiser":
        client.force_login(other_club.organisers.get())
        api.force_authenticate(other_club.organisers.get())
    response = client.get(f"/events/{event.pk}/corrections.csv")
    assert response.status_code == 403 and b"not published" in response.content
    answer = api.get(f"/api/events/{event.pk}/results/corrections/")
    assert answer.status_code == 403 and "not published" in answer.json()["detail"]
    client.force_login(organiser)
    api.force_authenticate(organiser)
    assert client.get(f"/events/{event.pk}/corrections.csv").status_code == 200
    assert api.get(f"/api/events/{event.pk}/results/corrections/").status_code == 200


def test_an_unknown_event_is_404(client, api, played):
    assert client.get("/events/999999/corrections.csv").status_code == 404
    assert api.get("/api/events/999999/results/corrections/").status_code == 404


def test_the_api_gives_the_same_changes(client, api, revoked):
    event = revoked["event"]
    publish(event)
    body = api.get(f"/api/events/{event.pk}/results/corrections/").json()
    assert body["event"]["id"] == event.pk and body["published"] is True
    assert [(c["table"], c["hand"], c["kind"], c["old_ns_tricks"], c["new_ns_tricks"], c["reason"])
            for c in body["corrections"]] == [(2, 2, "correction", 5, 8, "The E-W card was right"),
                                              (1, 1, "revoke", 9, 6, "=Revoke in spades")]
    assert body["corrections"] == api.get(f"/api/events/{event.pk}/results/").json()["corrections"]


def test_the_results_page_links_both_exports(client, played):
    event = played["event"]
    publish(event)
    html = client.get(f"/events/{event.pk}/results/").content.decode()
    assert f'href="/events/{event.pk}/results.csv"' in html and "Download the standings (CSV)" in html
    assert f'href="/events/{event.pk}/corrections.csv"' in html and "Download the corrections (CSV)" in html
