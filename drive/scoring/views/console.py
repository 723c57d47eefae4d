"""The organiser's evening console: the evening's moves, the round clock, the grid of
tables, corrections of any hand and the history of every changed one.

Thin: each page reads through `selectors.console`, each button calls one service. Only
the club's organisers get in (`require_organiser` here, and every service checks again).
"""
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from drive.core.clock import clock_text
from drive.core.errors import Forbidden, ServiceError
from drive.core.numbers import StrictIntegerFormField
from drive.events import access

from drive.scoring.services import evening as evening_services
from drive.scoring.services import results as result_services
from drive.scoring.selectors import rounds as round_selectors
from drive.scoring.models import HandResult, Table
from drive.scoring.selectors import claims as claim_selectors
from drive.scoring.selectors import console as selectors
from drive.scoring.selectors.rounds import current_round

# --- helpers ------------------------------------------------------------------------------




def _int(value):
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if 0 < number < 10000 else None


def move_message(action, result):
    """What the organiser is told after a move of the evening."""
    if action == "start":
        return _("The evening has started: registration is closed and round 1 is being seated.")
    if action == "start-round":
        return _("Round %(n)s has started: the clock is running.") % {"n": result.number}
    if action == "pause":
        return _("The clock is paused.")
    if action == "resume":
        return _("The clock is running again.")
    if action == "end-round":
        text = _("Round %(n)s is closed.") % {"n": result.number}
        if result.late_tables:
            text += " " + _("Tables still out at the end: %(tables)s.") % {
                "tables": ", ".join(str(t) for t in result.late_tables)}
        return text
    if action == "retry-movement":
        return _("The movement is being worked out again: round 1 will be seated in a moment.")
    return _("The results are published.")


def _evening_context(request, event, confirm_end=None):
    shown = _int(request.GET.get("round"))
    state = selectors.evening_state(event, round_number=shown)
    round_ = state["round"]
    if confirm_end is None:
        confirm_end = _int(request.GET.get("confirm_end"))
    end_anyway = None
    if round_ and confirm_end == round_["number"] and "end-round" in state["moves"]:
        # The refusal's tables, as they are now (some may have come in meanwhile).
        if state["shown_round"] == round_["number"]:
            not_in = sorted(state["tables_out"] + state["tables_disputed"])
        else:
            not_in = round_selectors.tables_out(event.evening_rounds.get(number=round_["number"]))
        end_anyway = {"round": round_["number"], "tables": not_in}
    query = {}
    if shown and state["shown_round"] == shown:
        query["round"] = shown
    if end_anyway:
        query["confirm_end"] = end_anyway["round"]
    live_url = reverse("console-evening-live", args=[event.pk])
    if query:
        live_url += "?" + urlencode(query)
    return {
        "event": event,
        "state": state,
        "round": round_,
        "end_anyway": end_anyway,
        "live_url": live_url,
        "viewing_other_round": bool(round_ and state["shown_round"] != round_["number"]),
        "clock_text": clock_text(round_["seconds_left"]) if round_ and round_["seconds_left"] is not None else "",
    }


# --- the evening page -----------------------------------------------------------------------


@login_required
def evening(request, event_id):
    event = access.organised_event(request.user, event_id)
    return render(request, "scoring/console/evening.html", _evening_context(request, event))


@login_required
def evening_live(request, event_id):
    """The live part of the evening page, re-fetched by htmx when the socket says so."""
    event = access.organised_event(request.user, event_id)
    return render(request, "scoring/console/_evening.html", _evening_context(request, event))


@login_required
@require_POST
def evening_move(request, event_id, action):
    if action not in selectors.MOVES:
        raise Http404(action)
    event = access.organised_event(request.user, event_id)
    confirm_end, status = None, 200
    try:
        shown = _int(request.POST.get("round")) if action in selectors.ROUND_MOVES else None
        result = evening_services.evening_move(actor=request.user, event=event, action=action,
                                               force=request.POST.get("force") == "1", shown_round=shown)
        text = move_message(action, result)
    except Forbidden:
        raise
    except ServiceError as exc:
        messages.error(request, exc.message)
        status = exc.status
        current = current_round(event)
        if "tables_out" in exc.extra and current is not None:
            confirm_end = current.number
    else:
        messages.success(request, text)
        if not request.headers.get("HX-Request"):
            return redirect("console-evening", event_id=event.pk)
    event.refresh_from_db()
    context = _evening_context(request, event, confirm_end=confirm_end)
    if request.headers.get("HX-Request"):
        # htmx swaps 2xx answers only: the refusal is in the messages it carries.
        return render(request, "scoring/console/_evening.html", {**context, "with_messages": True})
    return render(request, "scoring/console/evening.html", context, status=status)


# --- one table's hands: corrections ------------------------------------------------------------

TRUMP_CHOICES = [("", "—")] + [(value, label) for value, label in HandResult.Trump.choices if value != "NT"]


class CorrectionForm(forms.Form):
    ns_tricks = StrictIntegerFormField(label=gettext_lazy("N-S tricks"), min_value=0, max_value=13,
                                   widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 13}))
    trump = forms.ChoiceField(label=gettext_lazy("Trumps"), choices=TRUMP_CHOICES, required=False)
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=[
        (HandResult.ChangeKind.CORRECTION, gettext_lazy("correction")),
        (HandResult.ChangeKind.ADJUSTED, gettext_lazy("adjusted score")),
    ])
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=100)  # the history keeps 100 characters
    expected_version = forms.IntegerField(required=False, min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput)

    def __init__(self, *args, fixed_trump=False, **kwargs):
        super().__init__(*args, **kwargs)
        if fixed_trump:
            del self.fields["trump"]


