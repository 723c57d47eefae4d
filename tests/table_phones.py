"""The tables' phones over real HTTP: claim a seat, enter hands, retry as a phone would.

Shared by tests/integration/test_load_faults.py and bench/evening_load.py. No Django
here: plain http.client against a running server, one connection per request (as many
phones on the hall's Wi-Fi), safe to use from many threads.
"""
import http.client
import json
import random
import time
from urllib.parse import urlsplit

RETRIED = (0, 500, 502, 503, 504)  # 0: no answer (refused, reset, the server died mid-request)


def request(base, method, path, body=None, headers=None, timeout=60):
    """(status, decoded JSON or text, seconds); status 0 when no answer came."""
    url = urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)
    started = time.perf_counter()
    try:
        sent = {"Accept": "application/json", **(headers or {})}
        data = None
        if body is not None:
            data, sent["Content-Type"] = json.dumps(body), "application/json"
        conn.request(method, path, body=data, headers=sent)
        answer = conn.getresponse()
        raw = answer.read()
        status = answer.status
    except OSError as exc:  # refused, reset, timed out, cut by a server restart
        return 0, repr(exc), time.perf_counter() - started
    finally:
        conn.close()
    try:
        content = json.loads(raw) if raw else None
    except ValueError:
        content = raw.decode(errors="replace")
    return status, content, time.perf_counter() - started


def with_retries(call, *, until, pause=(0.2, 0.6)):
    """Call until it is answered with something other than a RETRIED status, or the
    deadline; returns the last (status, content, seconds) and the number of tries."""
    tries = 0
    while True:
        tries += 1
        status, content, took = call()
        if status not in RETRIED or time.monotonic() >= until:
            return (status, content, took), tries
        time.sleep(random.uniform(*pause))


def claim(base, token, seat):
    """(status, secret or the error body)."""
    status, content, _ = request(base, "POST", f"/api/tables/{token}/claims/", {"seat": seat})
    secret = content.get("claim") if isinstance(content, dict) else None
    return status, secret if status in (200, 201) else content


def enter(base, token, secret, hand, ns_tricks):
    return request(base, "POST", f"/api/tables/{token}/results/", {"hand_number": hand, "ns_tricks": ns_tricks},
                   headers={"X-Seat-Claim": secret})
