"""Names: zero-width, control and format characters, and names blank
once stripped of them, are refused with a field message everywhere a name comes in:
the services, the API (sign-up, walk-in) and the pages (sign-up, walk-in)."""
import pytest
from django.test import Client

from drive.core.errors import Invalid
from drive.events.services import accounts as account_services
from drive.events.services import arrivals as arrival_services
from drive.core.names import name_problem

pytestmark = pytest.mark.django_db
BAD = ["\u200b", "Ann\u200bA", "\u200c\u200d", "A\u200eB", "\u2060", "\ufeffBob", "A\u202eB", "A\nB", "A\x00B",
       "A\u2028B", "A\u2029B", "\u3164", "  \u00a0 ", "\u115f\u1160"]
GOOD = ["Zoë O'Brien", "Анна Петрівна", "李小龍", "José-María", "=SUM(A1)", "Mary  Jones"]


@pytest.mark.parametrize("name", BAD)
def test_bad_names_are_refused(name):
    assert name_problem(name)


@pytest.mark.parametrize("name", GOOD)
def test_real_names_pass(name):
    assert name_problem(name) is None


@pytest.mark.parametrize("name", BAD)
def test_the_walk_in_service_refuses_them(organiser, event, name):
    with pytest.raises(Invalid) as refused:
        arrival_services.add_walk_in(actor=organiser, event=event, display_name=name)
    assert refused.value.field == "display_name"


def test_the_sign_up_service_refuses_them_in_display_names_and_usernames():
    with pytest.raises(Invalid) as refused:
        account_services.sign_up(username="bob", password="Whist-drive-2026!", display_name="Bo\u200bb")
    assert refused.value.field == "display_name"
    with pytest.raises(Invalid) as refused:
        account_services.sign_up(username="bo\u200bb", password="Whist-drive-2026!", display_name="Bob")
    assert refused.value.field == "username"


@pytest.mark.parametrize("name", ["\u200b\u200b", "Ann\u200dA", "A\u202eB", "\u3164"])
def test_the_api_answers_400_with_the_field(api, organiser, event, name):
    signup = api.post("/api/auth/signup/", {"username": "newbie", "password": "Whist-drive-2026!", "display_name": name},
                      format="json")
    assert signup.status_code == 400 and "display_name" in signup.json()
    api.force_authenticate(organiser)
    walk_in = api.post(f"/api/events/{event.pk}/walk-ins/", {"display_name": name}, format="json")
    assert walk_in.status_code == 400 and "display_name" in walk_in.json()


def test_the_api_refuses_a_zero_width_username(api):
    signup = api.post("/api/auth/signup/", {"username": "bo\u200bb", "password": "Whist-drive-2026!", "display_name": "Bob"},
                      format="json")
    assert signup.status_code == 400 and "username" in signup.json()


def test_the_pages_refuse_them_with_the_message(organiser, event):
    client = Client()
    page = client.post("/accounts/signup/", {"username": "newbie", "display_name": "\u200b", "password1": "Whist-drive-2026!",
                                             "password2": "Whist-drive-2026!"})
    assert page.status_code == 200 and "invisible or control characters" in page.content.decode()
    client.force_login(organiser)
    client.post(f"/console/events/{event.pk}/walk-in/", {"display_name": "A\u200bB"})
    assert not event.registrations.filter(walk_in=True).exists()


def test_real_names_are_accepted_by_the_api(api, organiser, event):
    api.force_authenticate(organiser)
    for name in GOOD:
        assert api.post(f"/api/events/{event.pk}/walk-ins/", {"display_name": name}, format="json").status_code == 201
