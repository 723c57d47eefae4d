"""/healthz: the state of the database, the Celery broker and the channel layer."""
import time
import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.http import JsonResponse

from drive.celery import app as celery_app


def _timed(check):
    start = time.perf_counter()
    try:
        detail = check()
        state = {"ok": True, **(detail or {})}
    except Exception as exc:  # health reports failures, it never raises them
        state = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
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


def healthz(request):
    checks = {"database": _timed(_database), "broker": _timed(_broker), "channel_layer": _timed(_channel_layer)}
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse({"status": "ok" if healthy else "degraded", **checks}, status=200 if healthy else 503)
