"""CSV for spreadsheets: a cell a spreadsheet would read as a formula goes out as text.

A name such as `=HYPERLINK(...)` or `@SUM(...)` in a public export would otherwise run in
the reader's spreadsheet (CSV injection, OWASP): such cells get a leading apostrophe.
Numbers stay numbers ("-3" is a score, not a formula).
"""
from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, Protocol

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"-?\d+(\.\d+)?")


class Writable(Protocol):
    """Where the rows go: a text file, a StringIO, an HttpResponse."""

    def write(self, text: str, /) -> Any: ...


def safe_cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_START) and not NUMBER.fullmatch(value):
        return "'" + value
    return value


class SafeWriter:
    """csv.writer whose rows are escaped cell by cell."""

    def __init__(self, out: Writable, **kwargs: Any) -> None:
        self._writer = csv.writer(out, **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([safe_cell(value) for value in row])
