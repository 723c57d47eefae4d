"""Websocket fan-out: how long an update takes to reach every page watching one event.

    .venv/bin/python bench/fanout.py [--clients N] [--updates K] [--gap-ms MS] [--procs P]
                                     [--connect-burst B] [--redis URL]

A real server runs as a subprocess: daphne serving drive.asgi on a free loopback port,
with the Redis channel layer on --redis (default redis://127.0.0.1:6379/14) and
DJANGO_DEBUG off. The consumer touches no database, so the server gets a SQLite path in a
temporary folder; the bench checks that the file was never created. N websocket clients
(the `websockets` asyncio client, spread over P processes so that one client loop is not
the bottleneck; B handshakes in flight at once, as when pages reload together) subscribe
to one event's path, /ws/events/<id>/. Once all are connected, this process publishes one
untimed warm-up and then K updates through drive.core.broadcast.send_now, --gap-ms apart, each
carrying its seq and the wall-clock time taken just before the send. Each client stamps a
frame the moment it is read, before JSON parsing: latency = stamp - sent, which covers
send_now -> Redis -> server -> consumer -> websocket -> client. Also shown: when each
update had reached its last client, and the CPU the server and the clients used meanwhile
(which side is the bottleneck).

Baseline, same run: the same with 1 client; the N-client p95 is shown as a ratio to it.
Goal: with 500 clients p95 at most 250 ms and no client missing an update. Exit
code 1 if a client missed an update or could not connect (the latency goal is printed,
not asserted).
"""
import argparse
import asyncio
import json
import multiprocessing
import multiprocessing.connection
import os
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOAL_P95_MS = 250.0
DEFAULT_REDIS = "redis://127.0.0.1:6379/14"


# --- the server --------------------------------------------------------------------------


