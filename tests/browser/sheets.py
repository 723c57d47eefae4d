"""Reading the online table's score sheet (drive/static/js/play_sheet.js) back from the
page, by its data-row (a line's stable key) and data-side (the score's side code)
attributes, and holding it to the engine's GameState.score() (the API's `score`).

`expected_cells(score)` is where every number of a score belongs on the sheet:
{row key: {side code: number}}; `assert_sheet_matches` asserts the page shows exactly
those: each one in its row and column, and no number the score does not have."""
import re

# What the page reads off its sheet: each line's cells by side, the notes' numbers, the
# sides' column heads, the winner line(s).
READ_SHEET = """() => {
  const box = document.querySelector('#play-score');
  const rows = {}, duplicates = [];
  box.querySelectorAll('[data-row]').forEach((r) => {
    const key = r.getAttribute('data-row');
    if (key in rows) duplicates.push(key);
    const cells = {};
    if (r.tagName === 'TR') r.querySelectorAll(':scope > td[data-side]').forEach((td) => {
      cells[td.getAttribute('data-side')] = td.textContent.trim();
    });
    const value = r.tagName === 'P' && r.querySelector('[data-value]');
    rows[key] = {tag: r.tagName, cells, value: value ? value.getAttribute('data-value') : null,
                 side: r.getAttribute('data-side'), books: r.getAttribute('data-books'),
                 text: r.textContent.trim()};
  });
  const strays = [...box.querySelectorAll('td')].filter((td) => !td.closest('tr[data-row]') || !td.hasAttribute('data-side')).length;
  const heads = [...box.querySelectorAll('th[data-head]')].map((th) => [th.getAttribute('data-head'), th.textContent.trim()]);
  return {rows, duplicates, strays, heads, text: box.innerText};
}"""

SIDE_NAMES = {"NS": "N-S", "EW": "E-W"}  # the page's names (English): sideName() in play.js


def shown(value) -> str:
    return str(value)


def side_name(side: str) -> str:
    return SIDE_NAMES.get(side, side)


def seat_side(seat: str, sides) -> str:
    """The side a seat plays for ("N" in "NS" or "S+N"), as play_sheet.js's sideOfSeat."""
    for side in sides:
        if side == seat or seat in (side.split("+") if "+" in side else side):
            return side
    raise AssertionError(f"seat {seat} is in none of {list(sides)}")


def expected_cells(score: dict) -> dict:
    """Every number of the score by the row and the side it is written in."""
    out = {}

    def put(key, values):
        assert key not in out, key
        out[key] = dict(values)

    def lines(key, game):
        put(f"{key}-above", game["above"])
        put(f"{key}-below", game["below"])
        if game.get("carried"):
            put(f"{key}-carried", game["carried"])
        if game.get("net"):
            put(f"{key}-net", game["net"])

    if "below" in score:
        lines("game-1", score)
    games = score.get("games") or []
    if games and "games" in games[0]:  # two- and three-handed: sheets of games
        for i, sheet in enumerate(games, 1):
            for j, game in enumerate(sheet["games"], 1):
                lines(f"sheet-{i}-game-{j}", game)
            if sheet.get("winner") is not None and sheet.get("value") is not None:
                put(f"sheet-{i}-value", {sheet["winner"]: sheet["value"]})
    else:
        for i, game in enumerate(games, 1):
            lines(f"game-{i}", game)
        if score.get("games_won"):
            put("games_won", score["games_won"])
        if score.get("net"):
            put("net", score["net"])
    if score.get("points"):
        put("points", score["points"])
    last = score.get("last_hand")
    if last and last.get("entries") is not None:
        if last.get("tricks"):
            put("last-hand-tricks", last["tricks"])
        for k, entry in enumerate(last["entries"], 1):
            put(f"last-hand-{k}", {entry["side"]: entry["points"]})
    hands = score.get("hands")
    if "totals" in score:
        for i, hand in enumerate(hands if isinstance(hands, list) else [], 1):
            points = hand["points"]
            if isinstance(points, dict):
                put(f"hand-{i}", points)
            else:  # bid whist: the bidding side's points
                put(f"hand-{i}", {seat_side(hand.get("bidder") or hand["declarer"], score["totals"]): points})
        put("total", score["totals"])
    elif isinstance(hands, list):  # Prussian whist, humbug: each hand's tricks, below and above
        for i, hand in enumerate(hands, 1):
            put(f"hand-{i}-tricks", hand["tricks"])
            put(f"hand-{i}-above", hand["above"])
            put(f"hand-{i}-below", hand["below"])
    return out


