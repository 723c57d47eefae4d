"""A movement that failed to be worked out has a way out: "Try again" on the console's
evening page and `POST /api/events/{id}/evening/retry-movement/`, organisers only,
through `evening.retry_movement` (409 when the movement has not failed)."""
import pytest

from drive.events.models import AuditEntry
from drive.movements.services import movements as movement_services
from drive.movements.models import Movement
from drive.scoring.services import evening as ev
from drive.scoring.models import Round

from .test_evening import checked_in_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def failed(make_event, organiser, monkeypatch, django_capture_on_commit_callbacks):
    """An evening started whose movement failed; the next computation works."""
    working = movement_services.compute_movement

    def broken(**kwargs):
        raise RuntimeError("no design")

    monkeypatch.setattr(movement_services, "compute_movement", broken)
    event = checked_in_event(make_event, organiser, 8, rounds=2, hands_per_round=1, movement_kind="individual")
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_evening(actor=organiser, event=event)
    assert Movement.objects.get(event=event).status == Movement.Status.FAILED
    monkeypatch.setattr(movement_services, "compute_movement", working)
    event.refresh_from_db()
    return event


def page_url(event):
    return f"/console/events/{event.pk}/evening/"


def move_url(event):
    return f"/console/events/{event.pk}/evening/moves/retry-movement/"


def api_url(event):
    return f"/api/events/{event.pk}/evening/retry-movement/"


def seated(event):
    return Round.objects.get(event=event, number=1).state == Round.State.SEATED


def test_the_page_offers_try_again_and_it_seats_round_1(client, failed, organiser, django_capture_on_commit_callbacks):
    client.force_login(organiser)
    page = client.get(page_url(failed)).content.decode()
    assert "The movement could not be worked out:" in page and "no design" in page
    assert "Try again" in page and "move-retry-movement" in page
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(move_url(failed))
    assert answer.status_code == 302 and answer.url == page_url(failed)
    assert Movement.objects.get(event=failed).status == Movement.Status.READY and seated(failed)
    page = client.get(answer.url).content.decode()
    assert "The movement is being worked out again: round 1 will be seated in a moment." in page
    assert "Try again" not in page and "Start the clock of round 1" in page
    assert AuditEntry.objects.filter(event=failed, action="movement.retried").count() == 1


def test_try_again_from_htmx_swaps_the_evening(client, failed, organiser, django_capture_on_commit_callbacks):
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(move_url(failed), HTTP_HX_REQUEST="true")
    body = answer.content.decode()
    assert answer.status_code == 200 and 'id="evening"' in body and "Try again" not in body
    assert "The movement is being worked out again: round 1 will be seated in a moment." in body  # the message
    assert "The movement is being worked out (asked for at" in body  # the state, before the task ran
    assert Movement.objects.get(event=failed).status == Movement.Status.READY and seated(failed)


def test_no_try_again_while_the_movement_is_fine(client, failed, organiser, django_capture_on_commit_callbacks):
    Movement.objects.filter(event=failed).update(status=Movement.Status.PENDING, error="")
    client.force_login(organiser)
    page = client.get(page_url(failed)).content.decode()
    assert "Try again" not in page and "The movement is being worked out" in page
    answer = client.post(move_url(failed))
    assert answer.status_code == 409 and "The movement has not failed." in answer.content.decode()
    assert Movement.objects.get(event=failed).status == Movement.Status.PENDING


def test_the_page_refuses_anyone_but_the_clubs_organisers(client, failed, make_user, other_club):
    assert client.post(move_url(failed)).status_code == 302  # to the login page
    for outsider in (make_user("player"), other_club.organisers.get()):
        client.force_login(outsider)
        assert client.post(move_url(failed)).status_code == 403
    assert Movement.objects.get(event=failed).status == Movement.Status.FAILED


def test_the_api_retries_a_failed_movement(api, failed, organiser, django_capture_on_commit_callbacks):
    api.force_authenticate(organiser)
    state = api.get(f"/api/events/{failed.pk}/evening/").json()
    assert state["movement"]["status"] == "failed" and state["moves"] == ["retry-movement"]
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(api_url(failed))
    assert answer.status_code == 200
    assert answer.json()["movement"]["status"] == "pending"  # the state as the move left it, before the task
    assert Movement.objects.get(event=failed).status == Movement.Status.READY and seated(failed)
    assert api.get(f"/api/events/{failed.pk}/evening/").json()["moves"] == ["start-round"]


def test_the_api_answers_409_when_the_movement_has_not_failed(api, failed, organiser,
                                                              django_capture_on_commit_callbacks):
    api.force_authenticate(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(api_url(failed)).status_code == 200
    again = api.post(api_url(failed))
    assert again.status_code == 409 and again.json()["detail"] == "The movement has not failed."
    assert AuditEntry.objects.filter(event=failed, action="movement.retried").count() == 1


def test_the_api_refuses_anyone_but_the_clubs_organisers(api, failed, make_user, other_club):
    assert api.post(api_url(failed)).status_code == 403
    for outsider in (make_user("player"), other_club.organisers.get()):
        api.force_authenticate(outsider)
        answer = api.post(api_url(failed))
        assert answer.status_code == 403 and answer.json()["code"] == "forbidden"
    assert Movement.objects.get(event=failed).status == Movement.Status.FAILED
    assert not AuditEntry.objects.filter(event=failed, action="movement.retried").exists()


def test_the_service_refuses_a_player(failed, make_user):
    from drive.core.errors import Forbidden

    with pytest.raises(Forbidden):
        ev.retry_movement(actor=make_user(), event=failed)
    assert Movement.objects.get(event=failed).status == Movement.Status.FAILED
