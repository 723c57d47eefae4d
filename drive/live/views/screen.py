"""The room's screen (no login: the screen link's token is the key) and the organiser's
page to show, reissue and revoke that link. Thin: reads and writes are in `screen`."""
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from drive.core.errors import Invalid
from drive.events.access import any_event, organised_event
from drive.core.qr import qr_svg_file

from drive.live.services import announcements
from drive.live.selectors import announcements as announcement_reads
from drive.live.services import screen as screens
from drive.live.selectors.screen import chimes, event_for_screen, screen_token
from drive.live.models import Announcement


def _screen_event(token):
    event = event_for_screen(token)
    if event is None:
        raise Http404(_("No such screen link."))
    return event


def screen(request, token):
    """The full-screen page; an htmx refresh (on a live update) gets the fragment only."""
    event = _screen_event(token)
    context = {**screens.screen_state(event=event), "token": token,
               "poll_ms": getattr(settings, "LIVE_POLL_MS", None),
               "page_ms": getattr(settings, "SCREEN_PAGE_MS", None)}  # tests shorten both
    template = "live/_screen.html" if request.headers.get("HX-Request") else "live/screen.html"
    response = render(request, template, context)
    response["Cache-Control"] = "no-store"
    response["X-Robots-Tag"] = "noindex"
    return response


def screen_qr(request, token):
    """The QR code the screen shows before the start: the door's self check-in (the same
    link as the door's printed code), so a scan checks the player in."""
    event = _screen_event(token)
    url = request.build_absolute_uri(reverse("door-check-in", args=[event.pk, event.door_code]))
    response = HttpResponse(qr_svg_file(url), content_type="image/svg+xml")
    response["Cache-Control"] = "no-store"  # a new door code must not leave the old one on the screen
    response["X-Robots-Tag"] = "noindex"
    return response




@login_required
@require_http_methods(["GET"])
def screen_link(request, event_id):
    event = organised_event(request.user, event_id)
    token = screen_token(event)
    url = request.build_absolute_uri(reverse("screen", args=[token])) if token else ""
    return render(request, "live/screen_link.html", {"event": event, "url": url, "chime": chimes(event),
                                                      "announcements": announcement_reads.current(event=event)})


@login_required
@require_POST
def screen_link_issue(request, event_id):
    event = any_event(event_id)
    screens.issue_screen_link(actor=request.user, event=event)
    messages.success(request, _("A new screen link is ready. Any earlier link no longer works."))
    return redirect("console-screen-link", event.pk)


@login_required
@require_POST
def screen_link_revoke(request, event_id):
    event = any_event(event_id)
    screens.revoke_screen_link(actor=request.user, event=event)
    messages.success(request, _("The screen link is revoked: open screens stop showing the evening."))
    return redirect("console-screen-link", event.pk)


@login_required
@require_POST
def screen_chime(request, event_id):
    event = any_event(event_id)
    chime = request.POST.get("chime") == "on"
    screens.set_screen_chime(actor=request.user, event=event, chime=chime)
    messages.success(request, _("The chime is on.") if chime else _("The chime is off."))
    return redirect("console-screen-link", event.pk)


@login_required
@require_POST
def announce(request, event_id):
    event = any_event(event_id)
    try:
        announcements.announce(actor=request.user, event=event, text=request.POST.get("text", ""))
    except Invalid as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("The announcement is on the screen."))
    return redirect("console-screen-link", event.pk)


@login_required
@require_POST
def take_down(request, event_id, announcement_id):
    announcement = get_object_or_404(Announcement.objects.select_related("event__club"), pk=announcement_id,
                                     event_id=event_id)
    announcements.take_down(actor=request.user, announcement=announcement)
    messages.success(request, _("The announcement is taken down."))
    return redirect("console-screen-link", event_id)
