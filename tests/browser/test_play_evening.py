"""A mixed evening in real Chromium: table 1 online, table 2 on paper. At the online table
one person (the only one of its four with an account) plays both hands of the round by
clicks, robots playing the seats of the players without one; table 2's hands are entered
as the phones enter them. Once the round is closed the standings are the ones the hands
give (rule D3), the online hands counted with no entry step."""
from decimal import Decimal

import pytest

from drive.games.models import PlayTable
from drive.games.services import tables
from drive.scoring.services import online_tables as evening
from drive.scoring.models import HandResult, Standing, Table
from drive.scoring.services import evening as ev
from drive.scoring.services import ranking
from tests import seats
from tests.play.evening_kit import seated_evening, user_of
from tests.play.test_evening_mixed import expected_totals

from .test_play import fast_polls, fetched, play_to_the_end, quick_pace, signed_in  # noqa: F401 - fast_polls is a fixture
from .test_screen import in_thread


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_mixed_evening_played_in_the_browser_gives_correct_standings(make_event, organiser, new_page, live_server,
                                                                       fast_polls, shoot):  # noqa: F811
    event = seated_evening(make_event, accounts=(1, 5, 6, 7, 8))
    evening.set_online_tables(actor=organiser, event=event, mode="mixed", tables=[1])
    ev.start_round(actor=organiser, event=event)
    table = PlayTable.objects.get(event=event, round_number=1)
    assert [s.robot for s in table.seats.order_by("seat")] == ["rules", "", "rules", "rules"]  # E, N, S, W
    paper = Table.objects.get(event=event, number=2)
    for hand, tricks in ((1, 9), (2, 4)):
        seats.enter(table=paper, seat="N", hand_number=hand, ns_tricks=tricks, trump="H")
        seats.enter(table=paper, seat="W", hand_number=hand, ns_tricks=tricks, trump="H")
    page = signed_in(new_page, live_server, user_of(event, 1), "north")
    quick_pace(page)
    page.goto(f"/play/{table.pk}/")
    play_to_the_end(page, table.pk)
    shoot(page, "play-evening-table-over")
    online = fetched(lambda: list(HandResult.objects.filter(round__event=event, table__number=1)
                                  .values_list("hand_number", "status", "change_kind")))
    assert sorted(online) == [(1, "confirmed", "entry"), (2, "confirmed", "entry")]
    page.context.close()
    in_thread(lambda: ev.end_round(actor=organiser, event=event))
    in_thread(lambda: ranking.recompute_standings(event_id=event.pk))
    lines = fetched(lambda: {s.entrant.number: s.total for s in Standing.objects.filter(event=event)})
    totals = fetched(lambda: expected_totals(event))
    assert lines == {n: Decimal(t) for n, t in totals.items()}
    assert len(lines) == 8


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_organiser_sets_tables_online_from_the_console_and_fills_any_seat(make_event, organiser, make_user,
                                                                            new_page, live_server, fast_polls,  # noqa: F811
                                                                            shoot):
    """From the evening's console: the Online tables tab sets table 1 online; once the
    round starts the page lists it to watch, and on the table page the organiser (not
    seated) gets every seat's controls: a substitute with an account in a robot's seat,
    a strong robot in a person's seat."""
    from playwright.sync_api import expect

    event = seated_evening(make_event, accounts=(1, 5, 6, 7, 8))
    substitute = make_user("sub", first_name="Sophie", last_name="Sub")
    page = signed_in(new_page, live_server, organiser, "organiser")
    page.goto(f"/console/events/{event.pk}/evening/")
    page.get_by_role("link", name="Online tables").click()
    page.locator("input[name=mode][value=mixed]").check()
    page.locator("input[name=tables]").fill("1")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("Saved")
    shoot(page, "play-console-online-setting")
    in_thread(lambda: ev.start_round(actor=organiser, event=event))
    page.reload()
    table = fetched(lambda: PlayTable.objects.get(event=event, round_number=1))
    page.locator(f"tr[data-online-table='{table.pk}'] a", has_text="Watch").click()
    controls = page.locator("#play-manage")
    expect(controls.locator(".manage-seat")).to_have_count(4)  # every seat: the organiser sits at none
    expect(controls.locator(".manage-seat[data-seat='E'] button[data-manage-robot]")).to_have_count(1)  # rules sits
    shoot(page, "play-console-online-table")
    controls.locator("#play-substitute-E").fill("sub")
    controls.locator(".manage-seat[data-seat='E'] button[type=submit]").click()
    expect(page.locator("#play-manage")).to_contain_text("If sub plays here, they were offered seat E.")
    expect(page.locator(".place[data-seat='E']")).not_to_contain_text("Sophie Sub")  # offered, not seated
    in_thread(lambda: tables.take_seat(user=substitute, table_id=table.pk, seat="E"))  # they accept
    expect(page.locator(".place[data-seat='E'] .who")).to_have_text("Sophie Sub")
    controls.locator(".manage-seat[data-seat='N'] button[data-manage-robot='strong']").click()
    expect(page.locator(".place[data-seat='N'] .tag.robot")).to_have_text("strong robot")
    seats = fetched(lambda: {s.seat: (s.robot, s.user.username if s.user else None)
                             for s in PlayTable.objects.get(pk=table.pk).seats.all()})
    assert seats["E"] == ("", "sub") and seats["N"] == ("strong", None)
