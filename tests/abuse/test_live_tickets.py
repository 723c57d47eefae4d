"""Websockets only for what the viewer may see (any socket could
subscribe to any event id, unpublished and other clubs' included). A socket needs the
signed, expiring ticket for its event that the pages allowed to show it carry."""
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core import signing
from django.db import connection
from django.test import Client

from drive.asgi import application
from drive.live.consumers import REFUSED
from drive.core.tickets import SALT, issue_ticket, ticket_admits

pytestmark = pytest.mark.embedded  # run in pass 2 too: it is about what the embedded default does

ORIGIN = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


async def open_socket(event_id, ticket=None):
    query = "" if ticket is None else f"?ticket={ticket}"
    socket = WebsocketCommunicator(application, f"/ws/events/{event_id}/{query}", headers=ORIGIN)
    connected, code = await socket.connect()
    if connected:
        await socket.disconnect()
    return connected, code


@pytest.mark.parametrize("ticket", [None, "", "42", "42:abc:def", issue_ticket(43),
                                    signing.TimestampSigner(salt="another-purpose").sign("42"),
                                    signing.TimestampSigner(key="not-our-secret-key" * 3, salt=SALT).sign("42")],
                         ids=["none", "empty", "bare-id", "forged", "another-event", "other-salt", "other-key"])
async def test_a_socket_without_a_valid_ticket_for_its_event_is_refused(ticket):
    assert await open_socket(42, ticket) == (False, REFUSED)


async def test_an_expired_ticket_is_refused(settings):
    ticket = issue_ticket(42)
    settings.LIVE_TICKET_MAX_AGE = -1  # every ticket is older than that
    assert await open_socket(42, ticket) == (False, REFUSED)


async def test_a_valid_ticket_is_accepted():
    connected, _ = await open_socket(42, issue_ticket(42))
    assert connected


def test_ticket_admits_only_its_own_event():
    ticket = issue_ticket(7)
    assert ticket_admits(ticket, 7) and not ticket_admits(ticket, 8) and not ticket_admits(ticket + "x", 7)


def page_ticket(response):
    found = re.search(r'data-live-event="(\d+)" data-live-ticket="([^"]+)"', response.content.decode())
    return found and (int(found.group(1)), found.group(2))


@pytest.mark.django_db
def test_the_pages_that_may_show_an_event_carry_its_ticket(make_event):
    event = make_event()
    event_id, ticket = page_ticket(Client().get(f"/events/{event.pk}/standings/"))
    assert event_id == event.pk and ticket_admits(ticket, event.pk)


@pytest.mark.django_db(transaction=True)
async def test_an_unpublished_event_s_page_gives_no_ticket_and_its_socket_is_refused(make_event):
    draft = await sync_to_async(make_event)(published=False)
    page = await sync_to_async(Client().get)(f"/events/{draft.pk}/standings/")
    assert page.status_code == 404 and not page_ticket(page)
    assert await open_socket(draft.pk) == (False, REFUSED)
    await sync_to_async(lambda: connection.close())()
