"""A club evening's load on a real server: tables entering, phones polling, screens.

    .venv/bin/python bench/evening_load.py [--tables 100] [--phones 400] [--screens 2]
        [--window 60] [--poll 2.75] [--seconds 8] [--clients 8] [--web 2] [--redis URL]

Bounded and on loopback; stops by itself. With DATABASE_URL (PostgreSQL) it creates a
throwaway database `<name>_evening_load` on that server and drops it after; REDIS_URL or
--redis (default redis://127.0.0.1:6379/15) holds the broker, the channel layer and the
cache. Servers, as in production: --web daphne processes (DJANGO_DEBUG off, static files
collected, the psycopg pool; the clients spread over them as a proxy would) and a Celery
worker recomputing the standings, each in a process of its own.

The evening: 4 x --tables players, 8 rounds of 3 hands, rounds 1-6 stored, round 7
playing. Measured in the same run:
1. throughput, closed loop (--clients at once for --seconds): a trivial view (/livez) and
   the 400-player standings page (a phone's first load, the whole page); the ratio of the
   two is the goal (at least 0.3; it was 0.017);
2. round 7: every table enters its 3 hands from both sides (N enters, E confirms, each
   phone with its seat claim), each entry at a random moment within --window seconds,
   while --phones phones poll their page every --poll seconds on average (of each four,
   one the table's live panel, three the standings fragment) and --screens screens poll
   theirs;
3. round 8: every table enters at once (after a barrier), the phones still polling.
Printed per kind: requests, errors, p50 and p95 in ms, and p95 as a multiple of the trivial
view's p95 under the same load; then whether every entry is stored and the stored standings
equal a recompute from the rows. Exit code 1 on any error or a wrong standings line.
"""
import argparse
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import table_phones as phones  # noqa: E402  (plain HTTP, no Django)

GOAL_RATIO = 0.3
ROUNDS, HANDS = 8, 3
DEFAULT_REDIS = "redis://127.0.0.1:6379/15"
TRIVIAL = "/livez"


# --- the evening (Django ORM, in this process) ------------------------------------------------


def _multipliers(players):
    """Numbers prime to `players`: slot = (i * m + r) mod players seats everyone each round."""
    return [m for m in range(1, 4 * players, 2) if math.gcd(m, players) == 1][:ROUNDS]