def raise_open_files(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # inherited by the server and clients


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


SERVER_KEY = "bench-fanout-" + "k" * 40  # the server's; its sockets' tickets are signed with it


def start_server(redis_url, folder):
    """daphne as a subprocess; returns (process, port) once the port accepts connections."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(REDIS_URL=redis_url, DJANGO_SETTINGS_MODULE="drive.settings", DJANGO_DEBUG="false",
               DJANGO_SECRET_KEY=SERVER_KEY, DJANGO_LOG_LEVEL="WARNING",
               SQLITE_PATH=str(Path(folder) / "server.sqlite3"))
    daphne = Path(sys.executable).with_name("daphne")
    with open(Path(folder) / "daphne.log", "wb") as log:
        server = subprocess.Popen([str(daphne), "-v", "0", "-b", "127.0.0.1", "-p", str(port), "drive.asgi:application"],
                                  cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and server.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server, port
        except OSError:
            time.sleep(0.1)
    stop_server(server)
    raise RuntimeError("daphne did not start:\n" + (Path(folder) / "daphne.log").read_text()[-2000:])


def stop_server(server):
    server.terminate()
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def cpu_seconds(pid):
    """User + system CPU time of a process so far (Linux /proc), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def wait_idle(pid, timeout=10.0):
    """Wait until the process has used no CPU for 0.3 s (or the timeout)."""
    deadline, last = time.monotonic() + timeout, cpu_seconds(pid)
    while last is not None and time.monotonic() < deadline:
        time.sleep(0.3)
        now = cpu_seconds(pid)
        if now is None or now == last:
            return
        last = now


# --- the clients (each process runs a share of them in one asyncio loop) -------------------


def client_process(url, origin, count, updates, burst, pipe):
    asyncio.run(_clients(url, origin, count, updates, burst, pipe))


async def _clients(url, origin, count, updates, burst, pipe):
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    gate = asyncio.Semaphore(burst)

    async def open_one():
        async with gate:
            return await connect(url, origin=origin, compression=None, proxy=None, ping_interval=None,
                                 open_timeout=60)

    async def listen(ws, frames):
        try:
            async for raw in ws:
                frames.append((time.time(), raw))  # stamped before anything else is done with it
                if len(frames) == updates + 1:  # with the warm-up
                    return
        except ConnectionClosed:
            pass

    opened = await asyncio.gather(*(open_one() for _ in range(count)), return_exceptions=True)
    sockets = [ws for ws in opened if not isinstance(ws, BaseException)]
    errors = [repr(ws) for ws in opened if isinstance(ws, BaseException)]
    frames = [[] for _ in sockets]
    listeners = [asyncio.create_task(listen(ws, got)) for ws, got in zip(sockets, frames)]
    pipe.send(len(sockets))
    cpu = time.process_time()
    deadline = await asyncio.get_running_loop().run_in_executor(None, pipe.recv)  # wall time: stop by then
    if listeners:
        await asyncio.wait(listeners, timeout=max(0.0, deadline - time.time()))
    pipe.send(time.process_time() - cpu)  # this process's CPU while receiving
    for task in listeners:
        task.cancel()
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    received = [{json.loads(raw)["data"]["seq"]: stamp for stamp, raw in got} for got in frames]
    pipe.send((received, errors))


# --- one measurement -------------------------------------------------------------------------


def receive(pipe, worker, timeout, what):
    """The next report of a client process; fails early if the process died."""
    if pipe not in multiprocessing.connection.wait([pipe, worker.sentinel], timeout) and not pipe.poll():
        raise RuntimeError(f"a client process did not report {what} (exit code {worker.exitcode})")
    return pipe.recv()


def measure(clients, updates, gap, procs, redis_url, burst=100, grace=10.0):
    """Serve, connect `clients`, publish `updates`; returns latencies (s) and what was missed."""
    from drive.core.broadcast import Change, send_now
    from drive.core.tickets import issue_ticket

    raise_open_files(clients + 256)
    folder = tempfile.mkdtemp(prefix="whist-fanout-")
    try:
        server, port = start_server(redis_url, folder)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    context = multiprocessing.get_context("spawn")  # the clients inherit nothing of Django
    workers, pipes = [], []
    try:
        event_id = random.randrange(10**8, 10**9)  # a group no real page listens to
        url = f"ws://127.0.0.1:{port}/ws/events/{event_id}/?ticket={issue_ticket(event_id, key=SERVER_KEY)}"
        origin = f"http://127.0.0.1:{port}"
        procs = max(1, min(procs, clients))
        for share in (clients // procs + (i < clients % procs) for i in range(procs)):
            ours, theirs = context.Pipe()
            worker = context.Process(target=client_process, daemon=True,
                                     args=(url, origin, share, updates, max(1, burst // procs), theirs))
            worker.start()
            workers.append(worker)
            pipes.append(ours)
        connected = sum(receive(pipe, worker, 120, "its connections") for pipe, worker in zip(pipes, workers))
        send_now(event_id, Change.RESULTS, seq=-1, sent=time.time())  # warm-up, not counted: cold imports and connections
        time.sleep(0.5)
        sent, publish = [], []
        server_cpu = cpu_seconds(server.pid)
        start = time.perf_counter()
        for seq in range(updates):
            sent.append(time.time())
            send_now(event_id, Change.RESULTS, seq=seq, sent=sent[-1])
            publish.append(time.time() - sent[-1])
            time.sleep(max(0.0, start + (seq + 1) * gap - time.perf_counter()))
        deadline = time.time() + grace
        for pipe in pipes:
            pipe.send(deadline)
        clients_cpu = sum(receive(pipe, worker, grace + 60, "the end of receiving")
                          for pipe, worker in zip(pipes, workers))
        server_cpu = cpu_seconds(server.pid) - server_cpu if server_cpu is not None else None
        wall = time.perf_counter() - start
        received, errors = [], []
        for pipe, worker in zip(pipes, workers):
            got, failed = receive(pipe, worker, 60, "what it received")
            received += got
            errors += failed
    finally:
        for worker in workers:
            worker.join(10)
            if worker.is_alive():
                worker.kill()
        wait_idle(server.pid)  # the consumers' disconnects leave the group before the server stops
        stop_server(server)
        touched_db = (Path(folder) / "server.sqlite3").exists()
        server_log = (Path(folder) / "daphne.log").read_text(errors="replace")
        shutil.rmtree(folder, ignore_errors=True)
    latencies = [got[seq] - sent[seq] for got in received for seq in got if 0 <= seq < updates]
    last = [max(got[seq] for got in received if seq in got) - sent[seq] for seq in range(updates)
            if any(seq in got for got in received)]  # when an update had reached every client that got it
    return {
        "clients": clients, "updates": updates, "connected": connected, "errors": errors,
        "expected": clients * updates, "received": len(latencies), "latencies": latencies, "last": last,
        "clients_missing": clients - sum(all(seq in got for seq in range(updates)) for got in received),
        "updates_missing": sum(connected < clients or any(seq not in got for got in received)
                               for seq in range(updates)),
        "publish": publish, "touched_db": touched_db, "server_log": server_log,
        "wall": wall, "server_cpu": server_cpu, "clients_cpu": clients_cpu,
    }


def pct(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))] if ordered else float("nan")


def report(title, result):
    ms = [x * 1000 for x in result["latencies"]]
    missing = result["expected"] - result["received"]
    print(f"\n{title}: {result['connected']}/{result['clients']} connected, {result['updates']} updates")
    print(f"  deliveries: {result['received']}/{result['expected']}, missing {missing} (clients missing any: "
          f"{result['clients_missing']}, updates missing any client: {result['updates_missing']})")
    if ms:
        print("  latency ms: " + ", ".join(f"p{int(f * 100)} {pct(ms, f):.1f}" for f in (.5, .9, .95, .99))
              + f", max {max(ms):.1f}")
        print(f"  an update reached its last client after: median {pct(result['last'], .5) * 1000:.1f} ms, "
              f"max {max(result['last']) * 1000:.1f} ms")
    if result["server_cpu"] is not None:
        print(f"  CPU over the {result['wall']:.1f} s of publishing and receiving: server {result['server_cpu']:.2f} s "
              f"({result['server_cpu'] / result['wall']:.0%} of a core, "
              f"{result['server_cpu'] / max(1, result['received']) * 1e6:.0f} us per delivery), "
              f"clients {result['clients_cpu']:.2f} s")
    print(f"  send_now call: median {pct(result['publish'], .5) * 1000:.1f} ms; "
          f"server opened the database: {'yes' if result['touched_db'] else 'no'}")
    if result["errors"]:
        print(f"  {len(result['errors'])} connection errors, first: {result['errors'][0]}")
    if result["server_log"].strip() and (missing or result["errors"]):
        print("  server log (end):\n    " + "\n    ".join(result["server_log"].strip().splitlines()[-15:]))
    return pct(ms, .95), missing == 0 and result["connected"] == result["clients"]


def setup_django(redis_url):
    os.environ["REDIS_URL"] = redis_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "drive.settings")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "ERROR")
    import django

    django.setup()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=500, help="websocket clients on the one event")
    parser.add_argument("--updates", type=int, default=50, help="updates published")
    parser.add_argument("--gap-ms", type=float, default=100.0, help="time between two updates")
    parser.add_argument("--procs", type=int, default=2, help="client processes the clients are spread over")
    parser.add_argument("--connect-burst", type=int, default=100,
                        help="websocket handshakes in flight at once while connecting (pages reloading together)")
    parser.add_argument("--redis", default=DEFAULT_REDIS, help="Redis for the channel layer (server and publisher)")
    args = parser.parse_args()

    setup_django(args.redis)
    gap = args.gap_ms / 1000
    print(f"server: daphne, Redis channel layer at {args.redis}; {os.cpu_count()} CPUs; clients over "
          f"{args.procs} processes, {args.connect_burst} handshakes at once; an update every {args.gap_ms:.0f} ms")
    base_p95, base_ok = report("baseline, 1 client", measure(1, args.updates, gap, 1, args.redis))
    many = measure(args.clients, args.updates, gap, args.procs, args.redis, args.connect_burst)
    p95, ok = report(f"{args.clients} clients", many)
    print(f"\np95 {args.clients} clients / 1 client: {p95 / base_p95:.1f}x")
    print(f"goal p95 <= {GOAL_P95_MS:.0f} ms: {'met' if p95 <= GOAL_P95_MS else 'NOT met'}; "
          f"every client got every update: {'yes' if ok and base_ok else 'NO'}")
    return 0 if ok and base_ok else 1


if __name__ == "__main__":
    sys.exit(main())
