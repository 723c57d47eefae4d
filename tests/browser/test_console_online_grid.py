"""The console's grid of a mixed round in real Chromium, on a phone and on a laptop: the
online table carries its "online" tag and a "Watch" link to its game (which opens it), the
paper table neither; the online table's console page has no paper entry of a hand still
being played. Screenshots: console-grid-online-phone.png, -desktop.png, -table.png."""
import pytest

from drive.games.models import PlayTable
from drive.scoring.services import online_tables as evening
from drive.scoring.services import evening as ev
from tests import seats
from tests.play.evening_kit import play_hand, seated_evening
from drive.scoring.models import Table

from .test_play import fetched, signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_grid_marks_the_online_table_on_a_phone_and_a_laptop(make_event, organiser, new_page, live_server,
                                                                 shoot):
    from playwright.sync_api import expect

    event = seated_evening(make_event)
    evening.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[1])
    ev.start_round(actor=organiser, event=event)
    online = PlayTable.objects.get(event=event, table_number=1)
    play_hand(online)
    paper = Table.objects.get(event=event, number=2)
    seats.enter(table=paper, seat="N", hand_number=1, ns_tricks=8, trump="H")
    page = signed_in(new_page, live_server, organiser, "organiser")
    page.goto(f"/console/events/{event.pk}/evening/")
    tile, other = page.locator(".table-grid li").nth(0), page.locator(".table-grid li").nth(1)
    expect(tile.locator(".tag.tbl-online")).to_have_text("online")
    watch = tile.get_by_role("link", name="Watch table 1 online")
    expect(watch).to_have_attribute("href", f"/play/{online.pk}/")
    expect(other.locator(".tbl-online")).to_have_count(0)
    expect(other.locator(".tbl-watch")).to_have_count(0)
    box, link = tile.locator("a.tbl").bounding_box(), watch.bounding_box()
    assert link["height"] >= 44 and link["y"] >= box["y"] + box["height"] - 1  # under the tile, a finger's size
    assert box["x"] + box["width"] <= 390 and link["x"] + link["width"] <= 390  # inside the phone
    shoot(page, "console-grid-online-phone")
    page.set_viewport_size({"width": 1280, "height": 900})
    expect(watch).to_be_visible()
    shoot(page, "console-grid-online-desktop")
    tile.locator("a.tbl").click()
    expect(page.locator(".notice.online-note")).to_be_visible()
    expect(page.locator("#claims")).to_have_count(0)
    expect(page.locator("#hand-2")).to_contain_text("Being played online")
    expect(page.locator("#hand-1 summary", has_text="Correct this hand")).to_have_count(1)
    shoot(page, "console-grid-online-table")
    page.get_by_role("link", name="Watch table 1 online").click()
    page.wait_for_url(f"**/play/{online.pk}/")
    assert fetched(lambda: PlayTable.objects.filter(pk=online.pk).exists())
