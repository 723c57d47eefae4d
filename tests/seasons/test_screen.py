"""The season on the room's screen: public as the table, in the projector's style, long
tables in pages that turn by themselves, refreshing itself; en/ru/uk."""
import pytest
from django.conf import settings

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


def rows(html):
    return visible_text(html.split('data-pages', 1)[1])


def test_anyone_sees_it_in_the_screens_style(client, season):
    response = client.get(f"/seasons/{season.pk}/screen/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<body class="room-screen season-screen">' in html and "css/screen.css" in html
    assert "css/season.css" in html and "js/screen.js" in html
    for text in ("Winter 2026", "St Mary", "2 evenings", "the best 3 evenings count", "Place", "Player", "Evenings",
                 "Score", "18.00", "A place after 2 evenings"):
        assert text in html, text
    text = rows(html)
    assert text.index("Ada Lovelace") < text.index("Bob") < text.index("Cy")
    assert 'hx-trigger="every 60s"' in html and 'hx-select="#screen"' in html


def test_the_public_page_and_the_console_lead_to_it(client, season, organiser):
    assert f'href="/seasons/{season.pk}/screen/"' in client.get(f"/seasons/{season.pk}/").content.decode()


def test_a_long_table_pages(client, season, settings):
    settings.SEASON_SCREEN_ROWS_PER_PAGE = 2
    html = client.get(f"/seasons/{season.pk}/screen/").content.decode()
    assert html.count('class="page standings season-rows"') == 3 and html.count(" hidden>") == 2
    assert "3 pages, turning by themselves" in html


def test_an_empty_season_says_so(client, make_season):
    season = make_season()
    html = client.get(f"/seasons/{season.pk}/screen/").content.decode()
    assert "No evening of this season has published results yet." in html and "data-pages" not in html


def test_an_unknown_season_is_404(client):
    assert client.get("/seasons/999999/screen/").status_code == 404


@pytest.mark.parametrize("lang, words", [("ru", ["Место", "Вечера", "Очки"]), ("uk", ["Місце", "Вечори", "Очки"])])
def test_it_speaks_russian_and_ukrainian(client, season, make_season, lang, words):
    from drive.seasons.models import Season

    empty = make_season(name="Empty", score="total", placing_points=[])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    typed = [*typed_texts(), *Season.objects.values_list("name", flat=True)]
    for url in (f"/seasons/{season.pk}/screen/", f"/seasons/{empty.pk}/screen/"):
        text = visible_text(client.get(url).content.decode())
        assert english_words(text, sorted(set(typed), key=len, reverse=True)) == [], (url, text)
    html = client.get(f"/seasons/{season.pk}/screen/").content.decode()
    for word in words:
        assert word in html, word
