"""The live standings page from a rendering cached per stored standings (400
phones asked for the same 148 KB page, rendered anew each time). Every phone after the
first gets the cached rendering until the standings are recomputed; each language has
its own; a room asking at once renders it once; a broken cache renders."""
import threading
import time
import uuid

import pytest
from django.core.cache import cache

from drive.core import rendercache
from drive.scoring.services import ranking
from drive.scoring.selectors import results as selectors
from tests import seats

pytestmark = pytest.mark.django_db


@pytest.fixture
def renders(monkeypatch):
    """How many times the standings were read for a rendering."""
    calls = []
    real = selectors.standings

    def counted(event, fresh=None):
        calls.append(event.pk)
        return real(event, fresh)

    monkeypatch.setattr(selectors, "standings", counted)
    return calls


def play(table, hand, ns):
    seats.enter(table=table, seat="N", hand_number=hand, ns_tricks=ns, trump="S")
    seats.enter(table=table, seat="E", hand_number=hand, ns_tricks=ns, trump="S")


def page(client, event, **headers):
    response = client.get(f"/events/{event.pk}/standings/", **headers)
    assert response.status_code == 200
    return response.content.decode()


def standings_part(html):
    """The standings themselves (the page around them carries per-request tokens)."""
    start = html.index("Updated at")
    return html[start:html.index("</table>", start)]


def test_the_page_comes_from_the_cache_until_the_standings_are_recomputed(client, evening, table1, renders):
    play(table1, 1, 9)
    ranking.recompute_standings(event_id=evening.pk)
    first = standings_part(page(client, evening))
    assert renders == [evening.pk] and "P1" in first
    assert standings_part(page(client, evening)) == first
    assert standings_part(page(client, evening, HTTP_HX_REQUEST="true")) == first
    assert renders == [evening.pk]  # three asks, one rendering
    play(table1, 2, 3)
    ranking.recompute_standings(event_id=evening.pk)  # a new version: a new rendering
    second = standings_part(page(client, evening))
    assert renders == [evening.pk, evening.pk] and second != first


def test_each_language_has_its_own_rendering(client, evening, table1, renders):
    play(table1, 1, 9)
    ranking.recompute_standings(event_id=evening.pk)
    english = page(client, evening, HTTP_ACCEPT_LANGUAGE="en")
    russian = page(client, evening, HTTP_ACCEPT_LANGUAGE="ru")
    assert "Updated at" in english and "Обновлено в" in russian and "Updated at" not in russian
    assert len(renders) == 2


def test_who_asks_changes_only_the_links_around_the_cached_part(client, evening, table1, organiser):
    play(table1, 1, 9)
    ranking.recompute_standings(event_id=evening.pk)
    assert "/results/" not in page(client, evening)
    client.force_login(organiser)
    assert f"/events/{evening.pk}/results/" in page(client, evening)  # the organiser's link, same standings


def test_a_broken_cache_never_fails_the_page(client, evening, table1, monkeypatch):
    play(table1, 1, 9)
    ranking.recompute_standings(event_id=evening.pk)

    def down(*args, **kwargs):
        raise ConnectionError("Redis is down")

    for name in ("get", "add", "set"):
        monkeypatch.setattr(cache, name, down)
    assert "P1" in page(client, evening)


def test_a_room_asking_at_once_renders_once():
    key, calls, got = f"test:{uuid.uuid4()}", [], []

    def render():
        calls.append(1)
        time.sleep(0.3)
        return "<p>standings</p>"

    threads = [threading.Thread(target=lambda: got.append(rendercache.cached_html(key, render))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert calls == [1] and got == ["<p>standings</p>"] * 8


def test_another_process_rendering_it_is_waited_for(monkeypatch):
    """The rendering mark is held elsewhere: wait for its result instead of rendering."""
    key = f"test:{uuid.uuid4()}"
    full = f"html:{key}:en:{rendercache.timezone.get_current_timezone_name()}"
    cache.add(f"{full}:rendering", 1, 5)
    threading.Timer(0.2, lambda: cache.set(full, "<p>theirs</p>", 60)).start()
    assert rendercache.cached_html(key, lambda: pytest.fail("rendered twice")) == "<p>theirs</p>"


def test_a_rendering_asked_again_is_served_from_the_process_without_the_cache(monkeypatch):
    """A key names what it shows, so its rendering never changes: after the first ask this
    process serves it from memory, with no trip to the shared cache."""
    key = f"test:{uuid.uuid4()}"
    assert rendercache.cached_html(key, lambda: "<p>standings</p>") == "<p>standings</p>"
    monkeypatch.setattr(rendercache.cache, "get", lambda *a, **k: pytest.fail("asked the shared cache"))
    assert rendercache.cached_html(key, lambda: pytest.fail("rendered twice")) == "<p>standings</p>"


def test_the_process_keeps_only_the_latest_renderings():
    keys = [f"test:{uuid.uuid4()}" for _ in range(rendercache.LOCAL_ENTRIES + 1)]
    for key in keys:
        rendercache.cached_html(key, lambda: "<p>x</p>")
    assert len(rendercache._local) == rendercache.LOCAL_ENTRIES
    assert not any(keys[0] in full for full in rendercache._local)
