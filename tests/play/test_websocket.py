"""The table's websocket (issue 14): each socket hears only its own seat's view, on
connect and after every change, whoever made it; actions sent on the socket are judged
by the same service as the REST API; a replayed old message changes nothing and a stale
one is refused; no socket without a session, none for a table that is not there."""
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from drive.asgi import application
from drive.games.consumers import NO_TABLE, REFUSED
from drive.games.models import PlayTable
from drive.games.services import tables
from drive.games.refusals import refusal_text
from engine import IllegalAction, parse_action, replay_game

ORIGIN = (b"origin", b"http://testserver")
HOST = (b"host", b"testserver")  # a browser's handshake names the site: the origin must be its own
SEATS = "NESW"
WAIT = 10


def session_cookie(user):
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def open_socket(table_id, user=None, query="", cookie=None, language=None, accept_language=None):
    """A socket of the table, signed in as `user`; `language`: the page switcher's cookie."""
    headers = [ORIGIN, HOST]
    if accept_language:
        headers.append((b"accept-language", accept_language.encode()))
    cookies = [f"django_language={language}"] if language else []
    if user is not None:
        cookie = cookie or await sync_to_async(session_cookie)(user)
        cookies.append(f"sessionid={cookie}")
    if cookies:
        headers.append((b"cookie", "; ".join(cookies).encode()))
    socket = WebsocketCommunicator(application, f"/ws/play/{table_id}/{query}", headers=headers)
    connected, code = await socket.connect(timeout=WAIT)
    return socket, connected, code


async def closed_with(table_id, user=None, query="", cookie=None):
    """The code a refused socket is closed with: after the handshake, so a page can read it
    (a close before it reaches a browser as a bare 403)."""
    socket, connected, _ = await open_socket(table_id, user, query, cookie)
    assert connected
    closing = await socket.receive_output(timeout=WAIT)
    while closing["type"] != "websocket.close":  # an error frame may come first
        closing = await socket.receive_output(timeout=WAIT)
    await socket.disconnect()
    return closing["code"]


async def frame(socket):
    return json.loads(await socket.receive_from(timeout=WAIT))


async def refusal(socket):
    """The answer to a refused message: views still on the line (a change's broadcast) skipped."""
    while True:
        answer = await frame(socket)
        if "error" in answer:
            return answer["error"]


def cards_in(value):
    """Every card code anywhere in a frame (keys and values, however deep)."""
    text = json.dumps(value)
    return {card for card in all_cards() if f'"{card}"' in text or f'"discard {card}"' in text}


def all_cards():
    return [r + s for s in "SHDC" for r in "23456789TJQKA"]


def hidden_from(table_id, seat):
    """The cards `seat` may not see now: other seats' cards still held (the turned trump
    card, face up until played, excepted)."""
    table = PlayTable.objects.get(pk=table_id)
    game = replay_game(table.record)
    deal = table.record["deals"][-1]
    played = {a for a in deal["actions"]}
    turned = game.view(seat).get("trump_card")
    return {card for other, hand in deal["hands"].items() if other != seat
            for card in hand if card not in played and card != turned}


def assert_own_view_only(view, seat, table_id):
    assert view["seat"] == seat
    private = {k: v for k, v in view.items() if k != "last_record"}  # a finished hand shows all
    leaked = cards_in(private) & hidden_from(table_id, seat)
    assert not leaked, f"{seat}'s frame shows {sorted(leaked)}"
    table = PlayTable.objects.get(pk=table_id)
    held = replay_game(table.record).view(seat)["hand"]
    assert view["hand"] == held


@pytest.fixture
def four(make_user):
    return {seat: make_user(f"player-{seat}") for seat in SEATS}


@pytest.fixture
def table_of_four(four):
    table = tables.create_table(user=four["N"], rules="short", robots={})
    for seat in "ESW":
        tables.take_seat(user=four[seat], table_id=table.pk, seat=seat, invite=table.invite)
    return table.pk


