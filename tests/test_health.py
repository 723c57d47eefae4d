import pytest

pytestmark = pytest.mark.django_db


def test_healthz_reports_database_broker_and_channel_layer(client, settings):
    body = client.get("/healthz").json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] and body["broker"]["ok"] and body["channel_layer"]["ok"]
    expected_layer = "RedisChannelLayer" if settings.REDIS_URL else "InMemoryChannelLayer"
    assert body["channel_layer"]["backend"] == expected_layer


def test_healthz_says_degraded_when_the_broker_is_down(client, monkeypatch):
    from drive import health

    def broken():
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(health, "_broker", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"] == {"ok": False, "error": "ConnectionError: broker unreachable", "ms": response.json()["broker"]["ms"]}
