"""The organiser's console for a club's seasons (the list, a new season, its settings, its
removal) and its players (a walk-in added twice merged into one record). Thin: the form
parses, the services decide (the club's organisers only, the rules on the settings) and
their refusals are shown beside the fields they name."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from drive.core.errors import Invalid, ServiceError
from drive.events.access import require_organiser
from drive.events.selectors.events import find_club_players, player_by_id
from drive.seasons.selectors import players as player_selectors
from drive.seasons.selectors import seasons as selectors
from drive.seasons.services import seasons as services
from drive.seasons.services.players import merge_players
from drive.seasons.views.forms import SeasonForm


MOST_FOUND = 30  # players found by name on the club's players page


def _organised_season(request, season_id):
    season = selectors.season_by_id(season_id)
    require_organiser(request.user, season.club)  # 403 for anyone else
    return season


@login_required
def club_seasons(request, club_id):
    club = selectors.club_by_id(club_id)
    require_organiser(request.user, club)
    return render(request, "console/seasons.html", {"club": club, "seasons": selectors.club_seasons(club)})


def _saved(form, save):
    """Run the service with the form's values; its refusal goes beside the fields. The
    season, or None when refused."""
    try:
        return save()
    except Invalid as exc:
        form.show_problems(exc.as_dict() if exc.field else {None: [exc.message]})
    except ServiceError as exc:  # a conflict, a season gone meanwhile: said on top
        form.add_error(None, exc.message)
    return None


@login_required
def season_create(request, club_id):
    club = selectors.club_by_id(club_id)
    require_organiser(request.user, club)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        season = _saved(form, lambda: services.create_season(actor=request.user, club=club, **form.values()))
        if season is not None:
            messages.success(request, _("The season %(name)s is created.") % {"name": season.name})
            return redirect("console-seasons", club_id=club.pk)
    status = 400 if form.is_bound else 200
    return render(request, "console/season_form.html", {"form": form, "club": club, "season": None}, status=status)


@login_required
def season_edit(request, season_id):
    season = _organised_season(request, season_id)
    form = SeasonForm.of(season, request.POST or None)
    if request.method == "POST" and form.is_valid():
        saved = _saved(form, lambda: services.update_season(actor=request.user, season=season,
                                                                     **form.changed_values(season)))
        if saved is not None:
            messages.success(request, _("Saved."))
            return redirect("console-seasons", club_id=season.club_id)
    status = 400 if form.is_bound else 200
    return render(request, "console/season_form.html", {"form": form, "club": season.club, "season": season},
                  status=status)


@login_required
@require_POST
def season_delete(request, season_id):
    season = _organised_season(request, season_id)
    name, club_id = season.name, season.club_id
    services.delete_season(actor=request.user, season=season)
    messages.success(request, _("The season %(name)s is deleted; its evenings stay as they are.") % {"name": name})
    return redirect("console-seasons", club_id=club_id)


@login_required
def club_players(request, club_id):
    """The club's players: found by name, and the walk-ins that look like another of its
    players, to merge (one person's evenings then count together)."""
    club = selectors.club_by_id(club_id)
    require_organiser(request.user, club)
    query = request.GET.get("q", "")[:80]
    return render(request, "console/players.html", {
        "club": club, "query": query,
        "matches": find_club_players(club, query, limit=MOST_FOUND) if query else [],
        "suggestions": player_selectors.merge_suggestions(club),
    })


@login_required
@require_POST
def players_merge(request, club_id):
    club = selectors.club_by_id(club_id)
    require_organiser(request.user, club)
    duplicate, into = player_by_id(request.POST.get("duplicate")), player_by_id(request.POST.get("into"))
    if duplicate is None or into is None:
        messages.error(request, _("Choose one of the club's players."))
    else:
        try:
            kept = merge_players(actor=request.user, club=club, duplicate=duplicate, into=into)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("%(duplicate)s is merged into %(into)s: their evenings count together.")
                             % {"duplicate": duplicate.display_name, "into": kept.display_name})
    return redirect("console-players", club_id=club.pk)
