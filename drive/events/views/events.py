"""Pages: public events, the player's own page, and the organiser's console."""
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from drive.core.errors import ServiceError
from drive.core.qr import qr_svg_file

from drive.events.selectors import events as selectors

from drive.events.services import events as services

from drive.events.services import accounts as account_services

from drive.events.services import arrivals as arrival_services

from drive.events.services import registration as registration_services

from drive.events.selectors import events as event_selectors
from drive.events.views.forms import EventForm, FixedTableForm, SignupForm, WalkInForm
from drive.events.models import Event, Registration
from drive.events.access import is_organiser, require_organiser
from drive.events import access






def _run(request, action, success=None):
    """Call a service; show its refusal as a message instead of an error page."""
    try:
        result = action()
    except ServiceError as exc:
        messages.error(request, exc.message)
        return None
    if success:
        messages.success(request, success)
    return result


# --- public -------------------------------------------------------------------


def event_list(request):
    upcoming, past = selectors.upcoming_and_past(selectors.visible_events(request.user))
    return render(request, "events/event_list.html", {"events": upcoming, "past_events": past})


def event_detail(request, event_id):
    event = access.visible_event(request.user, event_id, with_places=True)
    context = {
        "event": event,
        "registration": selectors.registration_of(request.user, event),
        "closed_reason": event_selectors.registration_state(event),
        "can_organise": is_organiser(request.user, event.club),
    }
    return render(request, "events/event_detail.html", context)


@login_required
@require_POST
def register(request, event_id):
    event = access.visible_event(request.user, event_id, with_places=True)
    registration = _run(request, lambda: registration_services.register(actor=request.user, event=event))
    if registration and registration.status == Registration.Status.WAITLISTED:
        messages.info(request, _("The event is full: you are number %(n)s on the waitlist.") % {"n": registration.waitlist_position})
    elif registration:
        messages.success(request, _("You are registered. See you there!"))
    return redirect("event-detail", event_id=event.pk)


@login_required
@require_POST
def cancel(request, event_id):
    event = access.visible_event(request.user, event_id, with_places=True)
    registration = selectors.registration_of(request.user, event)
    if registration:
        _run(request, lambda: registration_services.cancel_registration(actor=request.user, registration=registration),
             _("Your registration is cancelled."))
    return redirect("event-detail", event_id=event.pk)


@login_required
def door_check_in(request, event_id, door_code):
    """The page the door QR code opens: scanning it marks the player arrived."""
    event = get_object_or_404(Event, pk=event_id, door_code=door_code)
    context = {"event": event, "already": False, "error": None, "registration": None}
    try:
        context["registration"], context["already"] = arrival_services.self_check_in(
            actor=request.user, event=event, door_code=door_code
        )
    except ServiceError as exc:
        context["error"] = exc.message
    return render(request, "events/door_check_in.html", context)


