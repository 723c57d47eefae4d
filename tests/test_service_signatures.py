"""Services as HackSoft writes them: every public function of an app's `services/` is
called by keyword only and is typed all through (docs/architecture.md).

A call `seat_round(round_=r, plan_round=plan)` reads the same in the view, the task and
the test, and a parameter added or reordered cannot silently take another's value. The
check walks every app's services package (the online apps' too), so a new app is held to
it from its first commit.
"""
import importlib
import inspect
import pkgutil
from pathlib import Path
from types import ModuleType

import drive

POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD,
              inspect.Parameter.VAR_POSITIONAL)


def service_modules() -> list[ModuleType]:
    modules = []
    for app in pkgutil.iter_modules(drive.__path__, "drive."):
        if not app.ispkg:
            continue
        try:
            package = importlib.import_module(f"{app.name}.services")
        except ModuleNotFoundError as missing:
            if missing.name != f"{app.name}.services":
                raise
            continue
        modules.append(package)
        modules += [importlib.import_module(found.name)
                    for found in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")]
    return modules


def public_functions(module: ModuleType):
    for name, fn in inspect.getmembers(module, inspect.isfunction):
        if not name.startswith("_") and fn.__module__ == module.__name__:
            yield name, fn


def signature_problems(fn) -> list[str]:
    signature = inspect.signature(fn)
    problems = [f"{name} is positional" for name, p in signature.parameters.items() if p.kind in POSITIONAL]
    problems += [f"{name} has no annotation" for name, p in signature.parameters.items()
                 if p.annotation is inspect.Parameter.empty]
    if signature.return_annotation is inspect.Signature.empty:
        problems.append("no return annotation")
    return problems


def test_every_services_module_on_disk_is_walked():
    root = Path(drive.__file__).parent
    on_disk = {".".join(("drive", *path.relative_to(root).with_suffix("").parts))
               for path in root.glob("*/services/**/*.py") if path.name != "__init__.py"}
    walked = {module.__name__ for module in service_modules()}
    assert on_disk and on_disk <= walked
    assert {"drive.games.services.tables", "drive.scoring.services.evening", "drive.live.services.screen"} <= walked


def test_public_services_are_keyword_only_and_typed():
    found = [f"{module.__name__}.{name}: {', '.join(problems)}"
             for module in service_modules() for name, fn in public_functions(module)
             if (problems := signature_problems(fn))]
    assert found == []


def test_the_check_finds_a_positional_untyped_service():
    def seat(round_, plan_round: int = 0):
        return round_

    def seated(*, round_: int, **rest) -> int:
        return round_

    assert signature_problems(seat) == ["round_ is positional", "plan_round is positional",
                                        "round_ has no annotation", "no return annotation"]
    assert signature_problems(seated) == ["rest has no annotation"]
