"""The organiser's page of an evening's online tables: how its tables play (on paper,
online, or mixed: the tables listed online, and the robot for a seat without a player)
and every online table of the evening, to watch, to fill a seat at, or to read its hands.
Thin: the setting is `drive.scoring.services.online_tables.set_online_tables` (its audit entry
included), the list is `drive.scoring.selectors.online_tables.evening_tables`."""
from __future__ import annotations

import re

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from drive.core.errors import Forbidden, ServiceError
from drive.core.seats import seat_letter
from drive.events.access import organised_event
from drive.games.models import PlaySeat
from drive.scoring.models import OnlineTables
from drive.scoring.selectors.online_tables import evening_tables
from drive.scoring.services import online_tables as evening_services

ROBOT_LABELS = dict(PlaySeat.Robot.choices)
MAX_LISTED = 200


class OnlineTablesForm(forms.Form):
    mode = forms.ChoiceField(label=gettext_lazy("Tables"), choices=OnlineTables.Mode.choices,
                             widget=forms.RadioSelect)
    tables = forms.CharField(label=gettext_lazy("Tables played online"), required=False, max_length=2000,
                             help_text=gettext_lazy("When mixed: their numbers, e.g. 1, 3, 5-8."))
    robot = forms.ChoiceField(label=gettext_lazy("Robot for a seat without a player"),
                              choices=[(kind, ROBOT_LABELS[kind]) for kind in evening_services.ROBOT_KINDS],
                              help_text=gettext_lazy("It plays a seat the movement leaves empty or whose player "
                                                     "has no account."))

    def clean_tables(self) -> list[int]:
        text = self.cleaned_data.get("tables") or ""
        numbers: list[int] = []
        for part in (p for p in re.split(r"[\s,;]+", text) if p):
            bounds = re.fullmatch(r"(\d{1,3})(?:[-–](\d{1,3}))?", part)
            if bounds is None:
                raise forms.ValidationError(_("Give table numbers, e.g. 1, 3, 5-8."))
            low, high = int(bounds.group(1)), int(bounds.group(2) or bounds.group(1))
            if not 1 <= low <= high <= evening_services.MAX_TABLE_NUMBER or len(numbers) + high - low >= MAX_LISTED:
                raise forms.ValidationError(_("Give table numbers, e.g. 1, 3, 5-8."))
            numbers += range(low, high + 1)
        return sorted(set(numbers))

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data  # what Form.clean returns
        if data.get("mode") != OnlineTables.Mode.MIXED:
            # The list counts only when mixed (the page hides it otherwise): one left typed in,
            # even a wrong one, is dropped, as the service drops it, never an error in a hidden field.
            self.errors.pop("tables", None)  # the form's own error dict, being filled now
            data["tables"] = []
        return data


def _ranges(numbers: list[int]) -> str:
    """[1, 2, 3, 5] -> "1-3, 5"."""
    parts: list[tuple[int, int]] = []  # (first, last) of each run
    for n in sorted(numbers):
        if parts and parts[-1][1] == n - 1:
            parts[-1] = (parts[-1][0], n)
        else:
            parts.append((n, n))
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in parts)


def _rows(listing: dict) -> list[dict]:
    rows = []
    for table in listing["online"]:
        seats = [{"seat": seat_letter(s["seat"]), "name": s["name"],
                  "robot": str(ROBOT_LABELS.get(s["robot"], s["robot"])) if s["robot"] else "",
                  "standin": s["standin"]} for s in table["seats"]]
        rows.append({**table, "seats": seats})
    return rows


@login_required
@require_http_methods(["GET", "POST"])
def online_tables(request: HttpRequest, event_id: int) -> HttpResponse:
    event = organised_event(request.user, event_id)
    listing = evening_tables(event=event)
    status = 200
    if request.method == "POST":
        form = OnlineTablesForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                evening_services.set_online_tables(actor=request.user, event=event, mode=data["mode"],
                                                   tables=data["tables"], robot=data["robot"])
            except Forbidden:
                raise
            except ServiceError as refused:
                form.add_error("tables" if refused.field == "tables" else None, refused.message)
                status = refused.status
            else:
                messages.success(request, _("Saved: it holds from the next round that starts."))
                return redirect("console-online-tables", event.pk)
        else:
            status = 400
    else:
        form = OnlineTablesForm(initial={"mode": listing["mode"], "tables": _ranges(listing["tables"]),
                                         "robot": listing["robot"]})
    return render(request, "play/console_online.html", {
        "event": event, "form": form, "setting": listing, "rows": _rows(listing)}, status=status)
