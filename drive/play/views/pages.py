"""The online-play pages: the lobby (a new table, my tables), the table page (the script
renders the API's view and plays through the API) and the hand history. Thin: every
rule and permission is in the services and selectors."""
from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from drive.core.errors import Forbidden, ServiceError
from drive.core.seats import seat_letter
from engine import VARIANTS
from drive.games.access import (invite_of, may_invite, may_manage, may_read_hands, may_take_seat,
                               offered_seat_to, remember_invite, require_watcher, seat_of)
from drive.games.models import PlaySeat, PlayTable
from drive.games.services import tables as table_services
from drive.play.selectors.history import hand_story
from drive.play.selectors.display import display_classes, display_of
from drive.games.selectors.reviews import stored_review
from drive.games.services.reviews import ask_review
from drive.games.selectors.tables import (creator_name, hand_records, offers_to, open_public_tables, players,
                                         table_view, table_with_seats_or_404, tables_of)
from drive.play.views.words import page_words, rank_letters, rank_names, review_words, suit_names, suits_of
from drive.play.views.presets import preset_label, presets, quick_groups

MANAGER_ROBOTS = [("rules", PlaySeat.Robot.RULES.label), ("strong", PlaySeat.Robot.STRONG.label)]
# Lazy: the reader's language when the page is made, not the one at import.
ROBOT_CHOICES = [("rules", PlaySeat.Robot.RULES.label), ("strong", PlaySeat.Robot.STRONG.label),
                 ("random", PlaySeat.Robot.RANDOM.label), ("", gettext_lazy("open seat (invite)"))]


@login_required
@require_http_methods(["GET", "POST"])
def lobby(request: HttpRequest) -> HttpResponse:
    error, status, chosen = "", 200, request.POST.get("rules", "short")
    if request.method == "POST":
        robots = {seat: request.POST.get(f"robot_{seat}", "") for seat in "NESW"}
        variant = VARIANTS.get(chosen)
        robot_seats = variant.seats[1:] if variant is not None else ()
        robots = {seat: kind for seat, kind in robots.items() if kind and seat in robot_seats}
        try:
            table = table_services.create_table(user=request.user, rules=chosen, robots=robots,
                                                public=request.POST.get("public") in ("1", "on", "true"))
        except ServiceError as refused:
            error, status = refused.message, refused.status  # 429 past a limit: the sentence says which
        else:
            return redirect("play-table", table.pk)
    rows = []
    for table in tables_of(request.user):
        mine = seat_of(request.user, table)
        rows.append({"label": preset_label(_rules_name(table.rules)), "url": reverse("play-table", args=[table.pk]),
                     "seat_letter": seat_letter(mine.seat) if mine else "–", "finished": table.finished_at is not None,
                     "state": _table_state(table),
                     "close": (reverse("play-close", args=[table.pk]) if table.finished_at is None
                               and table.event_id is None and table.created_by_id == request.user.pk else None)})
    seats = [{"code": code, "letter": seat_letter(code), "default": "rules"} for code in "ESW"]
    offers = [{"label": preset_label(_rules_name(o.table.rules)), "seat": o.seat, "seat_letter": seat_letter(o.seat),
               "action": reverse("play-take-seat", args=[o.table_id])} for o in offers_to(request.user)]
    return render(request, "play/lobby.html", {
        "presets": presets(), "quick_groups": quick_groups(), "chosen": chosen, "seats": seats,
        "robot_choices": ROBOT_CHOICES, "public": request.POST.get("public") in ("1", "on", "true"),
        "tables": rows, "offers": offers, "open_tables": _open_tables(request.user), "form_error": error},
        status=status)


def _open_tables(user) -> list[dict]:
    """The public tables the lobby offers: the game, who opened it, who sits where, and a
    button for each open seat the viewer may take."""
    robot = PlaySeat.Robot
    kinds = {robot.RULES.value: robot.RULES.label, robot.STRONG.value: robot.STRONG.label,
             robot.RANDOM.value: robot.RANDOM.label}
    rows = []
    for found in open_public_tables(user):
        table = found.table
        places = [{"letter": seat_letter(p["seat"]), "open": p["open"],
                   "who": p["name"] or (kinds.get(p["robot"], p["robot"]) if p["robot"] else "")}
                  for p in players(table)]
        rows.append({"id": table.pk, "label": preset_label(_rules_name(table.rules)), "by": creator_name(table),
                     "places": places, "action": reverse("play-take-seat", args=[table.pk]),
                     "seats": [{"code": code, "label": _("Sit at %(seat)s") % {"seat": seat_letter(code)}}
                               for code in found.seats]})
    return rows


def _table_state(table) -> str:
    if table.finished_at is None:
        return _("Playing")
    return _("Game over") if table.phase == PlayTable.Phase.OVER else _("Closed")  # closed by its creator, or idle


