"""The change kinds of the live feed and the round clock's warning are defined once, in
Python (drive/core/broadcast.Change, drive/core/clock), and the scripts read them from
the page: no script writes them again."""
import json
import re
from pathlib import Path

import pytest

from drive.core.broadcast import Change
from drive.core.clock import WARN_SECONDS, clock_text

SCRIPTS = Path(__file__).resolve().parents[1] / "drive" / "static" / "js"


def constants_of(html):
    found = re.search(r'<script id="page-constants" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page carries no constants"
    return json.loads(found.group(1))


@pytest.mark.django_db
def test_every_page_hands_the_scripts_the_kinds_and_the_warning(client):
    constants = constants_of(client.get("/").content.decode())
    assert constants == {"kinds": {c.name: c.value for c in Change}, "warn_seconds": WARN_SECONDS}


@pytest.mark.parametrize("script", sorted(p.name for p in SCRIPTS.glob("*.js")))
def test_no_script_writes_a_change_kind_or_the_warning_again(script):
    text = (SCRIPTS / script).read_text()
    compared = re.findall(r"""kind\s*[!=]==?\s*["'](\w+)["']""", text)
    listed = re.findall(r"""\[\s*["']({})["']""".format("|".join(c.value for c in Change)), text)
    assert compared + listed == [], f"{script} names change kinds itself: use window.whist.kinds"
    assert not re.search(rf"\b{WARN_SECONDS}\b", text) or script == "constants.js"


def test_the_clock_reads_as_the_scripts_write_it():
    assert [clock_text(s) for s in (0, 5, 65, 600, 3599, 3600, 3725)] == [
        "0:00", "0:05", "1:05", "10:00", "59:59", "1:00:00", "1:02:05"]
