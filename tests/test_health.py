"""/healthz: up or down to the public; the checks' details to staff users or a monitor
holding HEALTHZ_TOKEN, and never a host or URL (it told the public the Redis host)."""
import json

import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.embedded]
SECRET = "monitor-secret-1234"


@pytest.fixture
def monitor(monkeypatch):
    monkeypatch.setenv("HEALTHZ_TOKEN", SECRET)
    return {"HTTP_X_HEALTHZ_TOKEN": SECRET}


def test_healthz_reports_database_broker_and_channel_layer(client, settings, monitor):
    body = client.get("/healthz", **monitor).json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] and body["broker"]["ok"] and body["channel_layer"]["ok"]
    expected_layer = "RedisChannelLayer" if settings.REDIS_URL else "InMemoryChannelLayer"
    assert body["channel_layer"]["backend"] == expected_layer


def test_the_public_hears_ok_and_nothing_more(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_a_wrong_or_missing_secret_gets_no_details(client, monitor):
    assert client.get("/healthz", HTTP_X_HEALTHZ_TOKEN="guess").json() == {"status": "ok"}
    assert client.get("/healthz").json() == {"status": "ok"}


def test_without_a_configured_secret_no_header_opens_the_details(client, monkeypatch):
    monkeypatch.delenv("HEALTHZ_TOKEN", raising=False)
    assert client.get("/healthz", HTTP_X_HEALTHZ_TOKEN="").json() == {"status": "ok"}


def test_staff_users_see_the_details(client, make_user):
    client.force_login(make_user("staff", is_staff=True))
    assert set(client.get("/healthz").json()) == {"status", "database", "broker", "channel_layer"}
    client.force_login(make_user("player"))
    assert client.get("/healthz").json() == {"status": "ok"}


def broken_broker(monkeypatch, message):
    from drive import health

    def broken():
        raise ConnectionError(message)

    monkeypatch.setattr(health, "_broker", broken)


def test_healthz_says_down_when_the_broker_is_down(client, monkeypatch, monitor):
    broken_broker(monkeypatch, "broker unreachable")
    assert client.get("/healthz").status_code == 503 and client.get("/healthz").json() == {"status": "down"}
    response = client.get("/healthz", **monitor)
    assert response.status_code == 503
    assert response.json()["broker"] == {"ok": False, "error": "ConnectionError: broker unreachable",
                                         "ms": response.json()["broker"]["ms"]}


def test_the_details_never_name_a_host_or_url(client, monkeypatch, monitor, settings):
    settings.REDIS_URL = "redis://cache.internal.example:6379/0"
    broken_broker(monkeypatch, "Error 111 connecting to cache.internal.example:6379 (redis://cache.internal.example:6379/0); "
                               "also 10.1.2.3 and cache.internal.example")
    text = json.dumps(client.get("/healthz", **monitor).json())
    assert "cache.internal" not in text and "redis://" not in text and "10.1.2.3" not in text and "6379" not in text
    assert "ConnectionError" in text
