"""The QR code on the room's screen before the start says "check in", and the link it
encodes is the door's self check-in (the one the door's printed code opens): a scan
checks the player in. A new door code reaches the screen's code too."""
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from drive.events.services import events as event_services

from drive.events.services import registration as registration_services
from drive.events.models import Registration
from drive.live.selectors.screen import screen_token
from drive.live.services import screen as screens
from drive.live.views import screen as screen_views

pytestmark = pytest.mark.django_db


@pytest.fixture
def screen(make_event, organiser):
    event = make_event(title="Harvest Drive", starts_at=timezone.now() + timedelta(hours=1))  # check-in is open
    return screens.issue_screen_link(actor=organiser, event=event)


@pytest.fixture
def encoded(monkeypatch):
    """The URLs the screen's QR image encodes, as the view hands them to the QR maker."""
    urls = []
    make = screen_views.qr_svg_file

    def capture(url):
        urls.append(url)
        return make(url)

    monkeypatch.setattr(screen_views, "qr_svg_file", capture)
    return urls


def qr_src(html):
    return re.search(r'<img class="qr" src="([^"]+)" alt="([^"]+)"', html).groups()


def test_the_words_say_check_in_and_the_code_opens_the_door_check_in(client, screen, encoded):
    html = client.get(f"/screen/{screen_token(screen)}/").content.decode()
    assert "Scan the code to check in." in html and "register" not in html.lower()
    src, alt = qr_src(html)
    assert alt == "QR code: check in at the door"
    image = client.get(src)
    assert image.status_code == 200 and image["Content-Type"] == "image/svg+xml"
    assert image["Cache-Control"] == "no-store"
    assert encoded == [f"http://testserver/events/{screen.pk}/door/{screen.door_code}/"]
    # the same link as the door's own code on the console
    assert encoded[0].removeprefix("http://testserver") == f"/events/{screen.pk}/door/{screen.door_code}/"


def test_scanning_the_screens_code_checks_the_player_in(client, screen, encoded, make_user):
    player = make_user("ann")
    registration = registration_services.register(actor=player, event=screen)
    client.get(qr_src(client.get(f"/screen/{screen_token(screen)}/").content.decode())[0])
    client.force_login(player)
    page = client.get(encoded[0])
    assert page.status_code == 200 and "you are checked in" in page.content.decode()
    registration.refresh_from_db()
    assert registration.status == Registration.Status.CHECKED_IN


def test_a_new_door_code_reaches_the_screen(client, screen, encoded, organiser, monkeypatch):
    told = []
    monkeypatch.setattr(event_services.broadcast, "publish", lambda event_id, kind, **data: told.append(kind))
    before = qr_src(client.get(f"/screen/{screen_token(screen)}/").content.decode())[0]
    old_code = screen.door_code
    event = event_services.reissue_door_code(actor=organiser, event=screen)
    assert told  # open screens refresh
    after = qr_src(client.get(f"/screen/{screen_token(screen)}/").content.decode())[0]
    assert after != before  # a new image, not the one the screen's browser holds
    client.get(after)
    assert encoded == [f"http://testserver/events/{event.pk}/door/{event.door_code}/"]
    assert old_code not in encoded[0]


def test_a_wrong_screen_link_has_no_code(client, screen, encoded):
    assert client.get("/screen/not-the-token/qr.svg").status_code == 404
    assert encoded == []
