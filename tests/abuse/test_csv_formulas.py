"""The public results CSV: a name a spreadsheet would run as a formula goes out as text
(a display name starting with `=` went into the CSV unescaped)."""
import csv
import io

import pytest

from drive.events.models import Player
from drive.scoring.services import ranking
from drive.core.spreadsheet import safe_cell
from tests.scoring.conftest import evening, table1  # noqa: F401  (fixtures)
from tests.scoring.test_results_pages import publish

NAMES = {"P2": '=HYPERLINK("http://evil.example","x")', "P3": "@SUM(A1:A9)", "P4": "+1+2", "P5": "-2+3",
         "P6": "\tTAB", "P7": "\rCR"}


@pytest.mark.django_db
def test_names_that_look_like_formulas_are_text_in_the_csv(client, evening):  # noqa: F811
    event = evening
    for old, new in NAMES.items():
        Player.objects.filter(display_name=old).update(display_name=new)
    ranking.recompute_standings(event_id=event.pk)
    publish(event)
    text = client.get(f"/events/{event.pk}/results.csv").content.decode("utf-8-sig")
    cells = [cell for row in csv.reader(io.StringIO(text, newline="")) for cell in row]
    for name in NAMES.values():
        assert "'" + name in cells, name
        assert name not in cells, name
    assert not [c for c in cells if c and (c[0] in "=+@\t\r" or (c[0] == "-" and not c.lstrip("-").isdigit()))]


@pytest.mark.parametrize("value, expected", [
    ("=1+2", "'=1+2"), ("+1", "'+1"), ("-x", "'-x"), ("@A1", "'@A1"), ("\tx", "'\tx"), ("\rx", "'\rx"),
    ("-3", "-3"), ("-2.5", "-2.5"), ("Anna", "Anna"), ("", ""), (7, 7), (-3, -3), (None, None),
])
def test_safe_cell(value, expected):
    assert safe_cell(value) == expected
