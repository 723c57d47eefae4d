"""One tap to play: the navigation and the home page lead to online play; "Play now" (on
the home page and in the lobby) starts short whist with three robots, the player North,
from `/` in two taps (the page, the button) and answers a limit's 429 with its sentence;
"My evening" and the event page link a player to their online table of the round in
play; a signed-out invitee's login page says whose table it is and brings them back to
it, where an open seat is theirs in one tap."""
import re
from html import unescape

import pytest
from django.test import Client

from drive.games.models import PlayTable
from drive.games.services import tables
from drive.scoring.services import online_tables as evening
from drive.scoring.services import evening as ev
from tests.play.evening_kit import seated_evening, user_of

pytestmark = pytest.mark.django_db


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def form_named(page: str, button: str) -> tuple[str, dict[str, str]]:
    """The action and the fields of the form whose submit button says `button`."""
    for form in re.findall(r"<form\b.*?</form>", page, flags=re.S):
        if re.search(rf"<button[^>]*>\s*{re.escape(button)}\s*</button>", form):
            action = unescape(re.search(r'action="([^"]*)"', form).group(1))
            fields = dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form))
            return action, fields
    raise AssertionError(f"no form with a button {button!r}")


def test_the_navigation_leads_to_online_play(client, make_user):
    assert 'href="/play/"' in client.get("/").content.decode()
    page = signed_in(make_user()).get("/me/").content.decode()
    assert 'href="/play/"' in page


@pytest.mark.parametrize("start", ["/", "/play/"])
def test_play_now_starts_short_whist_with_three_robots_in_two_taps_from_the_page(make_user, start):
    me = make_user("tap")
    client = signed_in(me)
    page = client.get(start)  # tap 0: the page is open
    action, fields = form_named(page.content.decode(), "Play now")
    answer = client.post(action, fields)  # tap 1
    table = PlayTable.objects.get(created_by=me)
    assert answer.status_code == 302 and answer["Location"] == f"/play/{table.pk}/"
    assert table.rules == "short" and table.event_id is None
    assert {s.seat: (s.user_id, s.robot) for s in table.seats.all()} == {
        "N": (me.pk, ""), "E": (None, "rules"), "S": (None, "rules"), "W": (None, "rules")}
    game = client.get(answer["Location"])  # the game is there
    assert game.status_code == 200 and 'id="play-view"' in game.content.decode()


def test_play_now_answers_the_limits_429_with_its_sentence(settings, make_user):
    settings.PLAY_TABLES_ALIVE_PER_USER = 1
    me = make_user()
    client = signed_in(me)
    action, fields = form_named(client.get("/").content.decode(), "Play now")
    assert client.post(action, fields).status_code == 302
    refused = client.post(action, fields)
    assert refused.status_code == 429
    assert "unfinished tables allowed (1)" in refused.content.decode()
    assert PlayTable.objects.filter(created_by=me).count() == 1


def test_my_evening_and_the_event_page_link_to_the_players_online_table(make_event, organiser,
                                                                       django_capture_on_commit_callbacks):
    event = seated_evening(make_event)
    evening.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[1])
    with django_capture_on_commit_callbacks(execute=True):
        ev.start_round(actor=organiser, event=event)
    online = PlayTable.objects.get(event=event, table_number=1)
    at_online, on_paper = signed_in(user_of(event, 1)), signed_in(user_of(event, 5))  # tables 1 and 2
    for url in (f"/events/{event.pk}/my-evening/", f"/events/{event.pk}/"):
        assert f'href="/play/{online.pk}/"' in at_online.get(url).content.decode(), url
        assert "/play/" not in re.sub(r'href="/play/"', "", on_paper.get(url).content.decode()), url


def test_a_signed_out_invitee_is_told_whose_table_it_is_and_sits_in_one_tap_after_signing_in(make_user):
    host = make_user("ann", first_name="Ann", last_name="Host")
    table = tables.create_table(user=host, rules="short", robots={"E": "rules", "W": "rules"})  # S open
    link = f"/play/{table.pk}/?invite={table.invite}"
    guest = Client()
    to_login = guest.get(link)
    assert to_login.status_code == 302 and to_login["Location"].startswith("/accounts/login/?next=")
    login = guest.get(to_login["Location"]).content.decode()
    assert "Ann Host invites you to a table of short whist, to 5 points." in login
    next_url = unescape(re.search(r'name="next" value="([^"]*)"', login).group(1))
    assert next_url == link
    invitee = make_user("bob")
    back = guest.post(to_login["Location"], {"username": "bob", "password": "pw-Whist-2026", "next": next_url})
    assert back.status_code == 302 and back["Location"] == link  # brought back to the table
    page = guest.get(link).content.decode()
    action, fields = form_named(page, "Sit at S")
    guest.post(action, fields)  # one tap
    assert table.seats.get(seat="S").user == invitee


def test_the_login_page_says_nothing_for_a_wrong_invitation(client, make_user):
    table = tables.create_table(user=make_user("ann"), rules="short", robots={"E": "rules", "W": "rules"})
    login = client.get(f"/accounts/login/?next=/play/{table.pk}/%3Finvite%3Dnot-the-secret").content.decode()
    assert "invites you" not in login
