"""The site's own 404 and 500 pages, as a visitor sees them with DEBUG off: in the site's
look, in the visitor's language, with a way back to the events. The 500 page needs neither
the database nor the request's context (either may be what failed)."""
import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, RequestFactory
from django.urls import get_resolver
from django.utils import translation

pytestmark = [pytest.mark.urls("tests.error_urls"), pytest.mark.embedded]


@pytest.fixture(autouse=True)
def _debug_off(settings):
    settings.DEBUG = False


def no_database(execute, sql, params, many, context):
    raise AssertionError(f"the error page touched the database: {sql}")


def in_the_site_layout(html):
    return '<header class="top">' in html and "/static/css/site.css" in html and 'class="card"' in html


@pytest.mark.django_db
@pytest.mark.parametrize("language, title, back", [
    ("en", "Page not found", "Back to the events"),
    ("ru", "Страница не найдена", "Вернуться к турнирам"),
    ("uk", "Сторінку не знайдено", "Повернутися до турнірів"),
])
def test_404_in_the_site_layout_and_the_visitors_language(client, language, title, back):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert in_the_site_layout(html) and f'<html lang="{language}">' in html
    assert title in html and f'<a href="/">{back}</a>' in html


@pytest.mark.django_db
def test_404_of_a_missing_event_and_under_the_api(client):
    assert "Page not found" in client.get("/events/999999/").content.decode()
    answer = client.get("/api/no-such-thing/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/broken/", "/database-down/"])
@pytest.mark.parametrize("language, title", [("en", "Something went wrong"), ("ru", "Что-то пошло не так"),
                                             ("uk", "Щось пішло не так")])
def test_500_in_the_site_layout_and_the_visitors_language(url, language, title):
    client = Client(raise_request_exception=False)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(url)
    assert response.status_code == 500
    html = response.content.decode()
    assert in_the_site_layout(html) and f'<html lang="{language}">' in html
    assert title in html and '<a class="brand" href="/">' in html and html.count('href="/"') >= 2


@pytest.mark.django_db
def test_500_under_the_api_is_json():
    response = Client(raise_request_exception=False).get("/api/broken/")
    assert response.status_code == 500 and response.json()["code"] == "server_error"


def test_the_500_page_needs_no_database_and_no_request_context():
    """A bare request (no user, no session: the middleware may be what failed), the database
    refusing every query: still the page, in the active language."""
    handler = get_resolver().resolve_error_handler(500)
    request = RequestFactory().get("/anything/")
    with connection.execute_wrapper(no_database), translation.override("ru"):
        response = handler(request)
    html = response.content.decode()
    assert response.status_code == 500 and in_the_site_layout(html) and "Что-то пошло не так" in html


def test_plain_words_when_even_the_page_fails(monkeypatch):
    from django.template import loader

    def broken(name, *args, **kwargs):
        raise ValueError("Missing staticfiles manifest entry")

    monkeypatch.setattr(loader, "get_template", broken)
    response = get_resolver().resolve_error_handler(500)(RequestFactory().get("/x/"))
    assert response.status_code == 500 and b"Something went wrong" in response.content
    assert b'href="/"' in response.content
