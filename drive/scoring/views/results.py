"""Pages for everyone: the player's evening, live standings, published results with their
exports (the standings as CSV, the corrections as a CSV of their own; the whole as JSON is
the API's document, api.results), and the organiser's printable score cards. Thin: reads
come from selectors.results, permissions from drive.events.access."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from drive.scoring.services.freshness import fresh_standings
from drive.core.rendercache import cached_html
from drive.core.spreadsheet import SafeWriter
from drive.events.models import Event
from drive.events.access import is_organiser, require_organiser
from drive.events.prizes import shown_name

from drive.scoring import sheet
from drive.scoring.selectors import results as selectors
from drive.events.access import visible_event
from drive.scoring.access import players_event, results_event


def _live(event):
    """What a live fragment needs: the event to listen to, the polling interval if set
    (without a websocket live.js polls; tests shorten it with LIVE_POLL_MS)."""
    return {"event": event, "poll_ms": getattr(settings, "LIVE_POLL_MS", None)}


def _fragment(request, page, fragment):
    """htmx re-fetches (on a live update) get the fragment only."""
    return fragment if request.headers.get("HX-Request") else page


@login_required
def my_evening(request, event_id):
    event, entrant = players_event(request.user, event_id)
    fresh = fresh_standings(event=event)  # the player's place: asked for again when behind
    context = {**_live(event), **selectors.my_evening(event, entrant, fresh)}
    template = _fragment(request, "scoring/results/my_evening.html", "scoring/results/_my_evening.html")
    return render(request, template, context)


def standings(request, event_id):
    """The live standings a whole room polls: their rendering is cached per stored
    standings (drive.core.rendercache); who asks only changes the links around it."""
    event = visible_event(request.user, event_id)
    stamp = selectors.standings_stamp(event, fresh_standings(event=event))
    body = cached_html(f"standings:{stamp.key}", lambda: render_to_string(
        "scoring/results/_standings_body.html", {"event": event, **selectors.standings(event, stamp.fresh)}))
    context = {**_live(event), "standings_body": body, "can_organise": is_organiser(request.user, event.club),
               "plays": selectors.entrant_of(request.user, event) is not None}
    template = _fragment(request, "scoring/results/standings.html", "scoring/results/_standings.html")
    return render(request, template, context)


def results(request, event_id):
    event = results_event(request.user, event_id)
    data = selectors.results_of(event, fresh_standings(event=event))
    columns = selectors.results_columns(event)
    for line in data["lines"]:
        line.grid = sheet.score_grid(line, columns)
    context = {**data, "columns": columns, "published": event.phase == Event.Phase.RESULTS_PUBLISHED}
    return render(request, "scoring/results/results.html", context)


def _csv(event, what):
    """A CSV download: its rows are escaped against formulas (names are the players' own words)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{selectors.export_filename(event, "csv", what)}"'
    response.write("\ufeff")  # spreadsheets then read the names' accents right
    return response, SafeWriter(response)


def results_csv(request, event_id):
    """The standings, one table: a row per entrant with place, totals and a column per hand.
    The corrections are a file of their own (`corrections_csv`): one table a file, so a
    spreadsheet reads it whole."""
    event = results_event(request.user, event_id)
    data = selectors.results_of(event, fresh_standings(event=event))
    columns = selectors.results_columns(event)
    response, out = _csv(event, "results")
    out.writerow([_("Place"), _("Number"), _("Player"), _("Total"), _("Average per hand"), _("Hands played"),
                  _("Hands won"), _("Hands sat out"), _("Sit-out average credited"), _("Missed rounds"),
                  _("First half"), _("Second half"), _("Prizes"),
                  *[_("R%(round)s H%(hand)s") % {"round": r, "hand": h} for r, h in columns]])
    for line in data["lines"]:
        out.writerow([f"{line.place}=" if line.shared else line.place, line.number, line.name, line.total,
                      line.average, line.hands_played, line.hands_won, line.sit_out_hands, line.sit_out_credit,
                      line.missed_text, line.first_half, line.second_half,
                      "; ".join(shown_name(prize) for prize in line.prizes),
                      *sheet.grid_text(sheet.score_grid(line, columns))])
    return response


def corrections_csv(request, event_id):
    """The organiser's corrections to hand results, oldest first: a row per change."""
    event = results_event(request.user, event_id)
    response, out = _csv(event, "corrections")
    out.writerow([_("When"), _("By"), _("Round"), _("Table"), _("Hand"), _("Kind"), _("Old N-S tricks"),
                  _("New N-S tricks"), _("Reason")])
    for change in selectors.corrections(event):
        out.writerow([change["at"].isoformat(), change["by"], change["round"], change["table"], change["hand"],
                      change["kind_label"], "" if change["old_ns_tricks"] is None else change["old_ns_tricks"],
                      change["new_ns_tricks"], change["reason"]])
    return response


@login_required
def scorecards(request, event_id):
    """Every entrant's personal score card, one a page, for the organiser to print."""
    event = visible_event(request.user, event_id)
    require_organiser(request.user, event.club)
    return render(request, "scoring/results/scorecards.html", {"event": event, "cards": selectors.scorecards(event)})