def _seat(event, round_, players, tables, entrants):
    from drive.scoring.models import Seat

    m = _multipliers(players)[(round_.number - 1) % ROUNDS]
    Seat.objects.bulk_create((Seat(round=round_, table=tables[slot // 4], position="NESW"[slot % 4], entrant=entrants[i])
                              for i in range(players) for slot in [(i * m + round_.number) % players]),
                             batch_size=2000)


def ns_tricks(round_number, table, hand):
    return (table * 7 + hand * 5 + round_number * 3) % 14


def build_evening(tables, title="Load Drive"):
    """The evening with rounds 1-6 stored and standings computed, round 7 playing; a screen
    link. Returns (event, {table number: token})."""
    from django.utils import timezone

    from drive.events.models import Club, Event, Player
    from drive.live.models import Screen
    from drive.live.services.screen import new_screen_token
    from drive.movements.models import Entrant
    from drive.scoring.services import ranking
    from drive.scoring.models import HandResult, Round, Table

    players, now = tables * 4, timezone.now()
    club = Club.objects.create(name=f"{title} club", slug=f"load-{time.time_ns()}")
    event = Event.objects.create(
        club=club, title=title, starts_at=now - timedelta(hours=2), capacity=players, rounds=ROUNDS,
        hands_per_round=HANDS, movement_kind=Event.MovementKind.INDIVIDUAL, trump_rule=Event.TrumpRule.ROTATION,
        phase=Event.Phase.IN_PROGRESS, published=True, prizes=["First", "Second", "Third", "Half-time", "Booby"])
    Screen.objects.create(event=event, token=new_screen_token())
    people = Player.objects.bulk_create(Player(display_name=f"Player {i + 1:03d}") for i in range(players))
    entrants = Entrant.objects.bulk_create(Entrant(event=event, player=p, number=i + 1) for i, p in enumerate(people))
    table_rows = Table.objects.bulk_create(Table(event=event, number=n) for n in range(1, tables + 1))
    rounds = Round.objects.bulk_create(Round(event=event, number=n) for n in range(1, ROUNDS + 1))
    hands = []
    for round_ in rounds[:ROUNDS - 2]:
        _seat(event, round_, players, table_rows, entrants)
        round_.state, round_.started_at, round_.closed_at = Round.State.CLOSED, now, now
        hands += [HandResult(round=round_, table=t, hand_number=h, ns_tricks=ns_tricks(round_.number, t.number, h),
                             status=HandResult.Status.CONFIRMED, entered_by="N", confirmed_by="E")
                  for t in table_rows for h in range(1, HANDS + 1)]
    Round.objects.bulk_update(rounds, ["state", "started_at", "closed_at"])
    HandResult.objects.bulk_create(hands, batch_size=2000)
    start_round(event, ROUNDS - 1)
    ranking.recompute_standings(event_id=event.pk)
    return event, {t.number: t.token for t in table_rows}


def start_round(event, number):
    """Close the rounds before `number`, seat it and start its clock."""
    from django.utils import timezone

    from drive.movements.models import Entrant
    from drive.scoring.models import Round, Table

    now = timezone.now()
    Round.objects.filter(event=event, number__lt=number).exclude(state=Round.State.CLOSED).update(
        state=Round.State.CLOSED, closed_at=now)
    round_ = Round.objects.get(event=event, number=number)
    entrants = list(Entrant.objects.filter(event=event).order_by("number"))
    _seat(event, round_, len(entrants), list(Table.objects.filter(event=event).order_by("number")), entrants)
    round_.state, round_.started_at, round_.deadline = Round.State.PLAYING, now, now + timedelta(minutes=20)
    round_.save()
    return round_


def check_stored(event, round_number, tables, wait=60.0):
    """(every hand of the round stored and confirmed with its tricks, stored standings
    equal a recompute from the rows), waiting up to `wait` s for the worker."""
    from drive.scoring.selectors import standings as standings_selectors
    from drive.scoring.models import HandResult, Standing

    stored = {(r.table.number, r.hand_number): (r.ns_tricks, r.status) for r in
              HandResult.objects.filter(round__event=event, round__number=round_number).select_related("table")}
    hands_ok = stored == {(t, h): (ns_tricks(round_number, t, h), HandResult.Status.CONFIRMED)
                          for t in range(1, tables + 1) for h in range(1, HANDS + 1)}

    def exact():
        expected = {line.entrant: (place, line.total) for place, _shared, line in standings_selectors.compute_for(event)}
        return {s.entrant_id: (s.place, s.total) for s in Standing.objects.filter(event=event)} == expected

    deadline = time.monotonic() + wait
    while not exact() and time.monotonic() < deadline:
        time.sleep(0.5)
    return hands_ok, exact()


# --- load -------------------------------------------------------------------------------------


def pick(base):
    """One server of several (each request to any, as a proxy in front would spread them)."""
    return random.choice(base) if isinstance(base, (list, tuple)) else base


class Record:
    """Answers by kind: (status, seconds); thread-safe."""

    def __init__(self):
        self.lock, self.kinds = threading.Lock(), {}

    def add(self, kind, status, seconds):
        with self.lock:
            self.kinds.setdefault(kind, []).append((status, seconds))

    def errors(self, kind=None):
        kinds = [kind] if kind else list(self.kinds)
        return sum(1 for k in kinds for status, _ in self.kinds.get(k, []) if not 200 <= status < 300)


def pct(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))] if ordered else float("nan")


def closed_loop(base, path, clients, seconds, headers=None):
    """`clients` threads asking for `path` back to back for `seconds`: (requests/s, latencies, errors)."""
    record, stop = Record(), time.monotonic() + seconds

    def client():
        while time.monotonic() < stop:
            status, _content, took = phones.request(pick(base), "GET", path, headers=headers)
            record.add("x", status, took)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    answers = record.kinds.get("x", [])
    return len(answers) / (time.monotonic() - started), [s for _, s in answers], record.errors()


