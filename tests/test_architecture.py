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


MODULE_LINES = 400  # a module longer than this holds more than one capability: split it along them


def _private_imports(path: Path):
    """`from <project module> import _name` (or `import drive.x._module`) in another module:
    a helper two modules share is public, in the module both stand on."""
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] in PROJECT:
            private = [a.name for a in node.names if a.name.startswith("_")]
            private += [part for part in node.module.split(".") if part.startswith("_") and part != "__init__"]
            for name in private:
                yield node.lineno, f"{node.module} import {name}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] in PROJECT and any(p.startswith("_") and p != "__init__" for p in parts):
                    yield node.lineno, alias.name


def _project_files():
    return [path for top in PROJECT for path in sorted((ROOT / top).rglob("*.py")) if "migrations" not in path.parts]


def test_no_private_name_is_imported_from_another_module():
    found = [f"{path.relative_to(ROOT)}:{line} {what}"
             for path in _project_files() for line, what in _private_imports(path)]
    assert found == []


def test_the_check_finds_a_private_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from drive.scoring.selectors.results import _final_line, standings\n"
                      "import drive.core._secret\nfrom django.db import _private\n")
    assert list(_private_imports(sample)) == [(1, "drive.scoring.selectors.results import _final_line"),
                                              (2, "drive.core._secret")]


def _too_long(paths):
    return [(path, lines) for path in paths if (lines := len(path.read_text().splitlines())) > MODULE_LINES]


def test_no_module_is_over_the_line_limit():
    found = [f"{path.relative_to(ROOT)}: {lines} lines"
             for path, lines in _too_long(p for p in _project_files() if p.is_relative_to(ROOT / "drive"))]
    assert found == []


def test_the_line_limit_finds_a_long_module(tmp_path):
    (tmp_path / "long.py").write_text("x = 1\n" * (MODULE_LINES + 1))
    (tmp_path / "short.py").write_text("x = 1\n" * MODULE_LINES)
    assert _too_long(sorted(tmp_path.glob("*.py"))) == [(tmp_path / "long.py", MODULE_LINES + 1)]
