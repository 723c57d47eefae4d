"""The player's history page /players/<id>/history/ (issue 22): every evening with its place
of how many, total and prizes, the season tables the player is in, the grade ("provisional"
while it is) and its chart drawn on the server; the same readers as the API; en, ru, uk."""
import re

import pytest

from drive.events.models import Event
from drive.seasons import chart
from tests.seasons.conftest import local

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada(people, make_user):
    player, = people("Ada")
    player.user = make_user("ada")
    player.save()
    return player


@pytest.fixture
def evenings(play, people, ada, make_season):
    bob, cy, di = people("Bob", "Cy", "Di")
    season = make_season(name="Winter 2026")
    prizes = [{"name": "Bottle of port", "kind": "overall"}, {"name": "Wooden spoon", "kind": "booby"}]
    first = play([[((ada, bob, cy, di), [9, 10])]], starts_at=local(2026, 12, 4, 19, 30), title="Advent drive",
                 prizes=prizes)
    second = play([[((bob, ada, di, cy), [9, 10])]], starts_at=local(2026, 12, 11, 19, 30), title="Christmas drive",
                  prizes=prizes)
    return season, first, second


def page(client, player, user=None):
    if user is not None:
        client.force_login(user)
    return client.get(f"/players/{player.pk}/history/")


def test_the_page_lists_every_evening_the_seasons_and_the_grade_with_its_chart(client, ada, evenings):
    season, first, second = evenings
    response = page(client, ada, ada.user)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.index("Christmas drive") < html.index("Advent drive")  # newest first
    assert "1 of 4" in html and "3 of 4" in html
    assert "Bottle of port" in html and "Wooden spoon" in html  # the prizes Ada took
    assert f'href="/seasons/{season.pk}/"' in html and "Winter 2026" in html
    assert "provisional" in html and "4 hands rated" in html
    assert f'href="/events/{first.pk}/results/"' in html
    svg = re.search(r"<svg[^>]*grade-chart-svg.*?</svg>", html, re.S).group(0)
    assert svg.count("<circle") == 2  # a dot per evening
    assert 'class="grade-line"' in svg and "grade-average" in svg
    assert " style=" not in html.split("<main>", 1)[1]  # the CSP forbids style attributes
    assert "css/history.css" in html


def test_a_player_without_an_evening(client, ada):
    html = page(client, ada, ada.user).content.decode()
    assert "No hand rated yet" in html and "No published evening yet." in html and "<svg" not in html


def test_the_organiser_may_read_it_and_anyone_else_is_refused(client, ada, evenings, organiser, make_user):
    assert page(client, ada, organiser).status_code == 200
    client.logout()
    assert page(client, ada, make_user("nosy")).status_code == 403


def test_an_anonymous_visitor_is_asked_to_log_in(client, ada, evenings):
    response = page(client, ada)
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_players_own_page_links_to_it(client, ada):
    client.force_login(ada.user)
    html = client.get("/me/").content.decode()
    assert f'href="/players/{ada.pk}/history/"' in html


@pytest.mark.parametrize("language, words", [
    ("ru", ["Рейтинг", "предварительный", "Сезоны", "Вечера", "из"]),
    ("uk", ["Рейтинг", "попередній", "Сезони", "Вечори", "з"]),
])
def test_the_page_speaks_russian_and_ukrainian(client, ada, evenings, language, words):
    client.force_login(ada.user)
    html = client.get(f"/players/{ada.pk}/history/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in html, word
    assert "hands rated" not in html and ">provisional<" not in html


def test_the_chart_from_plain_steps():
    from datetime import date

    assert chart.chart([]) is None
    one = chart.chart([chart.Step(day=date(2026, 12, 4), value=50.0, provisional=True)])
    assert one["dots"][0]["x"] == chart.fmt((chart.LEFT + chart.WIDTH - chart.RIGHT) / 2)
    assert [t["value"] for t in one["ticks"]] == [45, 50, 55]
    steps = [chart.Step(day=date(2026, 12, 4), value=48.2, provisional=True),
             chart.Step(day=date(2027, 3, 5), value=61.7, provisional=False)]
    drawn = chart.chart(steps)
    assert [t["value"] for t in drawn["ticks"]] == [45, 50, 55, 60, 65]
    assert [t["average"] for t in drawn["ticks"]] == [False, True, False, False, False]
    assert float(drawn["dots"][0]["x"]) == chart.LEFT and float(drawn["dots"][1]["x"]) == chart.WIDTH - chart.RIGHT
    assert float(drawn["dots"][1]["y"]) < float(drawn["average_y"]) < float(drawn["dots"][0]["y"])
    assert drawn["d"].startswith("M") and drawn["d"].count("L") == 1
    assert all(chart.TOP <= float(d["y"]) <= chart.HEIGHT - chart.BOTTOM for d in drawn["dots"])


def test_the_evenings_of_another_club_are_listed_too(client, ada, evenings, other_club):
    Event.objects.filter(pk=evenings[2].pk).update(club=other_club)
    html = page(client, ada, ada.user).content.decode()
    assert "Christmas drive" in html and "Advent drive" in html
