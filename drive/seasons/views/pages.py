"""The season's public pages: its table, and the table as CSV. Thin: reads come from the
selectors, after services.table has made sure the stored table is fresh."""
from datetime import date

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.text import slugify
from django.utils.translation import gettext as _

from drive.core.spreadsheet import SafeWriter
from drive.seasons.selectors import seasons as selectors
from drive.seasons.services.table import fresh_table


def _table(season_id):
    season = selectors.season_by_id(season_id)
    fresh_table(season=season)
    return season, selectors.season_table(season)


def season_page(request, season_id):
    season, table = _table(season_id)
    evenings = [{**evening, "day": date.fromisoformat(evening["date"])} for evening in table["evenings"]]
    return render(request, "seasons/season.html", {
        "season": season, "table": table, "evenings": evenings,
        "unqualified_any": any(not row["qualified"] for row in table["rows"]),
    })


SCREEN_ROWS_PER_PAGE = 10  # at projector size, in the room screen's type (screen.css, season.css)
SCREEN_REFRESH_SECONDS = 60  # the table follows published evenings: seldom, never in a hurry


def season_screen(request, season_id):
    """The season's table for the room's screen: public as the table is, big type, long
    tables page by themselves (screen.js), the page refreshes itself now and then."""
    season, table = _table(season_id)
    per_page = getattr(settings, "SEASON_SCREEN_ROWS_PER_PAGE", SCREEN_ROWS_PER_PAGE)  # tests page sooner
    rows = table["rows"]
    pages = [rows[start:start + per_page] for start in range(0, len(rows), per_page)]
    return render(request, "seasons/screen.html", {
        "season": season, "table": table, "pages": pages,
        "refresh_seconds": getattr(settings, "SEASON_SCREEN_REFRESH_SECONDS", SCREEN_REFRESH_SECONDS),
        "page_ms": getattr(settings, "SEASON_SCREEN_PAGE_MS", 0),
        "last_evening": date.fromisoformat(table["evenings"][-1]["date"]) if table["evenings"] else None,
        "unqualified_any": any(not row["qualified"] for row in rows),
    })


def season_csv(request, season_id):
    season, table = _table(season_id)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    filename = f"{slugify(season.name) or 'season'}-{season.pk}-table.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")  # spreadsheets then read the names' accents right
    out = SafeWriter(response)  # names are the players' own words: no formulas
    out.writerow([_("Place"), _("Player"), _("Evenings"), _("Counted"), _("Score"), _("Qualified")])
    for row in table["rows"]:
        out.writerow(["" if row["place"] is None else row["place"], row["name"], row["evenings"], row["counted"],
                      row["score"], _("yes") if row["qualified"] else _("no")])
    return response
