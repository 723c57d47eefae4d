"""A check-in reaches a page listening on the event's websocket."""
import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection

from drive.asgi import application
from drive.events.services import arrivals as arrival_services
from drive.core.tickets import issue_ticket


@pytest.mark.django_db(transaction=True)
async def test_check_in_is_pushed_to_event_subscribers(make_event, organiser):
    event = await sync_to_async(make_event)()
    communicator = WebsocketCommunicator(application, f"/ws/events/{event.pk}/?ticket={issue_ticket(event.pk)}", headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])
    connected, _ = await communicator.connect()
    assert connected
    await sync_to_async(arrival_services.add_walk_in)(actor=organiser, event=event, display_name="Vera")
    message = await communicator.receive_json_from(timeout=5)
    assert message == {"kind": "arrivals", "event": event.pk, "data": {}}
    await communicator.disconnect()
    await sync_to_async(lambda: connection.close())()  # the ORM thread's connection, so the test DB can be dropped


@pytest.mark.django_db(transaction=True)
async def test_websocket_from_a_foreign_origin_is_refused(make_event):
    event = await sync_to_async(make_event)()
    communicator = WebsocketCommunicator(application, f"/ws/events/{event.pk}/?ticket={issue_ticket(event.pk)}", headers=[(b"origin", b"http://evil.example"), (b"host", b"testserver")])
    connected, _ = await communicator.connect()
    assert not connected
    await sync_to_async(lambda: connection.close())()
