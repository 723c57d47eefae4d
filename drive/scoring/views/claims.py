"""The organiser's buttons for seat claims on the console's table page: free a seat, and
give the table a new link. Thin: each calls one service (which checks the organiser)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from drive.core.errors import Forbidden, ServiceError
from drive.events.access import organised_event
from drive.core.seats import seat_letter

from drive.scoring.services import claims
from drive.scoring.models import Table


def _back(event, round_number, table_number):
    return redirect(reverse("console-evening-table", args=[event.pk, round_number, table_number]) + "#claims")


@login_required
@require_POST
def release(request, event_id, round_number, table_number, seat):
    event = organised_event(request.user, event_id)
    table = get_object_or_404(Table, event=event, number=table_number)
    try:
        claims.release_claim(actor=request.user, table=table, position=seat, round_number=round_number)
    except Forbidden:
        raise
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Seat %(seat)s of table %(table)s is free: it can be claimed again.")
                         % {"seat": seat_letter(seat), "table": table_number})
    return _back(event, round_number, table_number)


@login_required
@require_POST
def reissue_link(request, event_id, round_number, table_number):
    event = organised_event(request.user, event_id)
    table = get_object_or_404(Table, event=event, number=table_number)
    claims.reissue_table_link(actor=request.user, table=table)
    messages.success(request, _("Table %(table)s has a new link: print its card again. The old link no longer "
                                "works and its phones claim their seats again.") % {"table": table_number})
    return _back(event, round_number, table_number)
