"""The console's scoring pages in the reader's language: the table's own reasons for a
change (kept in English, shown translated) and the seat letters (С В Ю З, Пн Сх Пд Зх)."""
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from drive.scoring.services import results
from drive.scoring.models import HandResult
from tests import seats

pytestmark = pytest.mark.django_db

HISTORY = HandResult.history.model


@pytest.fixture
def as_organiser(client, organiser):
    client.force_login(organiser)
    return client


def _page(client, lang, name, *args):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client.get(reverse(name, args=args)).content.decode()


def _disputed(table1):
    with translation.override("ru"):  # the phones speak Russian: the history must not
        seats.enter(table=table1, seat="N", hand_number=1, ns_tricks=8, trump="S")
        seats.enter(table=table1, seat="E", hand_number=1, ns_tricks=7, trump="S")


def test_the_table_reasons_are_kept_in_english(evening, table1):
    _disputed(table1)
    reasons = list(HISTORY.objects.filter(round__event=evening).order_by("history_id")
                   .values_list("history_change_reason", flat=True))
    assert reasons == ["entered at the table", "disputed by the opponents"]


@pytest.mark.parametrize("lang, entered, disputed", [
    ("en", "entered at the table", "disputed by the opponents"),
    ("ru", "ввод за столом", "возражение противников"),
    ("uk", "введення за столом", "заперечення суперників"),
])
def test_corrections_page_shows_the_table_reasons_in_the_readers_language(
        as_organiser, evening, table1, organiser, lang, entered, disputed):
    _disputed(table1)
    results.correct_result(actor=organiser, table=table1, round_number=1, hand_number=1, ns_tricks=7,
                           reason="Счёт со слов стола")
    page = _page(as_organiser, lang, "console-corrections", evening.pk)
    assert entered in page and disputed in page
    assert "Счёт со слов стола" in page  # the organiser's own reason, as typed


def test_a_reason_stored_in_another_language_is_shown_in_the_readers(as_organiser, evening, table1, organiser):
    _disputed(table1)
    russian = "возражение противников"  # rows written before the history kept English
    HISTORY.objects.filter(history_change_reason="disputed by the opponents").update(history_change_reason=russian)
    results.correct_result(actor=organiser, table=table1, round_number=1, hand_number=1, ns_tricks=7, reason="ok")
    assert "заперечення суперників" in _page(as_organiser, "uk", "console-corrections", evening.pk)
    assert "disputed by the opponents" in _page(as_organiser, "en", "console-corrections", evening.pk)


@pytest.mark.parametrize("lang, north, east", [("ru", "С", "В"), ("uk", "Пн", "Сх"), ("en", "N", "E")])
def test_seat_letters_on_the_console_table_and_corrections(as_organiser, evening, table1, organiser, lang, north, east):
    _disputed(table1)
    page = _page(as_organiser, lang, "console-evening-table", evening.pk, 1, 1)
    with translation.override(lang):
        expected = translation.gettext("Seat %(a)s entered N-S %(ns)s, E-W %(ew)s; seat %(b)s entered N-S "
                                       "%(dns)s, E-W %(dew)s.") % {"a": north, "ns": 8, "ew": 5, "b": east,
                                                                   "dns": 7, "dew": 6}
    assert expected in page
    assert f"<td>{north}</td>" in page and f"<td>{east}</td>" in page  # who holds each seat
    results.correct_result(actor=organiser, table=table1, round_number=1, hand_number=1, ns_tricks=7, reason="ok")
    page = _page(as_organiser, lang, "console-corrections", evening.pk)
    with translation.override(lang):
        assert translation.gettext("the table, seat %(seat)s") % {"seat": east} in page


@pytest.mark.parametrize("lang, north", [("ru", "С"), ("uk", "Пн")])
def test_freeing_a_seat_names_it_by_its_letter(as_organiser, evening, table1, lang, north):
    seats.claim(table1, "N")
    as_organiser.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    page = as_organiser.post(reverse("console-release-claim", args=[evening.pk, 1, 1, "N"]), follow=True)
    with translation.override(lang):
        expected = translation.gettext("Seat %(seat)s of table %(table)s is free: it can be claimed again.") % {
            "seat": north, "table": 1}
    assert expected in page.content.decode()
