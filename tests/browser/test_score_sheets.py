"""The online table's score sheet for every preset (issue 20): a game played out in the
engine with random legal actions (no clicks), stored as a table the test user sits at,
opened on a phone (390 px); the sheet on the page holds every number of the API's
`score` in its row and its side's column (tests/browser/sheets.py), and the page does
not scroll sideways. Also mid-game, after a hand or two, for bid, two-handed and dummy
whist."""
import random

import pytest
from django.test import Client
from django.utils import timezone

from drive.games.models import PlayTable
from drive.games.services import tables
from engine import VARIANTS
from engine.state import Phase

from .sheets import assert_sheet_matches
from .test_play import fast_polls, fetched, signed_in  # noqa: F401 - fast_polls is a fixture

SHOTS = {"bid", "two_handed", "rubber", "siberian", "three_handed", "dummy", "prussian", "short", "drive", "special_suit"}


def played(name: str, hands: int | None, seed: int):
    """The preset's game with random legal actions from `seed`: to its end, or (`hands`
    given) until that many hands are written and the next one is dealt, as the server
    leaves a table after a hand. None if the game ended before."""
    rng = random.Random(seed)
    game = VARIANTS[name].new_game(rng)
    written = 0
    while game.phase != Phase.OVER:
        if game.phase in (Phase.DEAL, Phase.SCORED):
            if game.phase == Phase.SCORED:
                written += 1
            game.deal(rng)
            if hands is not None and written == hands:
                return game
        else:
            game.apply(rng.choice(game.legal_actions()))
    return None if hands is not None else game


def game_for(name: str, hands: int | None = None):
    for seed in range(3, 200):
        game = played(name, hands, seed)
        if game is not None:
            return game
    raise AssertionError(f"{name}: no game still going after {hands} hands")


def stored(user, name: str, game) -> int:
    """A table of `name` the user sits at (its first seat; the others open, no robot to
    move), its record the game's."""
    def work():
        table = tables.create_table(user=user, rules=name, robots={})
        table.record = game.record()
        table.phase = str(game.phase)
        table.version += 1000  # a version no snapshot of the dealt game has
        table.finished_at = timezone.now() if game.phase == Phase.OVER else None
        table.save(update_fields=["record", "phase", "version", "finished_at", "changed_at"])
        return table.pk

    return fetched(work)


def api_score(user, table_id: int) -> dict:
    def work():
        client = Client()
        client.force_login(user)
        answer = client.get(f"/api/play/tables/{table_id}/", HTTP_ACCEPT="application/json")
        assert answer.status_code == 200, answer.content
        return answer.json()

    return fetched(work)


def open_sheet(new_page, live_server, user, table_id: int, view: dict):
    page = signed_in(new_page, live_server, user, "sheet")
    page.goto(f"/play/{table_id}/")
    page.locator(f'#play[data-version="{view["version"]}"]').wait_for(state="attached")
    page.locator("#play-score .sheets").wait_for(state="attached")
    return page


def assert_fits_a_phone(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide at 390 px"


def final_score(score: dict) -> dict:
    """The game's result as the end of the game says it, in the variant's terms: its totals
    or balance, the rubber's points, or (whist for two) the values of the games won."""
    for key in ("totals", "net", "points"):
        if key in score:
            return score[key]
    sheets = [g for g in score.get("games", []) if "games" in g]
    if not sheets:
        lines = [score.get("below", {}), score.get("above", {})]
        lines += [g[line] for g in score.get("games", []) for line in ("below", "above")]
        return {side: sum(line.get(side, 0) for line in lines) for side in lines[0]}
    out = {}
    for sheet in sheets:
        for game in sheet["games"]:
            out.update({seat: out.get(seat, 0) for seat in game["below"] if "+" not in seat})
        out[sheet["winner"]] = out.get(sheet["winner"], 0) + sheet["value"]
    return out


def assert_final_score(page, score: dict):
    names = {"NS": "N-S", "EW": "E-W"}
    said = " · ".join(f"{names.get(side, side)} {value}" for side, value in final_score(score).items())
    assert page.locator("#play-over .final-score").inner_text() == f"Final score: {said}"


def check(name, game, make_user, new_page, live_server, shoot, shot):
    me = make_user(f"sheet-{name}"[:30])
    table_id = stored(me, name, game)
    view = api_score(me, table_id)
    assert view["score"] == game.score()  # the API's score is the engine's
    page = open_sheet(new_page, live_server, me, table_id, view)
    assert_sheet_matches(page, view["score"])
    assert_fits_a_phone(page)
    if game.phase == Phase.OVER:
        assert_final_score(page, view["score"])
    if shot:
        closed = page.locator("#play-score details.sheet-more:not([open]) > summary")
        for _ in range(closed.count()):  # open the hand by hand record for the picture
            closed.first.click()
        shoot(page, shot)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", list(VARIANTS))
def test_a_finished_games_sheet_is_the_apis_score(name, make_user, new_page, live_server, fast_polls, shoot):
    check(name, game_for(name), make_user, new_page, live_server, shoot,
          f"sheet-{name}-over" if name in SHOTS else None)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name,hands", [("bid", 1), ("two_handed", 2), ("dummy", 2)])
def test_a_sheet_mid_game_is_the_apis_score(name, hands, make_user, new_page, live_server, fast_polls, shoot):
    game = game_for(name, hands)
    assert game.phase != Phase.OVER
    check(name, game, make_user, new_page, live_server, shoot, f"sheet-{name}-mid")
