"""The movement page in Russian and Ukrainian: how the movement was built and the seat
letters of the printed cards, in the reader's language."""
import pytest
from django.conf import settings
from django.utils import translation


from drive.events.services import arrivals as arrival_services
from drive.movements.selectors.movements import construction

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("source, ru", [
    ("Wh(9)", "Wh(9)"),
    ("optimised", "оптимизация"),
    ("optimised from Wh(12) with a phantom", "оптимизация; исходная схема: Wh(12) с фантомным игроком"),
    ("optimised from Wh(13) plus one", "оптимизация; исходная схема: Wh(13) и ещё один игрок"),
    ("optimised from a near design", "оптимизация; исходная схема: схема для близкого числа игроков"),
    ("round robin", "круговая система"),
    ("mitchell", "Митчелл"),
    ("progressive: round 1 in number order", "прогрессивная: тур 1 по порядку номеров"),
])
def test_every_construction_reads_in_russian(source, ru):
    with translation.override("ru"):
        assert construction(source) == ru
    assert construction(source) == {"mitchell": "Mitchell"}.get(source, source)


@pytest.mark.parametrize("lang, letters, built", [
    ("ru", "С В Ю З", "круговая система"),
    ("uk", "Пн Сх Пд Зх", "колова система"),
])
def test_the_page_in_the_readers_language(client, make_event, organiser, lang, letters, built):
    event = make_event(movement_kind="pairs", rounds=3)
    for i in range(8):
        arrival_services.add_walk_in(actor=organiser, event=event, display_name=f"Guest {i}")
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    page = client.get(f"/console/events/{event.pk}/movement/").content.decode()
    assert built in page
    headers = "".join(f"<th>{letter}</th>" for letter in letters.split())
    assert headers in page  # the cards per table
    assert "<th>N</th>" not in page
