import pytest

from drive.movements.algorithms.individual import forget_searches


@pytest.fixture(autouse=True)
def fresh_searches():
    """Each movement test runs its own searches, not ones an earlier test left kept."""
    forget_searches()
    yield
    forget_searches()
