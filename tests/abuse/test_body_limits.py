"""JSON depth and body size: ten thousand nested `[` gave a 500 on
every JSON endpoint, the login included; a 10 MB body got an HTML 400 under /api/. Now
both are a JSON 400 with `detail` and `code`, and a page answers a huge body with 400."""
import json

import pytest
from rest_framework.authtoken.models import Token

from drive.core.limits import JSON_MAX_DEPTH, depth

pytestmark = pytest.mark.django_db
DEEP = "[" * 10_000 + "]" * 10_000
TEN_MB = 10 * 1024 * 1024


def nested(levels):
    return "[" * (levels - 1) + "{}" + "]" * (levels - 1)


def json_endpoints(client):
    """Every operation of the API schema that takes a body, with ids filled in."""
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method in {"post", "put", "patch"} and "requestBody" in operation:
                url = path.replace("{event_id}", "1").replace("{registration_id}", "1").replace("{token}", "x")
                yield method, url


def test_the_login_answers_deep_json_with_a_json_400(client):
    response = client.post("/api/auth/token/", DEEP, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "too_deep" and response.json()["detail"]


@pytest.mark.parametrize("as_organiser", [False, True])
def test_deep_json_is_never_a_server_error_on_any_endpoint(client, organiser, event, as_organiser):
    headers = {"HTTP_AUTHORIZATION": f"Token {Token.objects.create(user=organiser).key}"} if as_organiser else {}
    checked = 0
    for method, url in json_endpoints(client):
        response = client.generic(method.upper(), url, DEEP, content_type="application/json", **headers)
        assert response.status_code < 500, (method, url)
        assert response["Content-Type"].startswith("application/json"), (method, url)
        checked += 1
    assert checked >= 10


def test_one_level_past_the_limit_is_refused_and_the_limit_itself_is_read(client):
    too_deep = client.post("/api/auth/signup/", nested(JSON_MAX_DEPTH + 1), content_type="application/json")
    assert too_deep.status_code == 400 and too_deep.json()["code"] == "too_deep"
    at_limit = client.post("/api/auth/signup/", json.dumps({"username": nested(JSON_MAX_DEPTH - 1)}),
                           content_type="application/json")
    assert at_limit.status_code == 400 and "code" not in at_limit.json()  # field messages: it was read
    assert "username" in at_limit.json()


def test_a_10_mb_body_on_the_api_is_a_json_400(client):
    body = json.dumps({"username": "x" * TEN_MB, "password": "y"})
    response = client.post("/api/auth/token/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"detail": "The request is too large.", "code": "too_large"}
    form = client.post("/api/auth/signup/", "username=" + "x" * TEN_MB, content_type="application/x-www-form-urlencoded")
    assert form.status_code == 400 and form.json()["code"] == "too_large"


def test_the_parser_reads_no_more_than_the_limit_even_when_the_length_says_less(settings):
    """A body longer than its Content-Length claims: the parser still stops at the limit."""
    import io

    from drive.core.errors import Invalid
    from drive.core.limits import BoundedJSONParser

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    with pytest.raises(Invalid) as refused:
        BoundedJSONParser().parse(io.BytesIO(b'"' + b"x" * 5000 + b'"'))
    assert refused.value.code == "too_large"


def test_a_huge_body_on_a_page_is_a_400_page(client):
    response = client.post("/accounts/login/", "username=" + "x" * TEN_MB, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


def test_a_body_within_the_limits_still_works(client, make_user):
    make_user("alice")
    response = client.post("/api/auth/token/", {"username": "alice", "password": "pw-Whist-2026"},
                           content_type="application/json")
    assert response.status_code == 200 and response.json()["token"]


@pytest.mark.parametrize("value, expected", [(1, 0), ([], 1), ({"a": [1, {"b": []}]}, 4), ([[[]], []], 3)])
def test_depth(value, expected):
    assert depth(value) == expected
