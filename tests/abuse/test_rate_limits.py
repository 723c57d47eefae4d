"""Rate limits: every login, sign-up and token route and result entry
answers 429 past its rate, keyed on the real client address: a new X-Forwarded-For per
request does not reset the count; behind trusted proxies the proxy's entry counts."""
import pytest
from django.test import Client
from rest_framework.throttling import SimpleRateThrottle

from drive.core.client import client_address
from tests import seats
from tests.scoring.conftest import evening, table1  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db
LOGIN_RATE = 20  # settings: "login": "20/minute"
TOKEN_RATE = 30  # "token": "30/minute" misses


@pytest.fixture
def rates(monkeypatch):
    """Known rates (DRF binds its rates when it is imported, not from `settings`), and the
    throttles' clock stopped: a test's requests fall in one minute however slow the machine
    (150 entries once took 61 s on a loaded one, and the first had left the window)."""
    monkeypatch.setattr(SimpleRateThrottle, "timer", staticmethod(lambda: 1_800_000_000.0))
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {
        **SimpleRateThrottle.THROTTLE_RATES, "login": f"{LOGIN_RATE}/minute", "token": f"{TOKEN_RATE}/minute",
        "signup": "5/hour", "results": "150/minute"})


def spoofed(n):
    """A new X-Forwarded-For value every request, as a brute-forcer would send."""
    return {"HTTP_X_FORWARDED_FOR": f"10.9.{n // 250}.{n % 250}"}


def html_login(client, n, path="/accounts/login/"):
    return client.post(path, {"username": "organiser", "password": f"guess-{n}"}, **spoofed(n))


def api_login(client, n):
    return client.post("/api/auth/token/", {"username": "organiser", "password": f"guess-{n}"},
                       content_type="application/json", **spoofed(n))


@pytest.mark.parametrize("attempt", [html_login, lambda c, n: html_login(c, n, "/admin/login/"), api_login],
                         ids=["html", "admin", "api"])
def test_failed_logins_past_the_rate_are_429_on_every_login_route(rates, organiser, attempt):
    client = Client()
    answers = [attempt(client, n).status_code for n in range(LOGIN_RATE)]
    assert 429 not in answers
    assert attempt(client, LOGIN_RATE).status_code == 429
    # the right password is refused too until the minute is over: the address is held back
    assert client.post("/accounts/login/", {"username": "organiser", "password": "pw-Whist-2026"}).status_code == 429


def test_html_and_api_logins_share_one_count_per_address(rates, organiser):
    client = Client()
    for n in range(LOGIN_RATE // 2):
        html_login(client, n)
        api_login(client, n)
    assert html_login(client, 99).status_code == 429


def test_successful_logins_do_not_count(rates, organiser):
    """A hall of players behind one address logging in is not slowed down."""
    for _ in range(LOGIN_RATE + 5):
        assert Client().post("/accounts/login/", {"username": "organiser", "password": "pw-Whist-2026"}).status_code == 302


def test_html_signup_past_the_rate_is_429(rates):
    client = Client()
    for n in range(5):
        client.post("/accounts/signup/", {"username": f"u{n}", "display_name": "X"}, **spoofed(n))
    assert client.post("/accounts/signup/", {"username": "u9"}, **spoofed(9)).status_code == 429


def test_api_signup_past_the_rate_is_429_whatever_x_forwarded_for_says(rates, api):
    body = {"username": "x", "password": "short", "display_name": "X"}
    for n in range(5):
        assert api.post("/api/auth/signup/", body, format="json", **spoofed(n)).status_code == 400
    assert api.post("/api/auth/signup/", body, format="json", **spoofed(77)).status_code == 429


@pytest.mark.parametrize("path", ["/t/{}/", "/t/{}/panel/", "/api/tables/{}/", "/screen/{}/"])
def test_guessing_tokens_is_429_after_the_misses_rate(rates, table1, path):  # noqa: F811
    client = Client()
    for n in range(TOKEN_RATE):
        assert client.get(path.format(f"guess{n}"), **spoofed(n)).status_code == 404
    assert client.get(path.format("guess-last"), **spoofed(999)).status_code == 429
    assert client.get(path.format(table1.token)).status_code == 429  # even a right one, for a while
    assert Client(REMOTE_ADDR="192.0.2.50").get(f"/t/{table1.token}/").status_code == 200  # others are not held


def test_a_table_s_own_phones_are_never_held_back_by_hits(rates, table1):  # noqa: F811
    client = Client()
    for _ in range(TOKEN_RATE + 10):
        assert client.get(f"/t/{table1.token}/panel/").status_code == 200


def test_door_code_guessing_is_429(rates, make_user, event):
    client = Client()
    client.force_login(make_user("guesser"))
    for n in range(TOKEN_RATE):
        assert client.get(f"/events/{event.pk}/door/code{n}/").status_code == 404
    assert client.get(f"/events/{event.pk}/door/{event.door_code}/").status_code == 429


def test_result_entry_is_generous_for_a_table_and_stops_a_flood(settings, rates, table1):  # noqa: F811
    """4 phones x 24 hands within the minute pass; past the rate, 429 (the API and the page)."""
    url = f"/api/tables/{table1.token}/results/"
    client = Client()
    body = {"seat": "N", "hand_number": 1, "ns_tricks": 7, "trump": "H"}
    north = {"HTTP_X_SEAT_CLAIM": seats.claim(table1, "N")}  # a real entry from North's claimed seat
    answers = [client.post(url, body, content_type="application/json", **north).status_code for _ in range(4 * 24)]
    assert 429 not in answers and set(answers) <= {200, 201}
    for _ in range(150 - 4 * 24):
        client.post(url, body, content_type="application/json", **north)
    assert client.post(url, body, content_type="application/json", **north).status_code == 429
    assert client.post(f"/t/{table1.token}/hands/", {"hand_number": 1, "ns_tricks": 7}).status_code == 429


def test_behind_one_trusted_proxy_the_proxy_s_entry_is_the_client(settings, rates, organiser):
    settings.TRUSTED_PROXIES = 1
    client = Client(REMOTE_ADDR="10.0.0.1")  # the proxy
    for n in range(LOGIN_RATE):
        # the client may write anything on the left; the proxy appends the address it saw
        client.post("/accounts/login/", {"username": "organiser", "password": "x"},
                    HTTP_X_FORWARDED_FOR=f"1.2.3.{n}, 203.0.113.7")
    held = client.post("/accounts/login/", {"username": "organiser", "password": "x"},
                       HTTP_X_FORWARDED_FOR="9.9.9.9, 203.0.113.7")
    assert held.status_code == 429
    other = client.post("/accounts/login/", {"username": "organiser", "password": "x"},
                        HTTP_X_FORWARDED_FOR="9.9.9.9, 203.0.113.8")
    assert other.status_code == 200  # another client behind the same proxy


@pytest.mark.parametrize("proxies, forwarded, expected", [
    (0, "6.6.6.6", "10.0.0.1"),  # no trusted proxy: the header is the client's own word
    (1, "6.6.6.6, 203.0.113.7", "203.0.113.7"),
    (2, "6.6.6.6, 203.0.113.7, 10.0.0.2", "203.0.113.7"),
    (2, "203.0.113.7", "203.0.113.7"),  # fewer hops than proxies: the leftmost
    (1, "", "10.0.0.1"),
    (2, "not an address, 203.0.113.7", "10.0.0.1"),  # never a key the client made up
    (1, "2001:db8::1", "2001:db8::1"),
])
def test_client_address(settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXIES = proxies
    assert client_address({"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": forwarded}) == expected