@pytest.mark.django_db(transaction=True)
async def test_each_seat_hears_only_its_own_view_after_every_play(four, table_of_four):
    table_id = table_of_four
    sockets = {}
    for seat in SEATS:
        socket, connected, _ = await open_socket(table_id, four[seat])
        assert connected
        sockets[seat] = socket
        first = await frame(socket)
        await sync_to_async(assert_own_view_only)(first, seat, table_id)
    version = first["version"]
    to_act = first["to_act"]
    for _ in range(10):  # two tricks and a half: each play reaches all four, each its own
        mover = sockets[to_act]
        legal = (await sync_to_async(lambda: replay_game(PlayTable.objects.get(pk=table_id).record)
                                     .view(to_act)["legal"])())
        await mover.send_to(text_data=json.dumps({"action": legal[-1], "version": version}))
        heard = {}
        for seat, socket in sockets.items():
            view = await frame(socket)
            while view["version"] < version + 1:
                view = await frame(socket)
            heard[seat] = view
            await sync_to_async(assert_own_view_only)(view, seat, table_id)
        assert {v["version"] for v in heard.values()} == {version + 1}
        version, to_act = version + 1, heard["N"]["to_act"]
        for socket in sockets.values():  # nothing else on the line: one view per change
            while not await socket.receive_nothing(timeout=0.3):
                extra = await frame(socket)
                assert extra["version"] == version and "error" not in extra
    for socket in sockets.values():
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_replayed_old_message_is_applied_once_and_a_stale_one_refused(four, table_of_four):
    table_id = table_of_four
    first_view = await sync_to_async(lambda: replay_game(PlayTable.objects.get(pk=table_id).record))()
    seat = first_view.to_act
    socket, connected, _ = await open_socket(table_id, four[seat])
    assert connected
    view = await frame(socket)
    card = view["legal"][0]
    message = json.dumps({"action": card, "version": view["version"]})
    await socket.send_to(text_data=message)
    after = await frame(socket)
    assert after["version"] == view["version"] + 1 and card not in after["hand"]
    await socket.send_to(text_data=message)  # the same message again (a retry, or a replay)
    again = await frame(socket)
    assert again["version"] == after["version"]
    record = await sync_to_async(lambda: PlayTable.objects.get(pk=table_id).record)()
    assert record["deals"][-1]["actions"] == [card]  # applied once
    other = next(c for c in view["legal"] if c != card)
    await socket.send_to(text_data=json.dumps({"action": other, "version": view["version"]}))
    assert (await refusal(socket))["status"] == 409
    await socket.send_to(text_data=json.dumps({"action": other, "version": after["version"]}))
    assert (await refusal(socket))["status"] == 409  # not this seat's turn now
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_card_not_held_and_another_seats_turn_are_refused_on_the_socket(four, table_of_four):
    table_id = table_of_four
    game = await sync_to_async(lambda: replay_game(PlayTable.objects.get(pk=table_id).record))()
    seat = game.to_act
    idle = next(s for s in SEATS if s != seat)
    socket, _, _ = await open_socket(table_id, four[seat])
    view = await frame(socket)
    not_held = next(c for c in all_cards() if c not in view["hand"])
    await socket.send_to(text_data=json.dumps({"action": not_held, "version": view["version"]}))
    answer = await refusal(socket)
    assert answer["status"] == 400 and answer.get("rule")
    other, _, _ = await open_socket(table_id, four[idle])
    theirs = await frame(other)
    await other.send_to(text_data=json.dumps({"action": view["legal"][0], "version": theirs["version"]}))
    assert (await refusal(other))["status"] == 409  # out of turn; and never another seat's card
    await other.send_to(text_data="not json")
    assert (await refusal(other))["status"] == 400
    record = await sync_to_async(lambda: PlayTable.objects.get(pk=table_id).record)()
    assert record["deals"][-1]["actions"] == []
    await socket.disconnect()
    await other.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_watcher_hears_the_public_view_and_strangers_no_socket(four, table_of_four, make_user):
    table_id = table_of_four
    assert await closed_with(table_id) == REFUSED
    watcher = await sync_to_async(make_user)("watcher")
    assert await closed_with(table_id + 1000, watcher) == NO_TABLE
    invite = await sync_to_async(lambda: PlayTable.objects.get(pk=table_id).invite)()
    socket, connected, _ = await open_socket(table_id, watcher, f"?invite={invite}")
    assert connected
    view = await frame(socket)
    assert view["seat"] is None and view["hand"] == [] and view["legal"] == [] and view["invite_url"] is None
    deal = (await sync_to_async(lambda: PlayTable.objects.get(pk=table_id).record)())["deals"][-1]
    turned = view.get("trump_card")
    dealt = {c for hand in deal["hands"].values() for c in hand if c != turned}
    assert not cards_in({k: v for k, v in view.items() if k != "last_record"}) & dealt
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_casual_tables_socket_needs_a_seat_or_its_invitation(four, table_of_four, make_user):
    """Knowing a table's id opens no socket: a wrong, missing or other table's invitation
    is refused; the link's own opens the watcher's view, by the query or by the session
    of a browser that opened the link."""
    table_id = table_of_four
    stranger = await sync_to_async(make_user)("stranger")
    other = await sync_to_async(tables.create_table)(user=stranger, rules="short", robots={"E": "rules", "S": "rules", "W": "rules"})
    invite = await sync_to_async(lambda: PlayTable.objects.get(pk=table_id).invite)()
    for query in ("", "?invite=", f"?invite={other.invite}", f"?invite={invite[:-1]}", f"?invite={invite}x",
                  f"?invite={invite.swapcase()}", f"?token={invite}"):
        assert await closed_with(table_id, stranger, query) == REFUSED, query
    # A player's socket needs no invitation; a stranger's with the link's opens.
    seated, connected, _ = await open_socket(table_id, four["E"])
    assert connected and (await frame(seated))["seat"] == "E"
    await seated.disconnect()

    def opened_the_link():
        client = Client()
        client.force_login(stranger)
        assert client.get(f"/play/{table_id}/?invite={invite}").status_code == 200
        return client.cookies["sessionid"].value

    cookie = await sync_to_async(opened_the_link)()
    socket, connected, _ = await open_socket(table_id, stranger, cookie=cookie)
    assert connected and (await frame(socket))["seat"] is None
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language, accept_language, refused_in", [
    ("ru", "en-GB,en;q=0.9", "ru"),  # the switcher's choice first
    (None, "uk-UA,uk;q=0.9,en;q=0.5", "uk"),  # else the browser's
    (None, "de-DE,fr;q=0.8", "en"),  # else the site's default
])
async def test_the_sockets_refusals_speak_the_pages_language(four, table_of_four, language, accept_language,
                                                            refused_in):
    """A socket's refusals are worded as the page's HTTP answers are: in the language the
    page's switcher chose, else the browser's, else English; the rule and reason as ever."""
    table_id = table_of_four
    game = await sync_to_async(lambda: replay_game(PlayTable.objects.get(pk=table_id).record))()
    socket, _, _ = await open_socket(table_id, four[game.to_act], language=language, accept_language=accept_language)
    view = await frame(socket)
    not_held = next(c for c in all_cards() if c not in view["hand"])
    heard = {}
    for action, reason in ((not_held, "not_in_hand"), ("XYZ", "not_an_action")):
        await socket.send_to(text_data=json.dumps({"action": action, "version": view["version"]}))
        answer = await refusal(socket)
        assert answer["status"] == 400 and answer["reason"] == reason and answer["rule"] is not None or \
            reason == "not_an_action", answer
        heard[reason] = answer["detail"]
    await socket.send_to(text_data=json.dumps({"no": "action"}))
    heard["shape"] = (await refusal(socket))["detail"]
    await socket.disconnect()
    assert heard == wording(game, not_held, refused_in)
    if refused_in != "en":
        assert all(heard[key] != text for key, text in wording(game, not_held, "en").items()), heard


def wording(game, card, language):
    """What the socket should have said, in `language`."""
    with translation.override(language):
        try:
            game.copy().apply(parse_action(card))
        except IllegalAction as exc:
            not_held = refusal_text(exc)
        return {"not_in_hand": not_held,
                "not_an_action": gettext("“%(action)s” is neither a card nor a call.") % {"action": "XYZ"},
                "shape": gettext("Send {\"action\": ..., \"version\": ...}.")}