def expected_notes(score: dict) -> dict:
    """The numbers of no side: the target, a drive's hands played."""
    out = {}
    if isinstance(score.get("target"), int):
        out["target"] = score["target"]
    if isinstance(score.get("hands"), int):
        out["hands"] = score["hands"]
    return out


def read_sheet(page) -> dict:
    return page.evaluate(READ_SHEET)


def assert_sheet_matches(page, score: dict) -> dict:
    """The page's score sheet is this score: every number in its row and side's column,
    no numeric cell empty where the score has a value, no number the score lacks, the
    sides by the page's names, the winner once. Returns what was read."""
    sheet = read_sheet(page)
    rows, text = sheet["rows"], sheet["text"]
    assert not sheet["duplicates"], f"rows named twice: {sheet['duplicates']}"
    assert not sheet["strays"], "a cell outside a data-row line or without its data-side"
    wanted = expected_cells(score)
    problems = []
    for key, values in wanted.items():
        row = rows.get(key)
        if row is None:
            problems.append(f"no row {key} (the score has {values})")
            continue
        for side, value in values.items():
            got = row["cells"].get(side)
            if got is None:
                problems.append(f"{key}: no {side} column")
            elif got != shown(value):
                problems.append(f"{key} {side}: {got!r} on the page, {value!r} in the score")
        for side, got in row["cells"].items():
            if side not in values and got:
                problems.append(f"{key} {side}: {got!r} on the page, nothing in the score")
    for key, row in rows.items():  # a number on the sheet is the score's, in a line it has
        if row["tag"] == "TR" and key not in wanted and any(row["cells"].values()):
            problems.append(f"row {key} shows {row['cells']}: no such numbers in the score")
    for key, value in expected_notes(score).items():
        row = rows.get(key)
        if row is None or row["value"] != shown(value):
            problems.append(f"{key}: {row and row['value']!r} on the page, {value!r} in the score")
    hands = score.get("hands")
    if "totals" in score and isinstance(hands, list):
        for i, hand in enumerate(hands, 1):
            if "books" in hand and (rows.get(f"hand-{i}") or {}).get("books") != shown(hand["books"]):
                problems.append(f"hand-{i}: books {(rows.get(f'hand-{i}') or {}).get('books')!r}, "
                                f"{hand['books']!r} in the score")
    assert not problems, "the sheet is not the score:\n" + "\n".join(problems) + f"\n\nscore: {score}\n\nsheet:\n{text}"

    for side, name in sheet["heads"]:  # the sides as the page names them
        assert name == side_name(side), f"the column of {side} is headed {name!r}"
    assert not re.search(r"\b(NS|EW)\b", text), f"a raw side code on the sheet:\n{text}"
    line, winner = rows.get("winner"), score.get("winner")
    if winner is None:
        assert line is None and "Winner:" not in text, f"a winner shown, the score has none:\n{text}"
    else:
        codes = winner if isinstance(winner, list) else [winner]
        assert line is not None and line["side"] == ",".join(codes), f"no winner {winner}:\n{text}"
        assert line["text"] == "Winner: " + ", ".join(side_name(c) for c in codes)
        assert text.count("Winner:") == 1, f"the winner more than once:\n{text}"
    return sheet
