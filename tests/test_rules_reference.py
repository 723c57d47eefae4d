"""The numbered rules reference (docs/rules.md) and the citations of it.

Code, tests and templates cite rules by number (`# rule S6.3`, `(rule D5)`, `rules D3-D5`,
`(L2c)`); every number cited must have its entry in docs/rules.md, and docs/rules.md
keeps every number of the rules text the project was given.
"""
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RULES_DOC = REPO / "docs" / "rules.md"
SCANNED = ["drive", "engine", "tests", "templates", "bench", "docs", "README.md"]
SUFFIXES = {".py", ".html", ".md", ".txt", ".js", ".css"}

# The numbering of the club's rules text (kept outside the repository), read
# from it once. docs/rules.md must keep every one of these numbers: never drop one.
RULES_MD_NUMBERING = (
    "S1 S2 S3 S4 S5 S6.1 S6.2 S6.3 S6.4 S6.5 S7.1 S7.2 S7.3 S8 S9 "
    "D1 D2 D3 D4 D4b D5 "
    "L1 L2 L2b L2c L3 L4 L5 L6 L7 L8 L9 L10 L11 L12 "
    "P1 P2 P3 B1 B2 B3 B4 B5 Y1 Y2 Y3 Y4 Y5 Y6 R1 R2 R3 R4 R5 R6 R7 R8 R9"
).split()
# Part H is not numbered there; it says the robot names the seed's rules of good play by
# their number in the seed: 21 necessary rules (H1-H21) and 10 additional ones (HA1-HA10).
PLAY_ADVICE = [f"H{n}" for n in range(1, 22)] + [f"HA{n}" for n in range(1, 11)]

# A rule number: a part letter (HA for the additional play advice), a number, an optional
# sub-number and an optional letter: S1, S6.3, D4b, L12, HA3.
PART_ID = r"(?:HA|[SDLPBYRH])\d+(?:\.\d+)?[a-z]?(?!\w)(?!\.\d)"
# After the word rule(s) any capital letter counts, so a mistyped part letter is caught too.
ANY_ID = r"[A-Z]{1,2}\d+(?:\.\d+)?[a-z]?(?!\w)(?!\.\d)"
SEP = r"\s*(?:,|/|&|\band\b|\bor\b|\(and\b|\(see\b|\()\s*"
RANGE = r"\s*[-\u2013]\s*"


def _list(id_re):
    one = rf"{id_re}(?:{RANGE}{id_re})?"
    return rf"{one}(?:{SEP}{one})*"


CITATIONS = [
    # rule S6.3 / Rule D5 / rules D3-D5 / rules S7.2, S7.3, S9 / rule L3 (and S9)
    re.compile(rf"\b(?i:rules?)\s*\(?\s*(?P<ids>{_list(ANY_ID)})"),
    # (L12) / (S6.2, S6.3) / (S6.2-S6.5) / (and S9)
    re.compile(rf"\((?:and |see |also )?(?P<ids>{_list(PART_ID)})\)"),
    # the last item of a parenthesis: (a dummy, L12) / (sat out, D5)
    re.compile(rf"[,;] (?P<ids>{PART_ID})\)"),
    # a comment that starts with the rule: `# D1: ...`, `{# rule ... #}` is caught above
    re.compile(rf"(?:#|\{{#)\s*(?P<ids>{_list(PART_ID)})(?=[\s:,;)]|$)"),
]
ID_OR_RANGE = re.compile(rf"(?P<first>{ANY_ID})(?:{RANGE}(?P<last>{ANY_ID}))?")
HEADING = re.compile(r"^#{2,4} (?P<id>\S+) ")
ANCHOR = re.compile(r'^<a id="(?P<id>[^"]+)"></a>$')


def reference_entries(text: str) -> list[str]:
    """The rule numbers with an entry in docs/rules.md, in their order.

    An entry is a heading "### S6.3 Title" right under the anchor <a id="S6.3"></a>.
    """
    entries, anchor = [], None
    for line in text.splitlines():
        if match := ANCHOR.match(line):
            anchor = match["id"]
            continue
        heading = HEADING.match(line)
        if heading and anchor and heading["id"] == anchor:
            entries.append(anchor)
        anchor = None
    return entries


def citations(text: str):
    """(line number, cited text, [rule numbers]) for each citation; a range gives its ends."""
    for lineno, line in enumerate(text.splitlines(), start=1):
        found = {}    # position in the line -> (text, numbers): two patterns may read one
        for pattern in CITATIONS:
            for match in pattern.finditer(line):
                for part in ID_OR_RANGE.finditer(match["ids"]):
                    ids = [part["first"]] + ([part["last"]] if part["last"] else [])
                    found.setdefault(match.start("ids") + part.start(), (part.group(0), ids))
        for _, (cited, ids) in sorted(found.items()):
            yield lineno, cited, ids