def signup(request):
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = account_services.sign_up(
            username=form.cleaned_data["username"], password=form.cleaned_data["password1"],
            email=form.cleaned_data.get("email", ""), display_name=form.cleaned_data["display_name"],
            language=translation.get_language(),
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome! Your account is ready."))
        next_url = request.GET.get("next")
        if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
            next_url = None  # never send a new account off to another site
        return redirect(next_url or "me")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def me(request):
    return render(request, "events/me.html", {"registrations": selectors.registrations_of(request.user)})


# --- organiser console -------------------------------------------------------------


@login_required
def console(request):
    events = selectors.events_with_places(selectors.organised_events(request.user))
    clubs = selectors.organised_clubs(request.user)
    return render(request, "console/index.html", {"events": events, "clubs": clubs})


@login_required
def event_create(request, club_id):
    club = get_object_or_404(selectors.organised_clubs(request.user), pk=club_id)
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        event = _run(request, lambda: services.create_event(actor=request.user, club=club, **form.cleaned_data),
                     _("The event is created."))
        if event:
            return redirect("console-event", event_id=event.pk)
    return render(request, "console/event_form.html", {"form": form, "club": club, "event": None})


@login_required
def event_edit(request, event_id):
    event = access.organised_event(request.user, event_id, with_places=True)
    form = EventForm(request.POST or None, instance=Event.objects.get(pk=event.pk))
    if request.method == "POST" and form.is_valid():
        fields = form.changed_fields()
        if _run(request, lambda: services.update_event(actor=request.user, event=event, **fields), _("Saved.")):
            return redirect("console-event", event_id=event.pk)
    return render(request, "console/event_form.html", {"form": form, "club": event.club, "event": event})


@login_required
def console_event(request, event_id):
    event = access.organised_event(request.user, event_id, with_places=True)
    return render(request, "console/event.html", _console_context(request, event, WalkInForm()))


def _console_context(request, event, walk_in_form, query=""):
    door_url = request.build_absolute_uri(reverse("door-check-in", args=[event.pk, event.door_code]))
    return {
        **_matches_context(event, query),
        "event": event,
        "status": event_selectors.event_status(event),
        "places": selectors.event_places(event),
        "registrations": selectors.registrations_for_event(event),
        "walk_in_form": walk_in_form,
        "door_url": door_url,
        "tables": arrival_services.table_count(event=event),
        "fixing_tables": event.phase == Event.Phase.REGISTRATION,  # the start copies them into the movement
    }


@login_required
def console_arrivals(request, event_id):
    """The arrivals counter and the list, re-fetched by htmx when the socket says so."""
    event = access.organised_event(request.user, event_id, with_places=True)
    return render(request, "console/_registrations.html", _console_context(request, event, WalkInForm()))


@login_required
@require_POST
def console_walk_in(request, event_id):
    event = access.organised_event(request.user, event_id, with_places=True)
    if "player" in request.POST:  # one of the club's players, found by name (walk_in_matches)
        player = selectors.player_by_id(request.POST["player"])
        if player is None:
            messages.error(request, _("Choose one of the club's players."))
            return redirect("console-event", event_id=event.pk)
        registration = _run(request, lambda: arrival_services.add_walk_in(
            actor=request.user, event=event, player=player, category=request.POST.get("category", "")))
        if registration is not None:
            messages.success(request, _("%(name)s is checked in, with their evenings before.")
                             % {"name": registration.player.display_name})
        return redirect("console-event", event_id=event.pk)
    form = WalkInForm(request.POST)
    if form.is_valid():
        _run(request, lambda: arrival_services.add_walk_in(actor=request.user, event=event, **form.cleaned_data),
             _("%(name)s is added and checked in.") % {"name": form.cleaned_data["display_name"]})
        return redirect("console-event", event_id=event.pk)
    return render(request, "console/event.html", _console_context(request, event, form), status=400)


@login_required
def walk_in_matches(request, event_id):
    """The club's players whose name holds what the organiser typed, to check one in as a
    walk-in: the list alone for htmx, else the console page with it."""
    event = access.organised_event(request.user, event_id, with_places=True)
    query = request.GET.get("q", "")[:80]
    if request.headers.get("HX-Request"):
        return render(request, "console/_walk_in_matches.html", _matches_context(event, query))
    return render(request, "console/event.html", _console_context(request, event, WalkInForm(), query))


def _matches_context(event, query):
    return {"event": event, "query": query, "matches": selectors.find_club_players(event.club, query, event=event)}


def _organised_registration(request, registration_id):
    registration = get_object_or_404(Registration.objects.select_related("event__club", "player"), pk=registration_id)
    require_organiser(request.user, registration.event.club)
    return registration


def _back_to_registrations(request, event_id):
    """htmx gets the list again (with the messages); a plain form post the console page."""
    if request.headers.get("HX-Request"):
        event = access.visible_event(request.user, event_id, with_places=True)
        return render(request, "console/_registrations.html", _console_context(request, event, WalkInForm()))
    return redirect("console-event", event_id=event_id)


def _registration_action(service, success):
    @login_required
    @require_POST
    def view(request, registration_id):
        registration = _organised_registration(request, registration_id)
        _run(request, lambda: service(actor=request.user, registration=registration), success % {"name": registration.player})
        return _back_to_registrations(request, registration.event_id)

    view.__name__ = service.__name__
    return view


console_check_in = _registration_action(arrival_services.check_in, gettext_lazy("%(name)s is checked in."))
console_no_show = _registration_action(arrival_services.mark_no_show, gettext_lazy("%(name)s is marked a no-show."))


@login_required
@require_POST
def console_cancel(request, registration_id):
    registration = _organised_registration(request, registration_id)
    # The service decides; this only picks the words (a player of a running evening leaves it).
    playing = (registration.status == Registration.Status.CHECKED_IN
               and registration.event.phase == Event.Phase.IN_PROGRESS)
    success = (_("%(name)s leaves the evening: no further round for them, and the registration is cancelled.")
               if playing else _("The registration of %(name)s is cancelled.")) % {"name": registration.player}
    _run(request, lambda: registration_services.cancel_registration(actor=request.user, registration=registration),
         success)
    return _back_to_registrations(request, registration.event_id)


@login_required
@require_POST
def console_fixed_table(request, registration_id):
    registration = _organised_registration(request, registration_id)
    form = FixedTableForm(request.POST)
    if not form.is_valid():
        messages.error(request, str(form.errors["table"][0]))  # ErrorList[i] is the message (stub: or a ValidationError)
        return _back_to_registrations(request, registration.event_id)
    table, name = form.cleaned_data["table"], registration.player
    success = (_("%(name)s keeps table %(table)s all evening.") % {"name": name, "table": table} if table is not None
               else _("%(name)s moves with the others again.") % {"name": name})
    _run(request, lambda: arrival_services.set_fixed_table(actor=request.user, registration=registration, table=table), success)
    return _back_to_registrations(request, registration.event_id)


def _event_action(service, success):
    @login_required
    @require_POST
    def view(request, event_id):
        event = access.organised_event(request.user, event_id, with_places=True)
        _run(request, lambda: service(actor=request.user, event=event), success)
        return redirect("console-event", event_id=event.pk)

    view.__name__ = service.__name__
    return view


console_publish = _event_action(services.open_registration, gettext_lazy("The event is published: registration is open."))
console_close_registration = _event_action(services.close_registration, gettext_lazy("Registration is closed."))
console_door_code = _event_action(services.reissue_door_code,
                                  gettext_lazy("A new door code is set: the old QR code no longer checks anyone in."))


@login_required
@require_POST
def console_no_shows(request, event_id):
    event = access.organised_event(request.user, event_id, with_places=True)
    count = _run(request, lambda: arrival_services.mark_absent_as_no_shows(actor=request.user, event=event))
    if count is not None:
        messages.success(request, ngettext("%(count)s player marked as a no-show.",
                                           "%(count)s players marked as no-shows.", count) % {"count": count})
    return redirect("console-event", event_id=event.pk)


@login_required
def door_qr(request, event_id):
    """The door code as an SVG QR code, to print or show on the screen at the door."""
    event = access.organised_event(request.user, event_id, with_places=True)
    url = request.build_absolute_uri(reverse("door-check-in", args=[event.pk, event.door_code]))
    return HttpResponse(qr_svg_file(url), content_type="image/svg+xml")
