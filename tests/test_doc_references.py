"""Every file the code, the config and the docs name is a file of the repository.

What is read: the text files under drive/, engine/, bench/, tests/, templates/, docs/,
bin/ and .ci/, and pyproject.toml, docker-compose.yml, the Dockerfile, README.md,
CHANGELOG.md and SECURITY.md. In a Python file only its comments and docstrings are
read: its other strings are data (a URL, a download's name, a file a test writes in
tmp_path). Vendored files (*.min.js) are not the project's text and are not read.

A reference is either
- in a markdown file, a link `[text](target)` that is not a URL or an anchor: the target
  (without its #anchor) must exist relative to the file holding the link, as GitHub
  resolves it; or
- a name ending in .md .py .yml .yaml .toml .txt .json .csv that is not a method call
  (`response.json()`) nor part of a URL. With a folder in it (`engine/RECORD.md`) it must
  exist relative to the referring file's folder or to a folder above it, the repository's
  root included; a bare name (`grade.py`) must be the name of some file of the repository.
  Either way the file is inside the repository: `../` out of it does not count.

Not references, so the rule stays simple: a name starting with `/` (a URL path such as
`/events/<id>/results.csv`, or an absolute path outside the repository), a name with a
placeholder before its suffix (`<file>.json`) and a name in test-artifacts/, the folder
(ignored by git) where tests write their figures. A file a command writes is written so: a
path under /tmp or a placeholder. A library's own file has no business in these texts; if
one is ever needed, name it by its module (`django.core.serializers`), not by a path.
"""
import ast
import io
import os
import re
import tokenize
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCANNED = ["drive", "engine", "bench", "tests", "templates", "docs", "bin", ".ci",
           "pyproject.toml", "docker-compose.yml", "Dockerfile", "README.md", "CHANGELOG.md", "SECURITY.md"]
TEXT_SUFFIXES = {".py", ".md", ".html", ".txt", ".toml", ".yml", ".yaml", ".js", ".css", ".cfg", ".ini", ".sh"}
SKIPPED_PARTS = {"__pycache__", ".venv", ".git", "test-artifacts", "node_modules"}
OUTPUT_FOLDERS = ("test-artifacts/",)
README_MAX_BYTES = 12 * 1024

# A name ending in a file suffix; the look-behind keeps it whole, the look-ahead drops a call.
NAME = re.compile(r"(?<![\w./-])(/?[\w./-]*\w\.(?:md|py|yml|yaml|toml|txt|json|csv))(?![\w(-])")
LINK = re.compile(r"\]\(([^)\s]+)\)")
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+")


def scanned_files(root: Path = REPO):
    for name in SCANNED:
        top = root / name
        if top.is_file():
            yield top
        elif top.is_dir():
            for path in sorted(top.rglob("*")):
                if not path.is_file() or SKIPPED_PARTS & set(path.relative_to(root).parts):
                    continue
                if path.name.endswith(".min.js"):
                    continue
                if path.suffix in TEXT_SUFFIXES or (not path.suffix and top.name in ("bin", ".ci")):
                    yield path


def python_prose(text: str) -> str:
    """A Python file's comments and docstrings, each on its own line number."""
    lines = [""] * (text.count("\n") + 2)
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            lines[token.start[0] - 1] += " " + token.string
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                for offset, line in enumerate(first.value.value.splitlines()):
                    lines[first.lineno - 1 + offset] += " " + line
    return "\n".join(lines)


def references(path: Path, prose_only: bool = True):
    """(line number, kind, referred name) for each reference in one file (in a Python file,
    with prose_only=False, in its code too: a quick first pass, a superset of the prose's)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".py" and prose_only:
        text = python_prose(text)
    for lineno, line in enumerate(text.splitlines(), start=1):
        for target in LINK.findall(line) if path.suffix == ".md" else ():
            if not URL.match(target) and not target.startswith(("#", "mailto:")):
                yield lineno, "link", target.split("#")[0]
        for name in NAME.findall(URL.sub(" ", line)):
            if not name.startswith(("/", *OUTPUT_FOLDERS)):
                yield lineno, "name", name


def resolves(path: Path, kind: str, name: str, root: Path, names: set[str]) -> bool:
    if kind == "link":
        return inside(path.parent / name, root) and (path.parent / name).exists()
    if "/" not in name:
        return name in names
    folder = path.parent
    while True:
        if inside(folder / name, root) and (folder / name).is_file():
            return True
        if folder == root or root not in folder.parents:
            return False
        folder = folder.parent


def inside(path: Path, root: Path) -> bool:
    return path.resolve().is_relative_to(root.resolve())


def repository_names(root: Path) -> set[str]:
    names = set()
    for folder, folders, files in os.walk(root):
        folders[:] = [name for name in folders if name not in SKIPPED_PARTS and not name.endswith(".egg-info")]
        names.update(files)
    return names


def dangling(root: Path = REPO) -> list[str]:
    names = repository_names(root)
    problems = []
    for path in scanned_files(root):
        def unresolved(prose_only):
            return [f"{path.relative_to(root)}:{lineno}: {name}"
                    for lineno, kind, name in references(path, prose_only)
                    if not resolves(path, kind, name, root, names)]
        # Tokenizing Python is slow: only a file whose whole text names a missing file is
        # read again for its comments and docstrings alone.
        if path.suffix != ".py" or unresolved(prose_only=False):
            problems += unresolved(prose_only=True)
    return list(dict.fromkeys(problems))


# --- the tests -------------------------------------------------------------------------------


def test_every_referred_file_exists():
    problems = dangling()
    assert not problems, "references to files that do not exist:\n" + "\n".join(problems)


def test_the_readme_stays_short():
    size = len((REPO / "README.md").read_text(encoding="utf-8").encode())
    assert size <= README_MAX_BYTES, f"README.md is {size} bytes, more than {README_MAX_BYTES}"


# --- the scanner itself ------------------------------------------------------------------------


def test_a_dangling_reference_fails_naming_file_and_line(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "engine" / "robots").mkdir(parents=True)
    (tmp_path / "docs" / "rules.md").write_text("# Rules\n")
    (tmp_path / "engine" / "robots" / "base.py").write_text('"""Robots."""\n')
    (tmp_path / "README.md").write_text(
        "Rules: [the rules](docs/rules.md), [gone](docs/gone.md), [anchor](#pages).\n"
        "The floors: NOTES.md and docs/design.md; the robots: engine/robots/base.py.\n"
        "Downloads: /events/<id>/results.csv, <file>.json; https://example.org/x.md\n"
        "Figures: test-artifacts/screen-live.txt; upwards: ../outside.md\n")
    (tmp_path.parent / "outside.md").write_text("# Not the repository's\n")
    (tmp_path / "engine" / "robots" / "strong.py").write_text(
        '"""See robots/base.py and base.py; spec-bid.md is elsewhere."""\n'
        'ANSWER = response.json()  # the layouts of notes/spec-dummy.md\n'
        'OUT = "written.csv"\n')
    assert sorted(dangling(tmp_path)) == [
        "README.md:1: docs/gone.md",
        "README.md:2: NOTES.md",
        "README.md:2: docs/design.md",
        "README.md:4: ../outside.md",
        "engine/robots/strong.py:1: spec-bid.md",
        "engine/robots/strong.py:2: notes/spec-dummy.md",
    ]


def test_links_resolve_from_the_referring_file(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text("# Rules\n")
    (tmp_path / "docs" / "api.md").write_text("[rules](rules.md), [root-relative](docs/rules.md)\n")
    assert dangling(tmp_path) == ["docs/api.md:1: docs/rules.md"]
