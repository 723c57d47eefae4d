"""/healthz: the state of the database, the Celery broker and the channel layer.

The public hears "ok" (200) or "down" (503) and no more; staff users, or a monitor that
sends the HEALTHZ_TOKEN secret in an X-Healthz-Token header, get each check's details.
Even those never name a host or a URL (an error's text is scrubbed of them).
"""
import hmac
import os
import re
import time
import uuid
from urllib.parse import urlsplit

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpResponse, JsonResponse

from drive.celery import app as celery_app


# A URL, or a host with a port ("redis.internal:6379", "10.0.0.5:5432"), in an error's text.
ADDRESSES = re.compile(r"[a-z][a-z0-9+.-]*://\S+|\b[\w.-]+:\d{2,5}\b|\b\d{1,3}(?:\.\d{1,3}){3}\b", re.I)


def _configured_hosts():
    hosts = {urlsplit(settings.REDIS_URL).hostname if settings.REDIS_URL else None,
             settings.DATABASES["default"].get("HOST")}
    return sorted((h for h in hosts if h), key=len, reverse=True)


def scrub(text: str) -> str:
    """An error's text without the URLs, hosts and addresses it may name."""
    text = ADDRESSES.sub("<address>", text)
    for host in _configured_hosts():
        text = text.replace(host, "<address>")
    return text


def _timed(check):
    start = time.perf_counter()
    try:
        detail = check()
        state = {"ok": True, **(detail or {})}
    except Exception as exc:  # health reports failures, it never raises them
        state = {"ok": False, "error": scrub(f"{type(exc).__name__}: {exc}")[:300]}
    state["ms"] = round((time.perf_counter() - start) * 1000, 1)
    return state


def _database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"vendor": connection.vendor}


def _broker():
    if celery_app.conf.task_always_eager:
        return {"mode": "eager"}
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
    return {"mode": "broker", "transport": celery_app.conf.broker_url.split(":", 1)[0]}


def _channel_layer():
    layer = get_channel_layer()
    name = f"healthz.{uuid.uuid4().hex}"
    async_to_sync(layer.send)(name, {"type": "health.ping"})
    received = async_to_sync(layer.receive)(name)
    if received.get("type") != "health.ping":
        raise RuntimeError("channel layer returned a different message")
    return {"backend": type(layer).__name__}


def may_see_details(request) -> bool:
    if request.user.is_authenticated and request.user.is_staff:
        return True
    secret = os.environ.get("HEALTHZ_TOKEN", "")
    sent = request.headers.get("X-Healthz-Token", "")
    return bool(secret) and hmac.compare_digest(sent.encode(), secret.encode())


def healthz(request):
    checks = {"database": _timed(_database), "broker": _timed(_broker), "channel_layer": _timed(_channel_layer)}
    healthy = all(check["ok"] for check in checks.values())
    body = {"status": "ok" if healthy else "down"}
    if may_see_details(request):
        body.update(checks)
    response = JsonResponse(body, status=200 if healthy else 503)
    response["Cache-Control"] = "no-store"
    return response


def livez(request):
    """The process answers, and nothing more (no database, broker or layer): a liveness probe,
    and the trivial view bench/evening_load.py measures the live pages against."""
    response = HttpResponse("ok", content_type="text/plain")
    response["Cache-Control"] = "no-store"
    return response
