"""REST API for events, registration and check-in. Thin: each view calls one service."""
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from drive.core.api_docs import errors
from drive.core.api_input import valid_data
from drive.core.errors import Forbidden, Invalid
from drive.core.throttles import ScopedThrottle
from drive.events.models import Club, Registration
from drive.events.selectors import events as selectors
from drive.events.services import accounts as account_services
from drive.events.services import arrivals as arrival_services
from drive.events.services import events as services
from drive.events.services import registration as registration_services

from drive.events import access
from drive.events.access import require_club_creator, require_login, require_organiser
from drive.events.api.serializers import (
    ClubCreateSerializer,
    ClubDetailSerializer,
    ClubSerializer,
    CountSerializer,
    EventCreateSerializer,
    EventSerializer,
    EventWriteSerializer,
    FixedTableSerializer,
    PlayerMatchSerializer,
    RegistrationSerializer,
    SelfCheckInResultSerializer,
    SelfCheckInSerializer,
    SignupSerializer,
    TokenOnlySerializer,
    TokenSerializer,
    WalkInSerializer,
)




def event_response(event, code=status.HTTP_200_OK):
    event = selectors.events_with_places(type(event).objects.filter(pk=event.pk)).get()
    return Response(EventSerializer(event).data, status=code)


def visible_registration(request, registration_id):
    registration = get_object_or_404(Registration.objects.select_related("event__club", "player"), pk=registration_id)
    if not selectors.visible_events(request.user).filter(pk=registration.event_id).exists():
        raise Forbidden(_("You may not see this registration."))
    return registration


class EventListView(APIView):
    @extend_schema(responses={200: EventSerializer(many=True), **errors(403)}, operation_id="events_list")
    def get(self, request):
        events = selectors.events_with_places(selectors.visible_events(request.user))
        return Response(EventSerializer(events, many=True).data)

    @extend_schema(request=EventCreateSerializer, responses={201: EventSerializer, **errors(400, 403)})
    def post(self, request):
        data = valid_data(EventCreateSerializer, request)
        event = services.create_event(actor=request.user, **data)
        return event_response(event, status.HTTP_201_CREATED)


class EventDetailView(APIView):
    @extend_schema(responses={200: EventSerializer, **errors(403, 404)})
    def get(self, request, event_id):
        return Response(EventSerializer(access.visible_event(request.user, event_id, with_places=True)).data)

    @extend_schema(request=EventWriteSerializer, responses={200: EventSerializer, **errors(400, 403, 404, 409)})
    def patch(self, request, event_id):
        event = access.visible_event(request.user, event_id, with_places=True)
        data = valid_data(EventWriteSerializer, request, partial=True)
        event = services.update_event(actor=request.user, event=event, **data)
        return event_response(event)


class MyRegistrationView(APIView):
    """The caller's own registration for one event."""

    @extend_schema(responses={200: RegistrationSerializer, **errors(403, 404)})
    def get(self, request, event_id):
        event = access.visible_event(request.user, event_id, with_places=True)
        registration = selectors.registration_of(request.user, event)
        if registration is None:
            return Response({"detail": _("You are not registered for this event.")}, status=status.HTTP_404_NOT_FOUND)
        return Response(RegistrationSerializer(registration).data)

    @extend_schema(request=None, responses={201: RegistrationSerializer, 200: RegistrationSerializer, **errors(403, 404, 409)})
    def post(self, request, event_id):
        event = access.visible_event(request.user, event_id, with_places=True)
        registration, created = registration_services.register_or_get(actor=request.user, event=event)
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(RegistrationSerializer(registration).data, status=code)

    @extend_schema(request=None, responses={200: RegistrationSerializer, **errors(403, 404, 409)})
    def delete(self, request, event_id):
        event = access.visible_event(request.user, event_id, with_places=True)
        registration = selectors.registration_of(request.user, event)
        if registration is None:
            return Response({"detail": _("You are not registered for this event.")}, status=status.HTTP_404_NOT_FOUND)
        registration = registration_services.cancel_registration(actor=request.user, registration=registration)
        return Response(RegistrationSerializer(registration).data)


class SelfCheckInView(APIView):
    throttle_classes = [ScopedThrottle]
    throttle_scope = "door"

    @extend_schema(request=SelfCheckInSerializer, responses={200: SelfCheckInResultSerializer, **errors(400, 403, 404, 409, 429)})
    def post(self, request, event_id):
        event = access.visible_event(request.user, event_id, with_places=True)
        data = valid_data(SelfCheckInSerializer, request)
        registration, already = arrival_services.self_check_in(actor=request.user, event=event, door_code=data["door_code"])
        return Response({"already_checked_in": already, "registration": RegistrationSerializer(registration).data})


class EventRegistrationsView(APIView):
    """The organiser's list of an event's registrations."""

    @extend_schema(responses={200: RegistrationSerializer(many=True), **errors(403, 404)})
    def get(self, request, event_id):
        event = access.visible_event(request.user, event_id, with_places=True)
        require_organiser(request.user, event.club)
        return Response(RegistrationSerializer(selectors.registrations_for_event(event), many=True).data)


