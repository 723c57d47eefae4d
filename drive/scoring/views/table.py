"""Pages of a table: the players' entry page on their phones (no login: the token of the
table card's QR code is the key) and the organiser's printable table cards.

Thin: reads come from `selectors.table`, the "Who are you?" step claims the seat
(`claims.claim_seat`, its secret kept in the session), every entry goes through
`results.submit_result` with that claim. htmx requests get the panel alone; without
JavaScript the same forms post and get the whole page back.
"""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from engine import SEATS
from drive.core.errors import Conflict, Invalid, ServiceError
from drive.events.access import organised_event
from drive.core.qr import qr_svg_inline

from drive.scoring.services import claims

from drive.scoring.services import results
from drive.scoring.selectors import table as selectors

# The phone's seat claims, per table: {table id: the claim's secret}.
SESSION_KEY = "table_claims"
TRICKS = [(n, 13 - n) for n in range(14)]


def _is_htmx(request):
    return request.headers.get("HX-Request") == "true"


def _secret(request, table):
    return request.session.get(SESSION_KEY, {}).get(str(table.pk))


def _viewer(request, table):
    """The seat this phone holds at the table for the round shown, or None."""
    claim = selectors.phone_claim(table, secret=_secret(request, table), user=request.user)
    return claim.position if claim else None


def _remember(request, table, secret):
    held = dict(request.session.get(SESSION_KEY, {}))
    if secret is None:
        held.pop(str(table.pk), None)
    else:
        held[str(table.pk)] = secret
    request.session[SESSION_KEY] = held


def _picks(state, posted):
    """What each hand's buttons show as chosen: the phone's own unsent choice after a
    refused entry, else its side's stored entry (to change it), else nothing."""
    for hand in state["hands"]:
        mine = bool(posted) and posted.get("hand_number") == hand["hand_number"]
        hand["posted"] = posted if mine else None
        if mine and state["show_hands"]:
            posted["shown"] = True
        if mine and posted.get("error"):
            hand["pick_ns"], hand["pick_trump"] = posted.get("ns_tricks"), posted.get("trump") or ""
        elif hand["mode"] == "wait":
            hand["pick_ns"], hand["pick_trump"] = hand["ns_tricks"], hand["trump"]
        elif hand["mode"] == "recount":  # the side's own count, to send again or change
            hand["pick_ns"], hand["pick_trump"] = hand["our_ns"], hand["trump"]
        else:
            hand["pick_ns"], hand["pick_trump"] = None, (hand["trump"] if hand["trump_fixed"] else "")
        picked = hand["pick_ns"]
        number = isinstance(picked, int) and not isinstance(picked, bool) and 0 <= picked <= 13
        hand["pick_ew"] = 13 - picked if number else None
        # Unchanged state, unchanged id: htmx keeps a hand being entered (hx-preserve) while
        # the live updates refresh the rest, and replaces it once its state moves on.
        hand["dom_id"] = "hand-{}-{}-{}-{}-{}-{}".format(
            state["round"]["number"], hand["hand_number"], hand["status"], hand["version"],
            (state["you"] or {}).get("position", "x"), hand["mode"])
    return state


def _context(request, table, posted=None, who_error=""):
    state = selectors.table_state(table, viewer=_viewer(request, table))
    _picks(state, posted)
    return {
        "state": state,
        "token": table.token,
        "tricks": TRICKS,
        "turned_up_suits": [(code, selectors.SUIT_SYMBOLS[code], selectors.trump_name(code))
                            for code in selectors.TURNED_UP_SUITS],
        "posted": posted,
        "who_error": who_error,
        "poll_ms": getattr(settings, "LIVE_POLL_MS", None),
    }


def _respond(request, context, status=200):
    template = "scoring/table/_panel.html" if _is_htmx(request) else "scoring/table/entry.html"
    return render(request, template, context, status=status)


@require_GET
def table_entry(request, token):
    """The page the table card's QR code opens."""
    table = selectors.table_for_token(token)
    return render(request, "scoring/table/entry.html", _context(request, table))


@require_GET
def table_panel(request, token):
    """The page's live part, re-fetched by htmx when something changes."""
    table = selectors.table_for_token(token)
    return render(request, "scoring/table/_panel.html", _context(request, table))


@require_POST
def table_me(request, token):
    """"Who are you?": the phone claims one of the four seats for the round ("Not you?", an
    empty seat, gives its claim up while its seat has entered nothing)."""
    table = selectors.table_for_token(token)
    position = request.POST.get("seat", "")
    try:
        if not position:
            claims.give_up_claim(table=table, secret=_secret(request, table), user=request.user)
            _remember(request, table, None)
        else:
            if position not in SEATS:
                raise Invalid(_("Pick one of the four players of this table."), field="seat")
            _claim, secret, _created = claims.claim_seat(table=table, position=position, user=request.user,
                                                        secret=_secret(request, table))
            _remember(request, table, secret)
    except ServiceError as exc:
        return _respond(request, _context(request, table, who_error=exc.message), status=exc.status)
    if not _is_htmx(request):
        return redirect("table-entry", token=table.token)
    return _respond(request, _context(request, table))


def _number(value):
    """A form's whole number as an int; anything else as given, for the service to refuse."""
    value = value or ""  # no stripping: " 7" is not what the buttons send
    return int(value) if value.isascii() and value.isdigit() and len(value) < 6 else value


@require_POST
def table_submit(request, token):
    """One hand's tricks from a phone, for the seat it claimed."""
    table = selectors.table_for_token(token)
    data = request.POST
    hand_number = _number(data.get("hand_number"))
    posted = {"hand_number": hand_number, "ns_tricks": _number(data.get("ns_tricks")), "trump": data.get("trump", "")}
    status = 200
    try:
        if posted["ns_tricks"] == "":
            raise Invalid(_("Tap the number of tricks North-South took."), field="ns_tricks")
        result, outcome = results.submit_result(table=table, claim=_secret(request, table), user=request.user,
                                                hand_number=hand_number,
                                                ns_tricks=posted["ns_tricks"], trump=posted["trump"] or None,
                                                expected_version=_number(data.get("version")) or None)
        posted.update(outcome=outcome, message=selectors.OUTCOME_MESSAGES[outcome])
    except ServiceError as exc:
        status = exc.status
        posted.update(error=exc.message, field=exc.field, stored=exc.extra.get("stored"),
                      conflict=isinstance(exc, Conflict))
    return _respond(request, _context(request, table, posted=posted), status=status)


# --- the organiser's table cards --------------------------------------------------------


@login_required
def table_cards(request, event_id):
    """One A6 card per table to print: the table number, the event, the QR code of its
    entry page and how to use it; and the same links as a plain list."""
    event = organised_event(request.user, event_id)
    cards = selectors.table_cards(event)
    for card in cards:
        card["url"] = request.build_absolute_uri(reverse("table-entry", args=[card["token"]]))
        card["qr"] = qr_svg_inline(card["url"])
    return render(request, "scoring/table/cards.html", {"event": event, "cards": cards})