class RevokeForm(forms.Form):
    offending_side = forms.ChoiceField(label=gettext_lazy("Side that revoked"), widget=forms.RadioSelect,
                                       choices=[("NS", gettext_lazy("N-S")), ("EW", gettext_lazy("E-W"))])
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=100)
    expected_version = forms.IntegerField(required=False, min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput)


def _table_context(event, round_number, table_number, bound=None):
    """The table's hands, each with its correction and revoke forms (one may be bound)."""
    data = selectors.table_hands(event, round_number, table_number)
    if data is None:
        raise Http404(_("No such table in a played round."))
    for hand in data["hands"]:
        number, fixed = hand["hand_number"], hand["fixed_trump"] is not None
        initial = {"ns_tricks": hand["ns_tricks"], "trump": hand["trump"], "expected_version": hand["version"]}
        hand["correction_form"] = CorrectionForm(initial=initial, fixed_trump=fixed, prefix=f"h{number}")
        hand["revoke_form"] = RevokeForm(initial={"expected_version": hand["version"]}, prefix=f"r{number}")
        if bound and bound[0] == number:
            hand[bound[1]] = bound[2]
    return {"event": event, "data": data, "round": data["round"], "table": data["table"],
            "turned_up": all(h["fixed_trump"] is None for h in data["hands"]),
            "claims": claim_selectors.table_claims(data["table"], data["round"])}


@login_required
def table_page(request, event_id, round_number, table_number):
    event = access.organised_event(request.user, event_id)
    return render(request, "scoring/console/table.html", _table_context(event, round_number, table_number))


def _hand_action(request, event_id, round_number, table_number, hand_number, form_key, make_form, act):
    event = access.organised_event(request.user, event_id)
    table = get_object_or_404(Table, event=event, number=table_number)
    context = _table_context(event, round_number, table_number)  # 404 for a round not played
    hand = next((h for h in context["data"]["hands"] if h["hand_number"] == hand_number), None)
    if hand is None:
        raise Http404(_("No such hand."))
    form = make_form(request.POST, hand)
    status = 400
    if form.is_valid():
        try:
            act(event, table, form.cleaned_data, hand)
        except Forbidden:
            raise
        except ServiceError as exc:
            messages.error(request, exc.message)
            status = exc.status
        else:
            url = reverse("console-evening-table", args=[event.pk, round_number, table_number])
            return redirect(f"{url}#hand-{hand_number}")
    context = _table_context(event, round_number, table_number, bound=(hand_number, form_key, form))
    if status == 409:  # changed meanwhile: the page shows the stored values; the next try is against them
        data = form.data.copy()
        data[form.add_prefix("expected_version")] = context["data"]["hands"][hand_number - 1]["version"] or ""
        refreshed = make_form(data, hand)
        refreshed.is_valid()
        context = _table_context(event, round_number, table_number, bound=(hand_number, form_key, refreshed))
    context["open_hand"] = hand_number
    return render(request, "scoring/console/table.html", context, status=status)


@login_required
@require_POST
def correct_hand(request, event_id, round_number, table_number, hand_number):
    def make_form(data, hand):
        return CorrectionForm(data, fixed_trump=hand["fixed_trump"] is not None, prefix=f"h{hand_number}")

    def act(event, table, data, hand):
        result = result_services.correct_result(
            actor=request.user, table=table, round_number=round_number, hand_number=hand_number,
            ns_tricks=data["ns_tricks"], reason=data["reason"], trump=data.get("trump") or None, kind=data["kind"],
            expected_version=data["expected_version"],
        )
        messages.success(request, _("Hand %(hand)s of table %(table)s is now N-S %(ns)s, E-W %(ew)s.") % {
            "hand": hand_number, "table": table.number, "ns": result.ns_tricks, "ew": result.ew_tricks})

    return _hand_action(request, event_id, round_number, table_number, hand_number, "correction_form", make_form, act)


@login_required
@require_POST
def revoke_hand(request, event_id, round_number, table_number, hand_number):
    def make_form(data, hand):
        return RevokeForm(data, prefix=f"r{hand_number}")

    def act(event, table, data, hand):
        result = result_services.apply_revoke_penalty(actor=request.user, table=table, round_number=round_number, hand_number=hand_number,
                              offending_side=data["offending_side"], reason=data["reason"],
                              expected_version=data["expected_version"])
        messages.success(request, _("Revoke penalty applied: hand %(hand)s of table %(table)s is now N-S %(ns)s, "
                                    "E-W %(ew)s.") % {"hand": hand_number, "table": table.number,
                                                      "ns": result.ns_tricks, "ew": result.ew_tricks})

    return _hand_action(request, event_id, round_number, table_number, hand_number, "revoke_form", make_form, act)


# --- the corrections page ----------------------------------------------------------------------


@login_required
def corrections(request, event_id):
    event = access.organised_event(request.user, event_id)
    return render(request, "scoring/console/corrections.html",
                  {"event": event, "hands": selectors.correction_history(event)})
