"""The season's public page and its CSV, in English, Russian and Ukrainian."""
import csv
import io

import pytest
from django.conf import settings

from drive.seasons.models import Season
from tests.seasons.conftest import local, one_table
from tests.test_i18n_pages import english_words, typed_texts, visible_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(make_season, play, people):
    season = make_season(min_evenings=2, best_of=3)
    ada, bob, cy, di, eve = people("Ada Lovelace", "Bob", "Cy", "Di", "Eve")
    play([one_table(ada, bob, cy, di, 9)], starts_at=local(2026, 12, 4, 19, 30), title="Advent drive")
    play([one_table(ada, bob, eve, di, 9)], starts_at=local(2026, 12, 11, 19, 30), title="Christmas drive")
    return season


def test_the_page_shows_the_table_to_anyone(client, season):
    response = client.get(f"/seasons/{season.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    for text in ("Winter 2026", "Ada Lovelace", "Advent drive", "Christmas drive", "Place", "Evenings", "Counted",
                 "Score", "Qualified", "18.00", "the best 3 evenings count", "2 evenings to qualify",
                 f"/seasons/{season.pk}/table.csv"):
        assert text in html, text
    rows = visible_text(html).split("Qualified", 1)[1]
    assert rows.index("Ada Lovelace") < rows.index("Bob") < rows.index("Cy")  # Cy: one evening, no place


def test_the_csv(client, season):
    response = client.get(f"/seasons/{season.pk}/table.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert f"-{season.pk}-table.csv" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Place", "Player", "Evenings", "Counted", "Score", "Qualified"]
    assert rows[1] == ["1", "Ada Lovelace", "2", "2", "18.00", "yes"]
    assert ["", "Cy", "1", "1", "9.00", "no"] in rows


def test_a_name_that_is_a_formula_stays_text_in_the_csv(client, season):
    from drive.events.models import Player

    Player.objects.filter(display_name="Bob").update(display_name="=HYPERLINK(\"x\")")
    body = client.get(f"/seasons/{season.pk}/table.csv").content.decode("utf-8-sig")
    assert "'=HYPERLINK" in body


def test_an_empty_season_says_so(client, make_season):
    season = make_season()
    response = client.get(f"/seasons/{season.pk}/")
    assert response.status_code == 200 and "No evening of this season has published results yet." in \
        response.content.decode()


def test_an_unknown_season_is_404(client):
    assert client.get("/seasons/999999/").status_code == 404
    assert client.get("/seasons/999999/table.csv").status_code == 404


@pytest.mark.parametrize("lang, words", [
    ("ru", ["Таблица сезона", "Место", "Вечера", "для квалификации нужны 2 вечера"]),
    ("uk", ["Таблиця сезону", "Місце", "Вечори", "для кваліфікації потрібні 2 вечори"]),
])
def test_the_page_and_csv_speak_russian_and_ukrainian(client, season, make_season, lang, words):
    make_season(name="Empty", score="total", placing_points=[])
    empty = Season.objects.get(name="Empty")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    typed = [*typed_texts(), *Season.objects.values_list("name", flat=True)]
    for url in (f"/seasons/{season.pk}/", f"/seasons/{empty.pk}/", f"/seasons/{season.pk}/table.csv"):
        response = client.get(url)
        assert response.status_code == 200
        body = response.content.decode("utf-8-sig")
        text = body if url.endswith(".csv") else visible_text(body)
        assert english_words(text, sorted(set(typed), key=len, reverse=True)) == [], (url, text)
    html = client.get(f"/seasons/{season.pk}/").content.decode()
    for word in words:
        assert word in html, word
