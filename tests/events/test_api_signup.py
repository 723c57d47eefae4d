"""Sign-up through the API: the site's password rules (Django's validators) give a 400
with the message on `password`, together with any other field's; the password is kept
as typed, so the token endpoint takes it back."""
import pytest
from django.contrib.auth import get_user_model

from drive.core.errors import Invalid
from drive.events.services import accounts as account_services

pytestmark = pytest.mark.django_db
URL = "/api/auth/signup/"
GOOD = "Whist-drive-2026!"


def sign_up(api, **fields):
    return api.post(URL, {"username": "ivan", "password": GOOD, "display_name": "Ivan", **fields}, format="json")


@pytest.mark.parametrize("password, says", [
    ("short", "too short"),
    ("1234567890123", "entirely numeric"),
    ("password123", "too common"),
    ("vasilisa1", "too similar to the username"),
    ("ivan@example.org", "too similar to the email address"),
    ("", "may not be blank"),
])
def test_a_weak_password_is_a_field_message(api, password, says):
    response = sign_up(api, username="vasilisa", password=password, email="ivan@example.org")
    assert response.status_code == 400, response.content
    assert set(response.json()) == {"password"}
    assert any(says in message for message in response.json()["password"]), response.json()
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize("other", [{"username": "not a username!"}, {"display_name": ""}, {"email": "nope"}])
def test_a_weak_password_is_reported_with_the_other_fields(api, other):
    response = sign_up(api, password="short", **other)
    assert response.status_code == 400
    assert {"password", *other} == set(response.json()), response.json()
    assert "too short" in response.json()["password"][0]


def test_the_password_is_kept_as_typed(api):
    spaced = f"  {GOOD}  "
    assert sign_up(api, password=spaced).status_code == 201
    assert api.post("/api/auth/token/", {"username": "ivan", "password": spaced}, format="json").status_code == 200
    assert api.post("/api/auth/token/", {"username": "ivan", "password": GOOD}, format="json").status_code == 400


def test_a_good_password_signs_up(api):
    response = sign_up(api)
    assert response.status_code == 201 and response.json()["token"]
    assert get_user_model().objects.get().check_password(GOOD)


def test_the_service_checks_the_password_too():
    with pytest.raises(Invalid) as refused:
        account_services.sign_up(username="ivan", password="short", display_name="Ivan")
    assert refused.value.field == "password" and "too short" in refused.value.message
    assert not get_user_model().objects.exists()


def test_the_schema_documents_the_refusal(api):
    operation = api.get("/api/schema/?format=json").json()["paths"][URL]["post"]
    assert {"201", "400"} <= set(operation["responses"])
