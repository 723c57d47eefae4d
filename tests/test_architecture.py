"""The floors of the house hold (docs/architecture.md, "Floors").

- import-linter's contracts (pyproject.toml): arrows between the apps point down only,
  inside an app pages and API stand on tasks, services, selectors and models, and the
  engine imports neither Django nor the service;
- no import of a project module inside a function (it would hide an arrow, or a circle,
  from the contracts), but an app's `ready()`, which registers what the app lends below;
- the floors in docs/architecture.md are the contract's floors.
"""
import ast
import re
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ("drive", "engine")


def test_import_contracts_hold():
    # In a process of its own: the test process has zope.interface's class hooks loaded
    # (through daphne), which upset import-linter's reading of its contract classes.
    run = subprocess.run([str(Path(sys.executable).with_name("lint-imports")), "--config", "pyproject.toml",
                          "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


def _late_imports(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if path.name == "apps.py" and function.name == "ready":
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] in PROJECT):
                yield node.lineno, node.module
            if isinstance(node, ast.Import) and any(a.name.split(".")[0] in PROJECT for a in node.names):
                yield node.lineno, node.names[0].name


def test_no_project_import_inside_a_function():
    found = [f"{path.relative_to(ROOT)}:{line} {module}"
             for top in PROJECT for path in sorted((ROOT / top).rglob("*.py"))
             if "migrations" not in path.parts for line, module in _late_imports(path)]
    assert found == []


def test_the_check_finds_a_late_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from drive.scoring import tasks\n    return tasks\n")
    assert list(_late_imports(sample)) == [(2, "drive.scoring")]


def _contract_floors():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    floors = next(c for c in config if c["name"].startswith("Floors"))["layers"]
    return [sorted(re.split(r"\s*[|:]\s*", floor)) for floor in floors]


def test_the_documented_floors_are_the_contracts():
    architecture = (ROOT / "docs" / "architecture.md").read_text()
    section = architecture.split("\n## Floors", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| floor")]
    floors = [sorted(re.findall(r"`([\w.]+)`", row.split("|")[2])) for row in rows]
    assert floors == _contract_floors()