class WalkInView(APIView):
    @extend_schema(request=WalkInSerializer, responses={201: RegistrationSerializer, **errors(400, 403, 404, 409, 415)},
                   description="A walk-in checked in at once: a new player by `display_name`, or one of the club's "
                               "players by `player` (409 when they are checked in already). No field is required "
                               "by itself, so a body the server cannot read is 415.")
    def post(self, request, event_id):
        event = access.visible_event(request.user, event_id, with_places=True)
        require_organiser(request.user, event.club)  # a refusal before a body check
        data = valid_data(WalkInSerializer, request)
        if "player" in data:
            player = selectors.player_by_id(data.pop("player"))
            if player is None:
                raise Invalid(_("Choose one of the club's players."), field="player")
            data = {"player": player, "category": data.get("category", "")}
        registration = arrival_services.add_walk_in(actor=request.user, event=event, **data)
        return Response(RegistrationSerializer(registration).data, status=status.HTTP_201_CREATED)


class ClubPlayersView(APIView):
    """The club's players by name, for the door: its organisers only."""

    @extend_schema(parameters=[OpenApiParameter("q", str, description="Any part of the name, any case (every "
                                                                       "word of it, in any order).")],
                   responses={200: PlayerMatchSerializer(many=True), **errors(403, 404)})
    def get(self, request, club_id):
        club = get_object_or_404(Club, pk=club_id)
        require_organiser(request.user, club)
        matches = selectors.find_club_players(club, request.query_params.get("q", "")[:80])
        return Response(PlayerMatchSerializer(matches, many=True).data)


class NoShowsView(APIView):
    @extend_schema(request=None, responses={200: CountSerializer, **errors(403, 404, 409)})
    def post(self, request, event_id):
        event = access.visible_event(request.user, event_id, with_places=True)
        return Response({"count": arrival_services.mark_absent_as_no_shows(actor=request.user, event=event)})


def registration_action(service, doc):
    class RegistrationActionView(APIView):
        @extend_schema(request=None, responses={200: RegistrationSerializer, **errors(403, 404, 409)}, description=doc)
        def post(self, request, registration_id):
            registration = visible_registration(request, registration_id)
            registration = service(actor=request.user, registration=registration)
            return Response(RegistrationSerializer(registration).data)

    RegistrationActionView.__name__ = service.__name__.title().replace("_", "") + "View"
    return RegistrationActionView.as_view()


class FixedTableView(APIView):
    @extend_schema(
        request=FixedTableSerializer, responses={200: RegistrationSerializer, **errors(400, 403, 404, 409)},
        description="Before the evening starts, the organiser keeps a player who should not move (mobility) "
                    "at one table all evening, or clears it with null.",
    )
    def post(self, request, registration_id):
        registration = visible_registration(request, registration_id)
        require_organiser(request.user, registration.event.club)  # a refusal before a body check
        data = valid_data(FixedTableSerializer, request)
        registration = arrival_services.set_fixed_table(actor=request.user, registration=registration, table=data["table"])
        return Response(RegistrationSerializer(registration).data)


def event_action(service, doc):
    class EventActionView(APIView):
        @extend_schema(request=None, responses={200: EventSerializer, **errors(403, 404, 409)}, description=doc)
        def post(self, request, event_id):
            event = service(actor=request.user, event=access.visible_event(request.user, event_id, with_places=True))
            return event_response(event)

    EventActionView.__name__ = service.__name__.title().replace("_", "") + "View"
    return EventActionView.as_view()


class MyRegistrationsView(APIView):
    @extend_schema(responses={200: RegistrationSerializer(many=True), **errors(403)},
                   description="The caller's registrations, latest event first. 403 without a login.")
    def get(self, request):
        require_login(request.user)
        return Response(RegistrationSerializer(selectors.registrations_of(request.user), many=True).data)


class ClubListView(APIView):
    @extend_schema(request=ClubCreateSerializer, responses={201: ClubDetailSerializer, **errors(400, 403)},
                   operation_id="clubs_create",
                   description="A new club, as the admin makes one. Only active site staff with the permission to "
                               "add clubs may (the admin's rule); the caller becomes one of its organisers.")
    def post(self, request):
        require_club_creator(request.user)  # a refusal before a body check
        data = valid_data(ClubCreateSerializer, request)
        club = services.create_club(actor=request.user, **data)
        return Response(ClubDetailSerializer(club).data, status=status.HTTP_201_CREATED)


class MyClubsView(APIView):
    @extend_schema(responses={200: ClubSerializer(many=True), **errors(403)},
                   description="The clubs the caller organises. 403 without a login.")
    def get(self, request):
        require_login(request.user)
        return Response(ClubSerializer(selectors.organised_clubs(request.user), many=True).data)


class SignupView(APIView):
    throttle_classes = [ScopedThrottle]
    throttle_scope = "signup"
    authentication_classes = []

    @extend_schema(request=SignupSerializer, responses={201: TokenSerializer, **errors(400, 429)})
    def post(self, request):
        data = valid_data(SignupSerializer, request)
        user = account_services.sign_up(**data, language=translation.get_language())
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key, "player": {"id": user.player.id, "display_name": user.player.display_name,
                                                       "category": user.player.category}}, status=status.HTTP_201_CREATED)


class TokenView(ObtainAuthToken):
    """Username and password in, the API token out. Needs no credentials of its own."""

    authentication_classes = []
    # ObtainAuthToken's own skip the JSON limits; the stub types the setting before import (str)
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # type: ignore[assignment]
    throttle_classes = [ScopedThrottle]
    throttle_scope = "login"  # password guessing is slowed down per address

    @extend_schema(request=AuthTokenSerializer, responses={200: TokenOnlySerializer, **errors(400, 429)})
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)