class Pollers:
    """Phones and screens asking for their page every `period` s on average (each at its own
    phase, as phones do), until stopped; the trivial view is polled alongside as the baseline."""

    def __init__(self, base, targets, period, record):
        self.base, self.targets, self.period, self.record = base, targets, period, record
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._poll, args=(kind, path, headers), daemon=True)
                        for kind, path, headers in targets]

    def _poll(self, kind, path, headers):
        rng = random.Random()
        self.stop.wait(rng.uniform(0, self.period))
        while not self.stop.is_set():
            status, _content, took = phones.request(pick(self.base), "GET", path, headers=headers)
            self.record.add(kind, status, took)
            self.stop.wait(rng.uniform(0.5, 1.5) * self.period)

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for thread in self.threads:
            thread.join(120)


def poll_targets(event_id, tokens, phone_count, screens, screen_token):
    """Of each table's four phones, one on the table's live panel (the others entered or
    look elsewhere), three on the standings fragment; the screens on theirs; one poller of
    the trivial view per 20 phones, as the baseline."""
    htmx = {"HX-Request": "true"}
    numbers = sorted(tokens)
    targets = []
    for i in range(phone_count):
        token = tokens[numbers[(i // 4) % len(numbers)]]
        targets.append(("table page", f"/t/{token}/panel/", htmx) if i % 4 == 0 else
                       ("standings fragment", f"/events/{event_id}/standings/", htmx))
    targets += [("screen", f"/screen/{screen_token}/", htmx)] * screens
    targets += [("trivial view", TRIVIAL, None)] * max(1, phone_count // 20)
    return targets


def claim_seats(base, tokens, record):
    secrets = {}
    for number, token in tokens.items():
        for seat in ("N", "E"):
            status, secret = phones.claim(pick(base), token, seat)
            record.add("seat claim", status, 0.0)
            secrets[number, seat] = secret
    return secrets


def enter_round(base, tokens, secrets, round_number, record, window=None):
    """Both sides of every hand of every table: each entry at a random moment within
    `window` s (latency from that moment), or all tables at once after a barrier."""
    barrier = threading.Barrier(len(tokens))
    start = time.monotonic() + 0.5

    def table(number):
        rng = random.Random(number * 1000 + round_number)
        moments = sorted(rng.uniform(0, window) for _ in range(HANDS * 2)) if window else [0.0] * (HANDS * 2)
        if not window:
            barrier.wait()
        step = 0
        for hand in range(1, HANDS + 1):
            for seat in ("N", "E"):
                due = start + moments[step]
                step += 1
                time.sleep(max(0.0, due - time.monotonic()))
                status, _content, took = phones.enter(pick(base), tokens[number], secrets[number, seat], hand,
                                                      ns_tricks(round_number, number, hand))
                record.add("result entry", status, max(took, time.monotonic() - due) if window else took)

    threads = [threading.Thread(target=table, args=(n,)) for n in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join((window or 0) + 300)


def run(base, event, tokens, *, phone_count=400, screens=2, window=60.0, poll=2.75, seconds=8.0, clients=8,
        on_round=None, throughput_only=False):
    """The measurements against a running server (see the module's doc). `on_round(n)`
    starts round n (8) between the two entry phases. Returns the figures."""
    out = {"tables": len(tokens), "phones": phone_count}
    standings_path = f"/events/{event.pk}/standings/"
    for server in (base if isinstance(base, (list, tuple)) else [base]):
        for path in (TRIVIAL, standings_path):  # warm: imports, the pool, the cache
            phones.request(server, "GET", path)
    trivial_rps, trivial_lat, trivial_err = closed_loop(base, TRIVIAL, clients, seconds)
    page_rps, page_lat, page_err = closed_loop(base, standings_path, clients, seconds)
    status, content, _ = phones.request(pick(base), "GET", standings_path)
    out.update(trivial_rps=trivial_rps, trivial_p50=pct(trivial_lat, .5), trivial_p95=pct(trivial_lat, .95),
               page_rps=page_rps, page_p50=pct(page_lat, .5), page_p95=pct(page_lat, .95),
               page_bytes=len(content.encode()) if isinstance(content, str) else 0,
               throughput_errors=trivial_err + page_err + (status != 200), ratio=page_rps / trivial_rps)
    if throughput_only:
        return out
    targets = poll_targets(event.pk, tokens, phone_count, screens, event.screen.token)
    for label, round_number, spread in (("within", ROUNDS - 1, window), ("at once", ROUNDS, None)):
        record = Record()
        if round_number == ROUNDS and on_round:
            on_round(ROUNDS)
        secrets = claim_seats(base, tokens, record)
        started = time.monotonic()
        with Pollers(base, targets, poll, record):
            enter_round(base, tokens, secrets, round_number, record, window=spread)
            time.sleep(min(2.0, poll))  # the phones' next look after the last entry
        out[label] = {"record": record.kinds, "seconds": time.monotonic() - started, "errors": record.errors()}
    return out


def report(out, window):
    print(f"\nthroughput, {out['clients']} clients back to back for {out['seconds']:.0f} s each:")
    print(f"  trivial view ({TRIVIAL}): {out['trivial_rps']:.1f} req/s, p50 {out['trivial_p50'] * 1000:.1f} ms, "
          f"p95 {out['trivial_p95'] * 1000:.1f} ms")
    print(f"  standings page ({out['tables'] * 4} players, {out['page_bytes'] / 1024:.0f} KB): {out['page_rps']:.1f} req/s, "
          f"p50 {out['page_p50'] * 1000:.1f} ms, p95 {out['page_p95'] * 1000:.1f} ms")
    print(f"  ratio standings / trivial: {out['ratio']:.2f} (goal >= {GOAL_RATIO}: "
          f"{'met' if out['ratio'] >= GOAL_RATIO else 'NOT met'})")
    total = errors = 0
    for label, title in (("within", f"round 7, every table within {window:.0f} s"), ("at once", "round 8, all tables at once")):
        if label not in out:
            continue
        phase = out[label]
        kinds = phase["record"]
        base_p95 = pct([s for _, s in kinds.get("trivial view", [])], .95)
        print(f"\n{title}, {out['phones']} phones polling ({phase['seconds']:.1f} s):")
        for kind in ("result entry", "table page", "standings fragment", "screen", "trivial view", "seat claim"):
            answers = kinds.get(kind, [])
            if not answers:
                continue
            times = [s for _, s in answers]
            bad = sum(1 for status, _ in answers if not 200 <= status < 300)
            total, errors = total + len(answers), errors + bad
            line = f"  {kind:20} {len(answers):6} requests, {bad} errors"
            if kind != "seat claim":
                p95 = pct(times, .95)
                line += f", p50 {pct(times, .5) * 1000:7.1f} ms, p95 {p95 * 1000:7.1f} ms ({p95 / base_p95:.1f}x trivial)"
            print(line)
    errors += out["throughput_errors"]
    print(f"\nerror rate: {errors}/{total} = {errors / max(1, total):.4f} (must be 0)")
    return errors


# --- servers of their own -------------------------------------------------------------------


def free_port():
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(database_url, redis_url):
    env = {k: v for k, v in os.environ.items() if k not in ("SQLITE_PATH",)}
    env.update(DATABASE_URL=database_url, REDIS_URL=redis_url, DJANGO_SETTINGS_MODULE="drive.settings",
               DJANGO_DEBUG="false", DJANGO_SECRET_KEY="bench-evening-load-" + "k" * 40, DJANGO_LOG_LEVEL="ERROR",
               DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost", DJANGO_SECURE_SSL_REDIRECT="false", DJANGO_HSTS_SECONDS="0")
    return env


def start_servers(env, folder, web=2):
    """`web` daphne processes on free ports and a Celery worker; returns (processes, base URLs)."""
    bin_dir = Path(sys.executable).parent
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                   check=True)
    procs, bases = [], []
    for i in range(web):
        port = free_port()
        procs.append(subprocess.Popen([str(bin_dir / "daphne"), "-v", "0", "-b", "127.0.0.1", "-p", str(port),
                                       "drive.asgi:application"], cwd=ROOT, env=env,
                                      stdout=open(Path(folder) / f"daphne-{i}.log", "wb"), stderr=subprocess.STDOUT))
        bases.append(f"http://127.0.0.1:{port}")
    procs.append(subprocess.Popen([str(bin_dir / "celery"), "-A", "drive", "worker", "--pool", "solo",
                                   "--loglevel", "WARNING"], cwd=ROOT, env=env,
                                  stdout=open(Path(folder) / "worker.log", "wb"), stderr=subprocess.STDOUT))
    deadline = time.monotonic() + 60
    waiting = list(bases)
    while waiting and time.monotonic() < deadline:
        waiting = [b for b in waiting if phones.request(b, "GET", TRIVIAL, timeout=2)[0] != 200]
        time.sleep(0.2)
    if waiting:
        stop_servers(procs)
        raise RuntimeError("daphne did not start:\n" + (Path(folder) / "daphne-0.log").read_text()[-2000:])
    return procs, bases


def stop_servers(procs):
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def prepare_database(url, suffix="_evening_load"):
    """A throwaway database `<DATABASE_URL's name><suffix>` next to it; returns (its URL, a
    function that drops it)."""
    import psycopg

    parts = urlsplit(url)
    name = f"{parts.path.lstrip('/') or 'whist'}{suffix}"
    admin = urlunsplit(parts._replace(path="/postgres"))

    def sql(statement):
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(statement)

    sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    sql(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}")), lambda: sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--phones", type=int, default=400, help="phones polling their page")
    parser.add_argument("--screens", type=int, default=2)
    parser.add_argument("--window", type=float, default=60.0, help="seconds within which every table enters round 7")
    parser.add_argument("--poll", type=float, default=2.75, help="a phone's mean seconds between two looks")
    parser.add_argument("--seconds", type=float, default=8.0, help="each throughput measurement")
    parser.add_argument("--clients", type=int, default=8, help="clients back to back in the throughput measurement")
    parser.add_argument("--throughput-only", action="store_true", help="only measurement 1")
    parser.add_argument("--web", type=int, default=2, help="daphne processes (docker compose up --scale web=N)")
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL") or DEFAULT_REDIS)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        parser.error("set DATABASE_URL to a PostgreSQL server (a throwaway database is made next to it)")

    database, drop = prepare_database(url)
    folder = tempfile.mkdtemp(prefix="whist-evening-load-")
    procs = []
    try:
        env = server_env(database, args.redis)
        os.environ.update(DATABASE_URL=database, REDIS_URL=args.redis, DJANGO_SETTINGS_MODULE="drive.settings",
                          DJANGO_LOG_LEVEL="ERROR")
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        from django.core.cache import cache

        cache.clear()  # --redis is the bench's: no rendering of an earlier run
        event, tokens = build_evening(args.tables)
        procs, base = start_servers(env, folder, args.web)
        print(f"servers: {args.web} daphne + a Celery worker (solo) on PostgreSQL ({database.rsplit('/', 1)[1]}) "
              f"and Redis; {os.cpu_count()} CPUs shared with the clients", flush=True)
        print(f"evening: {args.tables * 4} players at {args.tables} tables, {ROUNDS} rounds of {HANDS} hands")
        out = run(base, event, tokens, phone_count=args.phones, screens=args.screens, window=args.window,
                  poll=args.poll, seconds=args.seconds, clients=args.clients, on_round=lambda n: start_round(event, n),
                  throughput_only=args.throughput_only)
        out.update(clients=args.clients, seconds=args.seconds)
        errors = report(out, args.window)
        if args.throughput_only:
            return 0 if errors == 0 else 1
        stored = [check_stored(event, n, args.tables) for n in (ROUNDS - 1, ROUNDS)]
        print(f"every entry stored and confirmed: {all(h for h, _ in stored)}; "
              f"stored standings equal a recompute: {all(s for _, s in stored)}")
        from django.db import connection

        connection.close()
        return 0 if errors == 0 and all(h and s for h, s in stored) else 1
    finally:
        stop_servers(procs)
        shutil.rmtree(folder, ignore_errors=True)
        from django.db import connections

        connections.close_all()
        drop()


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    sys.exit(main())
