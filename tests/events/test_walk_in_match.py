"""One player across evenings, at the door: the organiser adding a walk-in finds the club's
players by name (any case, any part, Cyrillic too) and checks one in as themselves, so the
evening is on the same player record as the ones before."""
from datetime import timedelta

import pytest
from django.utils import timezone

from drive.core.errors import Conflict, Forbidden, Invalid
from drive.events.models import AuditEntry, Player, Registration
from drive.events.selectors.events import find_club_players, name_key
from drive.events.services import arrivals
from drive.events.services.accounts import player_for_user

pytestmark = pytest.mark.django_db
Status = Registration.Status


@pytest.fixture
def known(club, organiser, make_event):
    """The club's players from evenings before: walk-ins, and an account that registered."""
    before = make_event(starts_at=timezone.now() - timedelta(days=7), title="Last week")
    names = ["Ada Lovelace", "Bob Babbage", "Ада Лавлейс", "Алёна Петрова"]
    players = {name: arrivals.add_walk_in(actor=organiser, event=before, display_name=name).player for name in names}
    return players


def names(matches):
    return [match["name"] for match in matches]


def test_the_search_is_case_insensitive_and_partial(club, known):
    assert names(find_club_players(club, "ada")) == ["Ada Lovelace"]
    assert names(find_club_players(club, "LOVE")) == ["Ada Lovelace"]
    assert names(find_club_players(club, "  bab ")) == ["Bob Babbage"]
    assert names(find_club_players(club, "lovelace ada")) == ["Ada Lovelace"]  # every word, any order
    assert names(find_club_players(club, "xyz")) == [] and find_club_players(club, "   ") == []


def test_cyrillic_names_fold_their_case_too(club, known):
    # SQLite's LIKE folds ASCII only: the search folds in Python, Unicode-wide.
    assert names(find_club_players(club, "АДА")) == ["Ада Лавлейс"]
    assert names(find_club_players(club, "лавл")) == ["Ада Лавлейс"]
    assert names(find_club_players(club, "алена")) == ["Алёна Петрова"]  # ё as е
    assert name_key("  Алёна   ПЕТРОВА ") == "алена петрова"


def test_names_starting_with_it_come_first_and_the_list_is_short(club, organiser, make_event, known):
    event = make_event()
    for n in range(12):
        arrivals.add_walk_in(actor=organiser, event=event, display_name=f"Zed Ada {n:02}")
    found = names(find_club_players(club, "ada"))
    assert found[0] == "Ada Lovelace" and len(found) == 8


def test_only_the_clubs_players_and_its_registered_accounts(club, other_club, make_user, event, known):
    from drive.events.models import Event
    from drive.events.services.registration import register

    rival = Event.objects.create(club=other_club, title="Rival drive", starts_at=timezone.now() + timedelta(days=3),
                                 capacity=8, published=True)
    arrivals.add_walk_in(actor=other_club.organisers.get(), event=rival, display_name="Ada Rival")
    user = make_user("ada-account", first_name="Ada", last_name="Account")
    register(actor=user, event=rival)  # an account seen at the other club only
    assert names(find_club_players(club, "ada")) == ["Ada Lovelace"]
    register(actor=user, event=event)
    found = find_club_players(club, "ada")
    assert names(found) == ["Ada Account", "Ada Lovelace"]
    assert found[0]["account"] is True and found[1]["account"] is False


def test_a_match_says_what_it_knows(club, organiser, make_event, known):
    event = make_event()
    (match,) = find_club_players(club, "lovelace", event=event)
    assert (match["evenings"], match["here"]) == (1, None)
    assert match["last_seen"] is not None
    arrivals.add_walk_in(actor=organiser, event=event, player=known["Ada Lovelace"])
    (match,) = find_club_players(club, "lovelace", event=event)
    assert (match["evenings"], match["here"], match["here_label"]) == (2, "checked_in", "checked in")


