"""The engine is pure Python with no Django import (DESIGN engine/)."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"


def imported_names(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module or ""


def test_no_module_imports_django_or_the_service():
    sources = sorted(ENGINE.rglob("*.py"))
    assert sources
    for path in sources:
        for name in imported_names(path):
            top = name.split(".")[0]
            assert top not in ("django", "drive", "rest_framework", "channels", "celery"), \
                f"{path.relative_to(ROOT)} imports {name}"
        text = path.read_text(encoding="utf-8")
        assert "import_module" not in text and "__import__" not in text, path


def test_importing_every_engine_module_loads_no_django():
    modules = [f"engine.{p.stem}" for p in sorted(ENGINE.glob("*.py")) if p.stem != "__main__"]
    code = ("import sys\n" + "".join(f"import {m}\n" for m in modules) +
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'drive'))\n"
            "print(bad)\nsys.exit(1 if bad else 0)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
