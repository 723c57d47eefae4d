"""The room's screen reads and renders its standings once per stored standings
(the live pages from a rendering cached per standings version); the clock, the hands
entered and the announcements around them stay live."""
import pytest

from drive.live.services import announcements
from drive.live.selectors.screen import screen_token
from drive.live.services import screen as screens
from drive.scoring.services import ranking
from tests import seats

pytestmark = pytest.mark.django_db


@pytest.fixture
def linked(evening, organiser):
    return screens.issue_screen_link(actor=organiser, event=evening)


@pytest.fixture
def reads(monkeypatch):
    calls = []
    real = screens.standings

    def counted(event, fresh=None):
        calls.append(event.pk)
        return real(event, fresh)

    monkeypatch.setattr(screens, "standings", counted)
    return calls


def screen_html(client, event):
    response = client.get(f"/screen/{screen_token(event)}/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


def standings_box(html):
    start = html.index('class="standings-box"')
    return html[start:html.index("</section>", start)]


def play(table, hand, ns):
    seats.enter(table=table, seat="N", hand_number=hand, ns_tricks=ns, trump="S")
    seats.enter(table=table, seat="E", hand_number=hand, ns_tricks=ns, trump="S")


def test_the_screen_reads_the_standings_once_per_recomputation(client, linked, table1, organiser, reads):
    play(table1, 1, 9)
    ranking.recompute_standings(event_id=linked.pk)
    first = screen_html(client, linked)
    again = screen_html(client, linked)
    assert reads == [linked.pk] and 'data-entrant="1"' in first
    assert standings_box(again) == standings_box(first)
    # an announcement takes lines from the standings' pages: they are laid out anew once
    announcements.announce(actor=organiser, event=linked, text="Raffle at nine")
    assert "Raffle at nine" in screen_html(client, linked) and len(reads) == 2
    screen_html(client, linked)
    assert len(reads) == 2
    play(table1, 2, 3)
    ranking.recompute_standings(event_id=linked.pk)
    screen_html(client, linked)
    assert len(reads) == 3


def test_screen_state_still_lists_the_pages(linked, table1):
    play(table1, 1, 9)
    ranking.recompute_standings(event_id=linked.pk)
    pages = screens.screen_state(event=linked)["line_pages"]
    assert [len(page) for page in pages] == [9] and pages[0][0].place == 1
