"""Timed figures of the browser tests: printed, and handed to bench/browser.py.

Tests assert what happened, never how fast (a loaded machine is slow, not
wrong); bench/browser.py runs them with BENCH_FIGURES set and compares each figure with
its baseline, measured in the same run, and with its goal.
"""
import json
import os


def record(name: str, value: float, unit: str, baseline: float, goal: float) -> None:
    print(f"\n{name}: {value:.1f} {unit} ({value / baseline:.1f}x the baseline of {baseline:.1f} {unit}; goal {goal:g})")
    path = os.environ.get("BENCH_FIGURES")
    if path:
        with open(path, "a") as out:
            out.write(json.dumps({"name": name, "value": value, "unit": unit, "baseline": baseline, "goal": goal}) + "\n")
