"""How a change reaches a table's sockets (drive/games/consumers.py): an action sent on a
socket is answered on it, handed at once to the server's other sockets of the table and
announced through the channel layer for the other servers, each socket taking it once; a
change made elsewhere (the REST API, a robot in a worker) comes through the channel layer
only; a robot's move woken by a socket's action is asked for after the answer."""
import json

import pytest
from asgiref.sync import sync_to_async

from drive.games.models import PlayAction, PlayTable
from drive.games.services import tables
from drive.games.services.actions import apply_action
from engine import replay_game
from tests.play.test_websocket import frame, open_socket

SEATS = "NESW"


async def views_until(socket, version):
    view = await frame(socket)
    while view["version"] < version:
        view = await frame(socket)
    return view


async def nothing_more(socket):
    """No other frame on the line (a change taken twice would show here)."""
    assert await socket.receive_nothing(timeout=0.5)


@pytest.fixture
def four(make_user):
    return {seat: make_user(f"delivery-{seat}") for seat in SEATS}


@pytest.mark.django_db(transaction=True)
async def test_a_play_reaches_each_socket_once_whether_sent_on_a_socket_or_elsewhere(four):
    table = await sync_to_async(tables.create_table)(user=four["N"], rules="short", robots={})
    for seat in "ESW":
        await sync_to_async(tables.take_seat)(user=four[seat], table_id=table.pk, seat=seat, invite=table.invite)
    sockets = {}
    for seat in SEATS:
        socket, connected, _ = await open_socket(table.pk, four[seat])
        assert connected
        sockets[seat] = socket
        view = await frame(socket)
    version, to_act = view["version"], view["to_act"]
    for _ in range(3):  # on a socket: its answer, and one view at each other socket
        game = await sync_to_async(lambda: replay_game(PlayTable.objects.get(pk=table.pk).record))()
        legal = game.view(to_act)["legal"]
        await sockets[to_act].send_to(text_data=json.dumps({"action": legal[0], "version": version}))
        heard = {seat: await views_until(socket, version + 1) for seat, socket in sockets.items()}
        assert {v["version"] for v in heard.values()} == {version + 1}
        assert {seat: v["seat"] for seat, v in heard.items()} == {seat: seat for seat in SEATS}
        for socket in sockets.values():
            await nothing_more(socket)
        version, to_act = version + 1, heard["N"]["to_act"]
    # elsewhere (the REST API's service, in another thread): through the channel layer, once each
    game = await sync_to_async(lambda: replay_game(PlayTable.objects.get(pk=table.pk).record))()
    await sync_to_async(apply_action)(user=four[to_act], table_id=table.pk, action=game.view(to_act)["legal"][0], version=version)
    for seat, socket in sockets.items():
        view = await views_until(socket, version + 1)
        assert view["version"] == version + 1 and view["seat"] == seat
        await nothing_more(socket)
    for socket in sockets.values():
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_robots_move_woken_by_a_socket_s_play_follows_its_answer(four):
    table = await sync_to_async(tables.create_table)(user=four["N"], rules="short", robots={"E": "rules", "S": "rules", "W": "rules"})
    socket, connected, _ = await open_socket(table.pk, four["N"])
    assert connected
    view = await frame(socket)
    while True:
        while view["to_act"] != "N":  # the robots play up to N's turn (the worker is eager here)
            view = await views_until(socket, view["version"] + 1)
        version = view["version"]
        await socket.send_to(text_data=json.dumps({"action": view["legal"][0], "version": version}))
        answer = await frame(socket)
        assert answer["version"] == version + 1
        if answer["to_act"] != "N":  # a robot is to act (N's card may have won a trick: N leads again)
            break
        view = answer
    robot = answer["to_act"]
    after = await views_until(socket, version + 2)  # the robot moved, once asked after the answer
    assert after["version"] >= version + 2
    played = await sync_to_async(lambda: list(PlayAction.objects.filter(table=table.pk, version__gt=version)
                                              .order_by("version").values_list("seat", "by_robot")))()
    assert played[:2] == [("N", False), (robot, True)]
    await socket.disconnect()


def checked_out():
    from django.db import connection

    stats = connection.pool.get_stats()
    return stats["pool_size"] - stats["pool_available"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
async def test_a_table_socket_gives_every_database_connection_back_to_the_pool(four):
    """Its reads and actions run in threads; each connection they open goes back to the pool
    (one kept by such a thread was never given back, and the pool ran dry)."""
    from tests.services import require_postgres

    await sync_to_async(require_postgres)()
    table = await sync_to_async(tables.create_table)(user=four["N"], rules="short", robots={})
    for seat in "ESW":
        await sync_to_async(tables.take_seat)(user=four[seat], table_id=table.pk, seat=seat, invite=table.invite)
    before = await sync_to_async(checked_out)()
    for _ in range(3):
        sockets = {}
        for seat in SEATS:
            sockets[seat], connected, _ = await open_socket(table.pk, four[seat])
            assert connected
            view = await frame(sockets[seat])
        seat = view["to_act"]
        legal = (await sync_to_async(lambda: replay_game(PlayTable.objects.get(pk=table.pk).record))()).view(seat)["legal"]
        await sockets[seat].send_to(text_data=json.dumps({"action": legal[0], "version": view["version"]}))
        for socket in sockets.values():
            await views_until(socket, view["version"] + 1)
            await socket.disconnect()
    assert await sync_to_async(checked_out)() <= before  # none kept (the test's own may have gone back)