def test_a_known_walk_in_is_checked_in_as_the_same_player(organiser, make_event, known):
    ada = known["Ada Lovelace"]
    event = make_event()
    players_before = Player.objects.count()
    registration = arrivals.add_walk_in(actor=organiser, event=event, player=ada, display_name="ignored")
    assert registration.player_id == ada.pk and registration.status == Status.CHECKED_IN and registration.walk_in
    assert Player.objects.count() == players_before  # no second record
    entry = AuditEntry.objects.filter(action="registration.walk_in_added", event=event).get()
    assert entry.after["player"] == ada.pk and entry.after["display_name"] == "Ada Lovelace" and entry.before is None


def test_checked_in_twice_is_a_conflict(organiser, make_event, known):
    event = make_event()
    arrivals.add_walk_in(actor=organiser, event=event, player=known["Ada Lovelace"])
    with pytest.raises(Conflict):
        arrivals.add_walk_in(actor=organiser, event=event, player=known["Ada Lovelace"])


@pytest.mark.parametrize("status", [Status.REGISTERED, Status.WAITLISTED, Status.CANCELLED, Status.NO_SHOW])
def test_their_own_registration_of_the_evening_is_the_one_checked_in(organiser, make_event, known, status):
    event = make_event()
    ada = known["Ada Lovelace"]
    mine = Registration.objects.create(event=event, player=ada, status=status, registered_at=timezone.now(),
                                       waitlist_position=1 if status == Status.WAITLISTED else None)
    registration = arrivals.add_walk_in(actor=organiser, event=event, player=ada)
    assert registration.pk == mine.pk
    mine.refresh_from_db()
    assert (mine.status, mine.waitlist_position, mine.cancelled_at) == (Status.CHECKED_IN, None, None)
    entry = AuditEntry.objects.get(action="registration.walk_in_added", event=event)
    assert entry.before == {"status": status} and entry.after["status"] == Status.CHECKED_IN


def test_a_category_told_at_the_door_fills_an_empty_one_only(organiser, make_event, known):
    ada = known["Ada Lovelace"]
    arrivals.add_walk_in(actor=organiser, event=make_event(), player=ada, category="lady")
    ada.refresh_from_db()
    assert ada.category == "lady"
    arrivals.add_walk_in(actor=organiser, event=make_event(), player=ada, category="gent")
    ada.refresh_from_db()
    assert ada.category == "lady"


def test_another_clubs_player_is_refused(organiser, make_event, other_club):
    stranger = Player.objects.create(display_name="Ada Elsewhere", club=other_club)
    with pytest.raises(Invalid) as err:
        arrivals.add_walk_in(actor=organiser, event=make_event(), player=stranger)
    assert err.value.field == "player"
    account = player_for_user(user=type(organiser).objects.create_user("loner", password="x-Whist-2026"))
    with pytest.raises(Invalid):  # an account never seen at the club
        arrivals.add_walk_in(actor=organiser, event=make_event(), player=account)
    assert not Registration.objects.filter(player__in=[stranger, account]).exists()


@pytest.mark.parametrize("who", ["player", "other organiser"])
def test_only_the_clubs_organisers_check_a_known_player_in(make_event, make_user, other_club, known, who):
    actor = make_user("someone") if who == "player" else other_club.organisers.get()
    event = make_event()
    with pytest.raises(Forbidden):
        arrivals.add_walk_in(actor=actor, event=event, player=known["Ada Lovelace"])
    assert not event.registrations.exists()


# --- the console ---------------------------------------------------------------------------


@pytest.fixture
def console(client, organiser):
    client.force_login(organiser)
    return client


