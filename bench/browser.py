"""Browser timings: the tests prove what happens, this prints how fast.

    .venv/bin/python bench/browser.py            # needs /usr/bin/chromium
    DATABASE_URL=postgres://... REDIS_URL=redis://.../14 .venv/bin/python bench/browser.py

Runs the timed browser tests with BENCH_FIGURES set and prints each figure against a
baseline measured in the same run, and against its goal:

- a small evening end to end in Chromium (tests/browser/test_small_evening.py), goal
  under 90 s; baseline: the organiser's sign-in and first console page;
- results reaching the room's screen over websockets (tests/browser/test_screen_live.py,
  needs PostgreSQL, Redis and a worker: skipped without them), goal p95 at most 1 s;
  baseline: one screen refresh (fetch and swap) with no result behind it.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
TESTS = ["tests/browser/test_small_evening.py::test_a_small_evening_end_to_end"]
LIVE = "tests/browser/test_screen_live.py::test_results_reach_the_screen_and_it_survives_a_server_restart"


def main() -> int:
    tests = TESTS + ([LIVE] if os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL") else [])
    with tempfile.NamedTemporaryFile("r", suffix=".jsonl") as figures:
        env = {**os.environ, "BENCH_FIGURES": figures.name}
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
                             cwd=ROOT, env=env, capture_output=True, text=True)
        rows = [json.loads(line) for line in figures.read().splitlines()]
    if run.returncode:
        print(run.stdout[-3000:], run.stderr[-2000:])
    print(f"browser timings ({len(rows)} figures; tests {'passed' if run.returncode == 0 else 'FAILED'})")
    for r in rows:
        verdict = "met" if r["value"] <= r["goal"] else "NOT met"
        print(f"   {r['name']}: {r['value']:.1f} {r['unit']} = {r['value'] / r['baseline']:.1f}x the baseline "
              f"({r['baseline']:.1f} {r['unit']}); goal {r['goal']:g} {r['unit']}: {verdict}")
    if LIVE not in tests:
        print("   (the screen's delay needs DATABASE_URL and REDIS_URL: not measured)")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
