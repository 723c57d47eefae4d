"""The double-dummy review of a finished hand is computed once, by a task, and stored;
the hand-history page only reads it (issue 19: the page ran the review on every GET,
0.5-2.7 s each). A hand's review is asked for as the hand ends; a page that finds none
(an older table) says it is being prepared and asks again at most once a minute."""
import uuid

import pytest
from django.core.cache.backends.locmem import LocMemCache
from django.test import Client

from drive.core.jobs import task
from drive.games.models import PlayHandReview
from drive.games.selectors.tables import table_view
from drive.games.services import actions, reviews, tables
from drive.games.tasks import review_hand

pytestmark = pytest.mark.django_db

WAITING = "is being prepared"
REVIEWED = "With every card seen, the best play gives"


def signed_in(user):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


@pytest.fixture
def analysed(monkeypatch):
    """Counts the double-dummy reviews computed; the pages' "asked" marks start empty."""
    calls = []
    real = reviews.analyse

    def counting(record, *args, **kwargs):
        calls.append(len(record["deals"]))
        return real(record, *args, **kwargs)

    monkeypatch.setattr(reviews, "analyse", counting)
    monkeypatch.setattr(reviews, "cache", LocMemCache(f"reviews-{uuid.uuid4()}", {}))
    return calls


def _one_hand(me, capture):
    """Short whist, `me` at N and three rules robots, played to the end of hand 1 (every
    after-commit hook run: the robots' moves and the review's task, eagerly)."""
    with capture(execute=True):
        table = tables.create_table(user=me, rules="short", robots={"E": "rules", "S": "rules", "W": "rules"})
    while True:
        table.refresh_from_db()
        view = table_view(me, table)
        if view["hands_played"] >= 1:
            return table
        with capture(execute=True):
            actions.apply_action(user=me, table_id=table.pk, action=view["legal"][0], version=view["version"])


def test_a_finished_hand_is_reviewed_once_and_the_page_only_reads_it(
        make_user, django_capture_on_commit_callbacks, analysed):
    me = make_user("host")
    table = _one_hand(me, django_capture_on_commit_callbacks)
    assert analysed == [1]                                  # once, as the hand ended
    stored = PlayHandReview.objects.get(table=table, hand=1)
    assert stored.review["hand"] == 0 and len(stored.review["plays"]) == 52
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            page = signed_in(me).get(f"/play/{table.pk}/hands/")
        assert page.status_code == 200
        text = page.content.decode()
        assert REVIEWED in text and WAITING not in text
    assert analysed == [1]                                  # no GET computed anything


def test_the_task_stores_the_review_once(make_user, django_capture_on_commit_callbacks, analysed):
    me = make_user("host")
    table = _one_hand(me, django_capture_on_commit_callbacks)
    PlayHandReview.objects.all().delete()
    analysed.clear()
    assert review_hand.delay(table.pk, 1).get() is True
    assert review_hand.delay(table.pk, 1).get() is False     # a second run does nothing
    assert reviews.store_review(table_id=table.pk, hand=2) is False  # hand 2 is not finished
    assert reviews.store_review(table_id=999_999, hand=1) is False
    assert analysed == [1]
    assert PlayHandReview.objects.filter(table=table).count() == 1


def test_a_missing_review_shows_the_waiting_words_and_is_asked_for_once_a_minute(
        make_user, django_capture_on_commit_callbacks, analysed, monkeypatch):
    me, stranger = make_user("host"), make_user("stranger")
    table = _one_hand(me, django_capture_on_commit_callbacks)
    PlayHandReview.objects.all().delete()                   # an older table: no review stored
    analysed.clear()
    sent = []
    monkeypatch.setattr(task(reviews.REVIEW_TASK), "delay", lambda *args: sent.append(args))
    assert signed_in(stranger).get(f"/play/{table.pk}/hands/").status_code == 403  # the game runs
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            page = signed_in(me).get(f"/play/{table.pk}/hands/")
        text = page.content.decode()
        assert page.status_code == 200 and WAITING in text and REVIEWED not in text
    assert analysed == []                                   # nothing computed in the request
    assert sent == [(table.pk, 1)]                          # asked once, not at every view


def test_an_older_hand_is_reviewed_by_the_task_its_page_asked_for(
        make_user, django_capture_on_commit_callbacks, analysed):
    """Eager Celery (the embedded default): the task the first view asked for ran, once;
    the next view reads the stored review."""
    me = make_user("host")
    table = _one_hand(me, django_capture_on_commit_callbacks)
    PlayHandReview.objects.all().delete()
    analysed.clear()
    with django_capture_on_commit_callbacks(execute=True):
        signed_in(me).get(f"/play/{table.pk}/hands/")
    assert analysed == [1]
    text = signed_in(me).get(f"/play/{table.pk}/hands/").content.decode()
    assert REVIEWED in text and analysed == [1]


def test_a_hand_with_no_review_that_applies_is_stored_as_none(
        make_user, django_capture_on_commit_callbacks, analysed, monkeypatch):
    """Where analysis refuses (two or three hands in play), None is kept: asked once,
    never again, and the page shows neither a review nor the waiting words."""
    from engine.analysis import AnalysisError

    def refuse(record, *args, **kwargs):
        analysed.append(len(record["deals"]))
        raise AnalysisError("only four hands in play can be analysed")

    monkeypatch.setattr(reviews, "analyse", refuse)
    me = make_user("host")
    table = _one_hand(me, django_capture_on_commit_callbacks)
    assert PlayHandReview.objects.get(table=table, hand=1).review is None
    text = signed_in(me).get(f"/play/{table.pk}/hands/").content.decode()
    assert WAITING not in text and REVIEWED not in text and analysed == [1]