def unresolved(paths, entries: list[str]) -> list[str]:
    """'file:line: text' for each citation of a number with no entry (or a backwards range)."""
    order = {rule: i for i, rule in enumerate(entries)}
    problems = []
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        for lineno, cited, ids in citations(text):
            missing = [rule for rule in ids if rule not in order]
            where = f"{path.relative_to(REPO) if path.is_relative_to(REPO) else path}:{lineno}"
            if missing:
                problems.append(f"{where}: {cited!r} cites {', '.join(missing)}: no entry in docs/rules.md")
            elif len(ids) == 2 and order[ids[0]] >= order[ids[1]]:
                problems.append(f"{where}: {cited!r} is not a range of docs/rules.md")
    return problems


def scanned_files():
    for name in SCANNED:
        root = REPO / name
        if root.is_file():
            yield root
            continue
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES and "__pycache__" not in path.parts:
                yield path


def _entries():
    return reference_entries(RULES_DOC.read_text(encoding="utf-8"))


# --- the tests -------------------------------------------------------------------------------


def test_every_cited_rule_has_an_entry():
    problems = unresolved(scanned_files(), _entries())
    assert not problems, "rule citations that docs/rules.md does not define:\n" + "\n".join(problems)


def test_reference_keeps_the_whole_numbering():
    entries = _entries()
    missing = [rule for rule in RULES_MD_NUMBERING + PLAY_ADVICE if rule not in entries]
    assert not missing, f"docs/rules.md has no entry for {missing}"
    assert len(entries) == len(set(entries)), "a rule number has two entries"
    # The parts keep their order and each part its numbers in order.
    assert [rule for rule in entries if rule in RULES_MD_NUMBERING] == RULES_MD_NUMBERING
    assert [rule for rule in entries if rule in PLAY_ADVICE] == PLAY_ADVICE


def test_every_entry_has_its_anchor_and_text():
    lines = RULES_DOC.read_text(encoding="utf-8").splitlines()
    headings = [i for i, line in enumerate(lines) if re.match(rf"^#{{3,4}} {PART_ID} ", line)]
    assert len(headings) == len(_entries()), "a rule heading without its anchor right above it"
    for i in headings:
        body = []
        for line in lines[i + 1:]:
            if line.startswith("#") or line.startswith("<a id="):
                break
            body.append(line.strip())
        rule = lines[i].split()[1]
        assert any(body) or rule in ("S6", "S7"), f"{rule} has a heading but no text"


def test_readme_links_the_reference():
    assert "docs/rules.md" in (REPO / "README.md").read_text(encoding="utf-8")


# --- the scanner itself ------------------------------------------------------------------------


def _cited(text):
    return [ids for _, _, ids in citations(text)]


def test_scanner_reads_the_citation_forms():
    rule = "rule"    # split so this file's own scan does not read these samples
    assert _cited(f"# {rule} S6.3: no duty to trump") == [["S6.3"]]
    assert _cited(f'"(R{rule[1:]} D5)" %}}') == [["D5"]]
    assert _cited(f"{rule}s D3-D5);") == [["D3", "D5"]]
    assert _cited(f"{rule}s S7.2, S7.3, S9, L2b, L10).") == [["S7.2"], ["S7.3"], ["S9"], ["L2b"], ["L10"]]
    assert _cited(f"{rule} L3 (and S9): an event") == [["L3"], ["S9"]]
    assert _cited("legal moves (S6.2-S6.5), a dummy (L12)") == [["S6.2", "S6.5"], ["L12"]]
    assert _cited("x = 1   # D1: each hand alone") == [["D1"]]
    assert _cited("open hands (a dummy, L12); (sat out, D5).") == [["L12"], ["D5"]]
    assert _cited(f"the {rule}s preset; {rule}s.py; RULES.md; (A6 card); P5 won 2") == []


def test_a_bogus_citation_fails_naming_file_and_line(tmp_path):
    bogus = tmp_path / "views.py"
    bogus.write_text(f"x = 1\ny = 2  # {'rule'} S6.9: no such rule\nz = 3  # ({'rule'} Q3)\n")
    problems = unresolved([bogus], _entries())
    assert len(problems) == 2
    assert problems[0].startswith(f"{bogus}:2: ") and "S6.9" in problems[0]
    assert problems[1].startswith(f"{bogus}:3: ") and "Q3" in problems[1]


def test_a_backwards_range_fails(tmp_path):
    bogus = tmp_path / "t.html"
    bogus.write_text(f"{'rule'}s D5-D3\n")
    assert unresolved([bogus], _entries()) == [f"{bogus}:1: 'D5-D3' is not a range of docs/rules.md"]