def test_the_console_finds_them_with_htmx(console, make_event, known):
    event = make_event()
    response = console.get(f"/console/events/{event.pk}/walk-in/players/", {"q": "love"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.startswith('<div id="walk-in-matches"') and "Ada Lovelace" in html and "Bob" not in html
    assert f'name="player" value="{known["Ada Lovelace"].pk}"' in html
    nobody = console.get(f"/console/events/{event.pk}/walk-in/players/", {"q": "zz"}, HTTP_HX_REQUEST="true")
    assert "No player of the club has “zz” in their name" in nobody.content.decode()


def test_the_console_finds_them_without_script(console, make_event, known):
    event = make_event()
    page = console.get(f"/console/events/{event.pk}/")
    assert f'action="/console/events/{event.pk}/walk-in/players/#walk-in"' in page.content.decode()
    response = console.get(f"/console/events/{event.pk}/walk-in/players/", {"q": "ADA"})
    html = response.content.decode()
    assert response.status_code == 200 and "Add and check in" in html and "Ada Lovelace" in html
    assert 'value="ADA"' in html


def test_the_console_checks_the_one_picked_in(console, make_event, known):
    event = make_event()
    ada = known["Ada Lovelace"]
    response = console.post(f"/console/events/{event.pk}/walk-in/", {"player": ada.pk}, follow=True)
    assert response.status_code == 200
    assert "Ada Lovelace is checked in, with their evenings before." in response.content.decode()
    assert event.registrations.get().player_id == ada.pk
    again = console.post(f"/console/events/{event.pk}/walk-in/", {"player": ada.pk}, follow=True)
    assert "Ada Lovelace is checked in already." in again.content.decode()
    bad = console.post(f"/console/events/{event.pk}/walk-in/", {"player": "99999999999"}, follow=True)
    assert "Choose one of the club&#x27;s players." in bad.content.decode()
    assert event.registrations.count() == 1


def test_the_console_search_is_the_organisers(client, make_user, make_event, other_club, known):
    event = make_event()
    client.force_login(other_club.organisers.get())
    assert client.get(f"/console/events/{event.pk}/walk-in/players/", {"q": "ada"}).status_code == 403
    assert client.post(f"/console/events/{event.pk}/walk-in/", {"player": known["Ada Lovelace"].pk}).status_code == 403
    client.force_login(make_user("player"))
    assert client.get(f"/console/events/{event.pk}/walk-in/players/", {"q": "ada"}).status_code == 403
    client.logout()
    assert client.get(f"/console/events/{event.pk}/walk-in/players/", {"q": "ada"}).status_code == 302
    assert not event.registrations.exists()


# --- the API -----------------------------------------------------------------------------------


def test_the_api_checks_a_known_player_in(api, organiser, make_event, known):
    api.force_authenticate(organiser)
    event = make_event()
    ada = known["Ada Lovelace"]
    response = api.post(f"/api/events/{event.pk}/walk-ins/", {"player": ada.pk}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["player"]["id"] == ada.pk
    assert api.post(f"/api/events/{event.pk}/walk-ins/", {"player": ada.pk}, format="json").status_code == 409
    unknown = api.post(f"/api/events/{event.pk}/walk-ins/", {"player": 2 ** 31 - 1}, format="json")
    assert unknown.status_code == 400 and "player" in unknown.json()
    assert api.post(f"/api/events/{event.pk}/walk-ins/", {"player": 2 ** 40}, format="json").status_code == 400
    assert api.post(f"/api/events/{event.pk}/walk-ins/", {}, format="json").json() == {
        "display_name": ["Enter the player's name."]}


def test_the_api_finds_the_clubs_players(api, organiser, club, other_club, make_user, known):
    api.force_authenticate(organiser)
    response = api.get(f"/api/clubs/{club.pk}/players/", {"q": "ada"})
    assert response.status_code == 200
    assert [(m["id"], m["name"], m["account"], m["evenings"]) for m in response.json()] == [
        (known["Ada Lovelace"].pk, "Ada Lovelace", False, 1)]
    api.force_authenticate(other_club.organisers.get())
    assert api.get(f"/api/clubs/{club.pk}/players/", {"q": "ada"}).status_code == 403
    api.force_authenticate(make_user("player"))
    assert api.get(f"/api/clubs/{club.pk}/players/", {"q": "ada"}).status_code == 403
    api.force_authenticate(None)
    assert api.get(f"/api/clubs/{club.pk}/players/", {"q": "ada"}).status_code == 403
    api.force_authenticate(organiser)
    assert api.get("/api/clubs/999999/players/", {"q": "ada"}).status_code == 404
