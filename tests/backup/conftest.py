from tests.scoring.conftest import evening, table1  # noqa: F401  (the scoring evening, reused)
