"""One engine API (issue 21): ``engine`` names at most 25 things, each documented in
its docstring, and the service imports nothing of the engine but that surface."""
import ast
import re
import subprocess
import sys
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[2]


def test_the_surface_is_small():
    assert len(engine.__all__) <= 25
    assert len(set(engine.__all__)) == len(engine.__all__)


def test_every_name_is_documented_in_one_line():
    doc = engine.__doc__ or ""
    for name in engine.__all__:
        assert re.search(rf"^    {re.escape(name)}: \S", doc, re.M), f"{name} is not documented"


def test_every_name_resolves():
    for name in engine.__all__:
        assert getattr(engine, name) is not None


def test_the_older_paths_are_not_exported():
    for name in ("HandState", "Game", "Rubber", "PRESETS", "preset", "SeatView", "replay", "HandRecord"):
        assert name not in engine.__all__
        assert not hasattr(engine, name)


def _engine_imports(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("engine."):
                yield node.lineno, f"from {node.module} import"
            elif node.module == "engine":
                for alias in node.names:
                    if alias.name not in engine.__all__:
                        yield node.lineno, f"from engine import {alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("engine."):
                    yield node.lineno, f"import {alias.name}"


def test_the_service_uses_only_the_surface():
    found = [f"{path.relative_to(ROOT)}:{line}: {what}"
             for path in sorted((ROOT / "drive").rglob("*.py"))
             for line, what in _engine_imports(ast.parse(path.read_text(), str(path)))]
    assert found == []


def test_the_scan_sees_a_deep_import():
    tree = ast.parse("from engine.seats import SEATS\nimport engine.robots\nfrom engine import HandState\n")
    assert [what for _, what in _engine_imports(tree)] == [
        "from engine.seats import", "import engine.robots", "from engine import HandState"]


def test_importing_the_engine_leaves_the_solver_unloaded():
    """The solver's binding (endplay, which pulls numpy and matplotlib) is imported at the
    first solve (engine/robots/solver.py), so ``import engine`` and ``python -m engine
    play`` leave it out (issue 23)."""
    code = ("import sys, runpy; sys.argv = ['engine', 'play', '--rules', 'short', '--seed', '1'];"
            "import engine.cli as cli; cli.main(sys.argv[1:]);"
            "heavy = [m for m in ('endplay', 'numpy', 'matplotlib') if m in sys.modules];"
            "sys.stdout.write('HEAVY' + repr(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.endswith("HEAVY[]"), out.stdout[-200:]


def test_a_solve_loads_dds_without_numpy_or_matplotlib():
    """The first double-dummy solve loads endplay's DDS binding alone, not the endplay
    package (which pulls numpy and matplotlib, about 0.5 s of CPU in every process that
    solves): a robot's first decision and each test or server process pay only DDS."""
    code = ("import sys; from engine.robots.solver import Position, dds_values;"
            "from engine.cards import BIT;"
            # one spade each, North to lead the ace at no trump: North-South win the trick
            "values = dds_values(Position([BIT[c] for c in (12, 11, 10, 9)], (0, 1, 2, 3), [], 0, 4));"
            "heavy = [m for m in ('endplay', 'numpy', 'matplotlib') if m in sys.modules];"
            "sys.stdout.write('VALUES' + repr(sorted(values.values())) + 'HEAVY' + repr(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.endswith("VALUES[1]HEAVY[]"), out.stdout[-200:]