def _table_title(table) -> str:
    """An event's table by its place in the evening ("Friday drive · round 2, table 3"),
    a casual one by its game."""
    if table.event_id is None:
        return preset_label(_rules_name(table.rules))
    return _("%(event)s · round %(round)s, table %(table)s") % {
        "event": table.event.title, "round": table.round_number, "table": table.table_number}


def _rules_name(rules) -> str:
    return rules if isinstance(rules, str) else rules.get("name", "")


@login_required
@require_http_methods(["GET"])
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    invite = invite_of(request.session, table_id, request.GET.get("invite"))
    table = require_watcher(request.user, table_with_seats_or_404(table_id), invite)
    remember_invite(request.session, table, invite)  # the page's API calls and socket carry it
    view = table_view(request.user, table)
    seats = list(view.get("seating") or [s.seat for s in sorted(table.seats.all(), key=lambda s: "NESW".index(s.seat))])
    may_sit = not view["seat"] and not table.finished_at and may_take_seat(request.user, table, invite)
    open_seats = [s for s in table.seats.all() if s.is_open] if may_sit else []
    offered = offered_seat_to(request.user, table) if not view["seat"] and not table.finished_at else None
    if offered is not None and offered not in open_seats:
        open_seats.append(offered)
    seat_forms = [{"seat": s.seat, "action": reverse("play-take-seat", args=[table.pk]),
                   "label": _("Sit at %(seat)s") % {"seat": seat_letter(s.seat)}} for s in open_seats]
    offer_note = _("Seat %(seat)s is offered to you.") % {"seat": seat_letter(offered.seat)} if offered else ""
    show_invite = any(s.is_open for s in table.seats.all()) and may_invite(request.user, table)
    manage = may_manage(request.user, table) and table.finished_at is None
    response = render(request, "play/table.html", {
        "table": table, "view": view, "words": page_words(), "players": {}, "seats_json": json.dumps(seats),
        "table_title": _table_title(table),
        "api_url": f"/api/play/tables/{table.pk}/", "ws_url": f"/ws/play/{table.pk}/",
        "poll_ms": getattr(settings, "PLAY_POLL_MS", None), "seat_forms": seat_forms, "offer_note": offer_note,
        "invite": invite or "",
        "manage": manage, "robot_kinds": MANAGER_ROBOTS,
        **_display(request.user),
        "invite_url": request.build_absolute_uri(view["invite_url"]) if show_invite else ""})
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def take_seat(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        table_services.take_seat(user=request.user, table_id=table_id, seat=request.POST.get("seat", ""),
                                 invite=invite_of(request.session, table_id, request.POST.get("invite")))
    except ServiceError as refused:
        messages.error(request, refused.message)
        if request.POST.get("from") == "lobby":  # an offer accepted there: the table may not be theirs to watch
            return redirect("play-lobby")
    return redirect("play-table", table_id)


@login_required
@require_POST
def close_table(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        table_services.close_table(user=request.user, table_id=table_id)
    except ServiceError as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("The table is closed."))
    return redirect("play-lobby")


@login_required
@require_http_methods(["GET"])
def hands_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = table_with_seats_or_404(table_id)
    if not may_read_hands(request.user, table, invite_of(request.session, table_id, request.GET.get("invite"))):
        raise Forbidden(_("The hands show every card: the table's players see them, everyone once the game is over."))
    records = hand_records(table)
    try:
        chosen = int(request.GET.get("hand", len(records)))
    except ValueError:
        chosen = len(records)
    hands = []
    for item in records:
        story = hand_story(item["record"])
        shown = item["number"] == chosen
        name = _hand_label(story["dummies"])
        hands.append({"number": item["number"], "dealer": seat_letter(item["dealer"]), "story": story,
                      "trump": denomination_words(story["trump"]) if story["trump"] else None,
                      "deal": _deal_rows(story["hands"], name),
                      "calls": [{"seat": name(c["seat"]), "call": call_words(c["call"])} for c in story["calls"]],
                      "tricks": _trick_rows(story["tricks"], name), "taken": _sides(story["taken"]),
                      **(_review_in_words(_stored_review(table.pk, item["number"]), story, name)
                         if shown else {}), "shown": shown})
    return render(request, "play/hands.html", {
        "table": table, "hands": hands, "table_title": _table_title(table),
        "players": players(table), "suits": suit_names(), "ranks": rank_letters(),
        **_display(request.user)})


def _display(user) -> dict:
    """The reader's display preference (a four-colour deck, high contrast) and the
    classes it puts on the page's root, so the cards are drawn so from the first paint."""
    display = display_of(user=user)
    return {"display": display, "display_classes": display_classes(display)}


def _stored_review(table_id: int, hand: int) -> dict:
    """The shown hand's review as stored; none yet (an older table's hand, or a worker
    still at it) is asked for, and the page says it is being prepared. Never computed
    in the request, except by eager Celery (the embedded default), once."""
    stored = stored_review(table_id=table_id, hand=hand)
    if stored is None and ask_review(table_id=table_id, hand=hand):
        stored = stored_review(table_id=table_id, hand=hand)
    return {"review": stored.review if stored else None, "review_pending": stored is None}


def _sides(counts: dict) -> dict:
    names = page_words()["sides"]
    return {names.get(side) or "+".join(seat_letter(s) for s in side.split("+")): n for side, n in counts.items()}


SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_face(card: str) -> dict:
    """A card as the page shows it: the rank in the reader's letters, the suit's symbol,
    and in words for a screen reader ("queen of diamonds")."""
    if card in ("BJ", "LJ"):
        label = _("big joker") if card == "BJ" else _("little joker")
        return {"code": card, "rank": "★" if card == "BJ" else "☆", "pip": "", "suit": "J", "label": label}
    ranks = rank_letters()
    label = _("%(rank)s of %(suit)s") % {"rank": rank_names().get(card[0], card[0]), "suit": suits_of()[card[1]]}
    return {"code": card, "rank": ranks.get(card[0], card[0]), "pip": SYMBOLS[card[1]], "suit": card[1], "label": label}


def _deal_rows(hands: dict, name) -> list:
    return [{"seat": name(label), "cards": [card_face(c) for c in hands[label]]} for label in hands]


def _trick_rows(tricks: list, name) -> list:
    return [{"number": n, "leader": name(t["leader"]), "winner": name(t["winner"]),
             "cards": [{"seat": name(p["seat"]), "won": p["seat"] == t["winner"], **card_face(p["card"])}
                       for p in t["cards"]]}
            for n, t in enumerate(tricks, start=1)]


def _hand_label(dummies: dict):
    """A hand's label as the variant names it: a seat's letter, "dummy" (three players),
    "dummy (N)" with the player who plays it, never the bare seat of nobody."""
    def name(label: str) -> str:
        if label in dummies:
            return review_words()["dummy_of"] % {"player": seat_letter(dummies[label])}
        return _("dummy") if label == "dummy" else seat_letter(label)
    return name


def card_words(card: str) -> str:
    """A card in one piece of text, as the table shows it: "Q♦", "Д♦"; a joker's star."""
    face = card_face(card)
    return face["rank"] + face["pip"]


def denomination_words(text: str) -> str:
    """A trump or a named denomination: "♦ Diamonds", "No trump"; a ranking in words."""
    words = page_words()
    if text in SYMBOLS:
        return f"{SYMBOLS[text]} {words['suits'][text]}"
    return words["calls"].get(text) or words["calls"].get(str(text).lower()) or text


def call_words(call: str) -> str:
    """A call as the table page words it (play.js callText): "Pass", "4 downtown",
    "Trump: ♦ Diamonds", "Put away 2♥ 3♣", a card by its face."""
    words = page_words()
    parts = str(call).split()
    if len(parts) == 1:
        if len(call) == 2 and call[1] in SYMBOLS or call in ("BJ", "LJ"):
            return card_words(call)
        return words["calls"].get(call) or denomination_words(call)
    if parts[0] == "trump":
        return f"{words['calls']['trump']}: {denomination_words(parts[1])}"
    if parts[0] == "discard":
        return " ".join([words["calls"]["discard"], *(card_words(c) for c in parts[1:])])
    return " ".join([parts[0], *(denomination_words(p) for p in parts[1:])])


def _review_in_words(found: dict, story: dict, name) -> dict:
    """The stored review (engine.analysis: sides "NS"/"EW" by position, cards as codes)
    in the page's words: the variant's sides, the cards' faces, what each marked card
    cost, and how far the side that fell short of the double-dummy result fell short,
    at most the hand's tricks (computed here too, so older stored reviews say it)."""
    review = found.get("review")
    if not review:
        return found
    sides = story["sides"]
    words = review_words()
    dd = review.get("double_dummy")
    below = {}
    if dd:
        below = {side: dd[side] - n for side, n in review.get("tricks", {}).items() if dd.get(side, 0) > n}
    costly = [words["card_cost"] % {"seat": name(p["seat"]), "card": card_words(p["card"]), "n": p["cost"]}
              for p in review.get("plays", []) if p.get("cost")]
    return {**found, "review": {
        "double_dummy": _sides({sides[s]: dd[s] for s in sides if s in dd}) if dd else None,
        "below": words["below_best"] % {"sides": " · ".join(
            f"{side} {n}" for side, n in _sides({sides.get(s, s): n for s, n in below.items()}).items())}
        if below else (words["at_best"] if dd else None),
        "costly": costly, "costly_title": words["costly"]}}
