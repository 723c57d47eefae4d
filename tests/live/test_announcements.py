"""The organiser's announcements and the chime on the room's screen: typed in
the console or through the API, on top of every open screen at once, until taken down."""
import pytest

from drive.core import broadcast
from drive.core.errors import Forbidden, Invalid
from drive.live.services import announcements
from drive.live.selectors.screen import chimes, screen_token
from drive.live.services import screen as screens
from drive.live.selectors import announcements as announcement_reads
from drive.live.selectors import screen as screen_reads
from drive.live.models import ANNOUNCEMENT_MAX, Announcement

pytestmark = pytest.mark.django_db


@pytest.fixture
def linked(evening, organiser):
    return screens.issue_screen_link(actor=organiser, event=evening)


@pytest.fixture
def sent(monkeypatch):
    """What the services announced on the channel layer: [(event id, kind), ...]."""
    calls = []
    monkeypatch.setattr(broadcast, "send_now", lambda event_id, kind, **data: calls.append((event_id, kind)))
    return calls


def screen_html(client, event):
    response = client.get(f"/screen/{screen_token(event)}/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


# --- services -------------------------------------------------------------------------------


def test_an_announcement_reaches_the_screen_on_top(client, organiser, linked, sent,
                                                   django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        made = announcements.announce(actor=organiser, event=linked, text="  Tea is   served\n in the side room ")
    assert made.text == "Tea is served in the side room"  # one line, spaces collapsed
    assert made.created_by == organiser
    assert (linked.pk, "announcements") in sent
    html = screen_html(client, linked)
    assert 'class="announcement"' in html and "Tea is served in the side room" in html
    assert html.index("Tea is served") < html.index("Standings")  # on top of the rest


def test_the_newest_two_are_shown_and_a_taken_down_one_goes(client, organiser, linked, sent,
                                                            django_capture_on_commit_callbacks):
    first = announcements.announce(actor=organiser, event=linked, text="First line")
    announcements.announce(actor=organiser, event=linked, text="Second line")
    announcements.announce(actor=organiser, event=linked, text="Third line")
    html = screen_html(client, linked)
    assert "Third line" in html and "Second line" in html and "First line" not in html
    assert html.index("Third line") < html.index("Second line")  # newest first
    third = Announcement.objects.get(text="Third line")
    with django_capture_on_commit_callbacks(execute=True):
        announcements.take_down(actor=organiser, announcement=third)
    assert (linked.pk, "announcements") in sent
    html = screen_html(client, linked)
    assert "Third line" not in html and "Second line" in html and "First line" in html
    assert [a.text for a in announcement_reads.current(event=linked)] == ["Second line", "First line"]
    assert Announcement.objects.filter(event=linked).count() == 3  # taken down, not deleted
    assert first.taken_down_at is None


def test_taking_down_twice_changes_nothing(organiser, linked, sent, django_capture_on_commit_callbacks):
    made = announcements.announce(actor=organiser, event=linked, text="Raffle at the interval")
    once = announcements.take_down(actor=organiser, announcement=made).taken_down_at
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        again = announcements.take_down(actor=organiser, announcement=made)
    assert again.taken_down_at == once
    assert sent == []


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_an_empty_announcement_is_refused(organiser, linked, text):
    with pytest.raises(Invalid) as refused:
        announcements.announce(actor=organiser, event=linked, text=text)
    assert refused.value.field == "text"
    assert not Announcement.objects.exists()


def test_a_too_long_announcement_is_refused(organiser, linked):
    announcements.announce(actor=organiser, event=linked, text="x" * ANNOUNCEMENT_MAX)
    with pytest.raises(Invalid):
        announcements.announce(actor=organiser, event=linked, text="x" * (ANNOUNCEMENT_MAX + 1))
    assert Announcement.objects.count() == 1


def test_only_the_clubs_organisers_announce_take_down_or_set_the_chime(organiser, linked, make_user, other_club):
    made = announcements.announce(actor=organiser, event=linked, text="Mine")
    rival = other_club.organisers.get()
    for who in (None, make_user("a-player"), rival):
        with pytest.raises(Forbidden):
            announcements.announce(actor=who, event=linked, text="Not yours")
        with pytest.raises(Forbidden):
            announcements.take_down(actor=who, announcement=made)
        with pytest.raises(Forbidden):
            screens.set_screen_chime(actor=who, event=linked, chime=True)
    made.refresh_from_db()
    linked.refresh_from_db()
    assert made.taken_down_at is None and not chimes(linked)
    assert Announcement.objects.count() == 1


def test_an_announcement_is_escaped_on_the_screen(client, organiser, linked):
    announcements.announce(actor=organiser, event=linked, text="<script>alert(1)</script> & co")
    html = screen_html(client, linked)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in html


# --- the chime ------------------------------------------------------------------------------


def test_the_chime_is_off_until_the_organiser_turns_it_on(client, organiser, linked, sent,
                                                          django_capture_on_commit_callbacks):
    assert "data-chime" not in screen_html(client, linked)
    with django_capture_on_commit_callbacks(execute=True):
        screens.set_screen_chime(actor=organiser, event=linked, chime=True)
    assert (linked.pk, "screen") in sent
    html = screen_html(client, linked)
    assert "data-chime" in html and 'data-round="' in html
    screens.set_screen_chime(actor=organiser, event=linked, chime=False)
    assert "data-chime" not in screen_html(client, linked)


# --- the console page -----------------------------------------------------------------------


def test_the_console_page_announces_takes_down_and_sets_the_chime(client, organiser, linked):
    client.force_login(organiser)
    page = f"/console/events/{linked.pk}/screen-link/"
    response = client.post(f"/console/events/{linked.pk}/announcements/", {"text": "Interval: ten minutes"}, follow=True)
    assert response.redirect_chain[-1][0] == page
    assert "Interval: ten minutes" in response.content.decode()
    made = Announcement.objects.get()
    assert "Interval: ten minutes" in screen_html(client, linked)

    response = client.post(f"/console/events/{linked.pk}/announcements/", {"text": "  "}, follow=True)
    assert "Type what the room should read." in response.content.decode()
    assert Announcement.objects.count() == 1

    client.post(f"/console/events/{linked.pk}/announcements/{made.pk}/take-down/")
    made.refresh_from_db()
    assert made.taken_down_at is not None
    assert "Interval: ten minutes" not in screen_html(client, linked)

    client.post(f"/console/events/{linked.pk}/screen-link/chime/", {"chime": "on"})
    linked.refresh_from_db()
    assert chimes(linked)
    client.post(f"/console/events/{linked.pk}/screen-link/chime/", {})
    linked.refresh_from_db()
    assert not chimes(linked)


def test_the_console_page_refuses_others(client, make_user, linked, organiser):
    made = announcements.announce(actor=organiser, event=linked, text="Keep")
    client.force_login(make_user("nosy"))
    assert client.post(f"/console/events/{linked.pk}/announcements/", {"text": "Hi"}).status_code == 403
    assert client.post(f"/console/events/{linked.pk}/announcements/{made.pk}/take-down/").status_code == 403
    assert client.post(f"/console/events/{linked.pk}/screen-link/chime/", {"chime": "on"}).status_code == 403
    assert Announcement.objects.count() == 1
    made.refresh_from_db()
    assert made.taken_down_at is None
    # another event's announcement is not found through this event
    assert client.post(f"/console/events/{linked.pk + 999}/announcements/{made.pk}/take-down/").status_code == 404


# --- the API --------------------------------------------------------------------------------


def test_the_api_does_what_the_page_does(api, organiser, evening):
    api.force_authenticate(organiser)
    base = f"/api/events/{evening.pk}"
    state = api.get(f"{base}/screen/").json()
    assert state == {"url": None, "chime": False, "announcements": []}

    made = api.post(f"{base}/screen/link/")
    assert made.status_code == 201
    url = made.json()["url"]
    evening.refresh_from_db()
    assert url.endswith(f"/screen/{screen_token(evening)}/")

    assert api.patch(f"{base}/screen/", {"chime": True}, format="json").json()["chime"] is True
    said = api.post(f"{base}/announcements/", {"text": "Last round!"}, format="json")
    assert said.status_code == 201 and said.json()["text"] == "Last round!" and said.json()["on_screen"] is True
    assert [a["text"] for a in api.get(f"{base}/screen/").json()["announcements"]] == ["Last round!"]

    assert api.delete(f"{base}/announcements/{said.json()['id']}/").status_code == 204
    assert api.get(f"{base}/screen/").json()["announcements"] == []
    assert api.delete(f"{base}/screen/link/").status_code == 204
    assert api.get(f"{base}/screen/").json()["url"] is None


def test_the_api_gives_clear_errors(api, organiser, evening, make_user):
    base = f"/api/events/{evening.pk}"
    api.force_authenticate(organiser)
    empty = api.post(f"{base}/announcements/", {"text": ""}, format="json")
    assert empty.status_code == 400 and "text" in empty.json()
    long = api.post(f"{base}/announcements/", {"text": "x" * (ANNOUNCEMENT_MAX + 1)}, format="json")
    assert long.status_code == 400 and "text" in long.json()
    assert api.patch(f"{base}/screen/", {"chime": "loud"}, format="json").status_code == 400
    assert api.delete(f"{base}/announcements/987654/").status_code == 404
    assert api.get("/api/events/987654/screen/").status_code == 404

    made = api.post(f"{base}/announcements/", {"text": "Stay"}, format="json").json()
    api.force_authenticate(make_user("player-x"))
    assert api.get(f"{base}/screen/").status_code == 403
    assert api.post(f"{base}/screen/link/").status_code == 403
    assert api.delete(f"{base}/screen/link/").status_code == 403
    assert api.patch(f"{base}/screen/", {"chime": True}, format="json").status_code == 403
    assert api.post(f"{base}/announcements/", {"text": "Hi"}, format="json").status_code == 403
    assert api.delete(f"{base}/announcements/{made['id']}/").status_code == 403
    api.force_authenticate(None)
    assert api.post(f"{base}/announcements/", {"text": "Hi"}, format="json").status_code in (401, 403)
    assert [a.text for a in Announcement.objects.all()] == ["Stay"]


def test_announcements_take_their_room_from_the_lists(organiser, linked, settings):
    """All sizes follow the screen's height: each announcement on top leaves room for two
    standings lines fewer (three when it wraps), so no line is cut off at the bottom."""
    from drive.events.models import Player
    from drive.movements.models import Entrant
    from drive.scoring.models import Standing

    from django.utils import timezone

    settings.SCREEN_LINES_PER_PAGE = 10
    Entrant.objects.bulk_create(
        Entrant(event=linked, player=Player.objects.create(display_name=f"Extra {n}"), number=n) for n in range(10, 15))
    for entrant in Entrant.objects.filter(event=linked):  # 14 entrants
        Standing.objects.create(event=linked, entrant=entrant, place=entrant.number, total=20 - entrant.number,
                                hands_played=2, hands_won=1, computed_at=timezone.now())

    def page_sizes():
        return [len(page) for page in screens.screen_state(event=linked)["line_pages"]]

    assert page_sizes() == [10, 4]
    announcements.announce(actor=organiser, event=linked, text="Raffle at nine")
    assert page_sizes() == [8, 6]
    announcements.announce(actor=organiser, event=linked, text="A long line that wraps: " + "x" * 40)
    assert screen_reads.lines_taken(notes=announcement_reads.on_screen(event=linked)) == 5
    assert page_sizes() == [5, 5, 4]
