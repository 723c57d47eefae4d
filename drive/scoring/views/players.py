"""The organiser's page for who plays the evening: late arrivals join, leavers go."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from drive.core.errors import ServiceError
from drive.events.models import Registration
from drive.movements.models import Entrant

from drive.scoring.services import evening as evening_services
from drive.scoring.selectors.console import evening_players
from drive.events.access import organised_event


@login_required
def players(request, event_id):
    event = organised_event(request.user, event_id)
    return render(request, "scoring/console/players.html", {"event": event, **evening_players(event)})


def _act(request, event, action, success):
    try:
        action()
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, success)
    return redirect("console-evening-players", event_id=event.pk)


@login_required
@require_POST
def join(request, event_id, registration_id):
    event = organised_event(request.user, event_id)
    registration = get_object_or_404(Registration, pk=registration_id, event=event)
    return _act(request, event, lambda: evening_services.add_late_arrival(actor=request.user, event=event,
                                                                         registration=registration),
                _("%(name)s joins from the next round.") % {"name": registration.player})


@login_required
@require_POST
def leave(request, event_id, entrant_id):
    event = organised_event(request.user, event_id)
    entrant = get_object_or_404(Entrant, pk=entrant_id, event=event)
    return _act(request, event, lambda: evening_services.remove_leaver(actor=request.user, event=event, entrant=entrant),
                _("%(name)s plays no further round.") % {"name": entrant.player})
