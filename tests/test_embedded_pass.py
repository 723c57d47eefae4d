"""Pass 2 leaves out what cannot touch the embedded default and the HTTP contract walks
(tests/embedded_pass.py)."""
from tests.embedded_pass import pytest_collection_modifyitems, uses_the_embedded_default


class Item:
    def __init__(self, name, marks=(), fixtures=()):
        self.name, self.marks, self.fixturenames = name, set(marks), list(fixtures)

    def get_closest_marker(self, name):
        return name if name in self.marks else None


class Hook:
    def __init__(self):
        self.deselected = []

    def pytest_deselected(self, items):
        self.deselected += [item.name for item in items]


class Config:
    def __init__(self):
        self.hook = Hook()


ITEMS = [Item("db-mark", marks={"django_db"}), Item("db-fixture", fixtures={"db"}),
         Item("live-server", fixtures={"live_server"}), Item("embedded", marks={"embedded"}),
         Item("pure"), Item("pure-with-settings", fixtures={"settings", "monkeypatch"}),
         Item("contract", marks={"contract", "django_db"}, fixtures={"db"})]


def test_only_database_free_unmarked_tests_and_contract_walks_are_left_out():
    assert [item.name for item in ITEMS if uses_the_embedded_default(item)] == [
        "db-mark", "db-fixture", "live-server", "embedded"]


def test_the_left_out_are_reported_as_deselected():
    items, config = list(ITEMS), Config()
    pytest_collection_modifyitems(config, items)
    assert [item.name for item in items] == ["db-mark", "db-fixture", "live-server", "embedded"]
    assert config.hook.deselected == ["pure", "pure-with-settings", "contract"]


def test_the_contract_walks_are_marked():
    """The schemathesis walks are what the mark leaves out: each is still marked (else pass
    2 would quietly run them again, or a new walk would be left out unmarked)."""
    import ast
    from pathlib import Path

    tests = Path(__file__).parent
    marked = []
    for path in tests.rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                decorators = [ast.unparse(d) for d in node.decorator_list]
                if "schema.parametrize()" in decorators:
                    assert "pytest.mark.contract" in decorators, f"{path.name}::{node.name}"
                    marked.append(node.name)
    assert len(marked) >= 5, marked
