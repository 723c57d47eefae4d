"""REST API of online play (issue 14): make a table, read the caller's view, take or
fill a seat, act, and read the finished hands. Thin: the services decide, the selector
answers the caller's view (only what their seat may see)."""
from typing import TYPE_CHECKING

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from drive.core.api_input import valid_data
from drive.core.errors import NotFound
from drive.core.seats import seat_letter
from drive.games import access
from drive.games.models import SEATS, PlaySeat
from drive.games.selectors import tables as selectors
from drive.games.services import actions, tables

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise  # django-stubs' type of a lazy translation

ROBOTS = [(kind, label) for kind, label in PlaySeat.Robot.choices if kind]
SEAT_MESSAGES: "dict[str, str | _StrPromise]" = {"invalid_choice": _("Seat must be N, E, S or W.")}

FORBIDDEN = OpenApiResponse(OpenApiTypes.OBJECT, description="Not logged in, or not allowed: {\"detail\", \"code\"}")
NOT_FOUND = OpenApiResponse(OpenApiTypes.OBJECT, description="No such table")
INVALID = OpenApiResponse(OpenApiTypes.OBJECT, description="Field messages, or {\"detail\", \"rule\"} for an action "
                                                           "the rules refuse")
CONFLICT = OpenApiResponse(OpenApiTypes.OBJECT, description="{\"detail\", \"version\"}: not your turn, a stale version, "
                                                            "or a seat taken")
TOO_MANY = OpenApiResponse(OpenApiTypes.OBJECT, description="{\"detail\", \"code\": \"too_many\"}: past a limit on what "
                                                            "one user may start (tables alive, tables an hour, strong "
                                                            "robots)")


# --- what comes in ------------------------------------------------------------------------


class NewTableSerializer(serializers.Serializer):
    rules = serializers.JSONField(help_text="A preset name (\"short\", \"bid\", \"siberian\"...), or "
                                            "{\"name\": preset, ...options}.")
    robots = serializers.DictField(child=serializers.ChoiceField(choices=ROBOTS), required=False,
                                   help_text="Seats given to robots: {\"E\": \"rules\", \"S\": \"strong\"}. "
                                             "Other seats stay open for invited people.")
    seat = serializers.ChoiceField(choices=SEATS, required=False, error_messages=SEAT_MESSAGES,
                                   help_text="Your seat; by default the first seat without a robot.")
    timeout_seconds = serializers.IntegerField(required=False, min_value=10, max_value=tables.MAX_TIMEOUT_SECONDS,
                                               help_text="Seconds of silence before a robot stands in (45).")
    public = serializers.BooleanField(required=False, default=False,
                                      help_text="Anyone signed in may take an open seat without the invite link "
                                                "(GET /api/play/tables/open/ lists the table).")


class SeatRequestSerializer(serializers.Serializer):
    seat = serializers.ChoiceField(choices=SEATS, error_messages=SEAT_MESSAGES)
    robot = serializers.ChoiceField(choices=ROBOTS, required=False,
                                    help_text="The creator or organiser seats a robot here.")
    username = serializers.CharField(required=False, max_length=150,
                                     help_text="The creator or organiser offers this seat to this person (a "
                                               "substitute): they sit once they accept it (the same request "
                                               "without username, or the lobby). The answer (202) is the same "
                                               "whether or not the username exists.")
    invite = serializers.CharField(required=False, allow_blank=True, max_length=64,
                                   help_text="The table's invitation (the link's ?invite=...): taking an open seat "
                                             "of a casual table needs it; a browser that opened the link has it in "
                                             "its session.")


class ActionRequestSerializer(serializers.Serializer):
    action = serializers.CharField(max_length=actions.MAX_ACTION_LENGTH, trim_whitespace=True,
                                   help_text="A card (\"AS\") or a call (\"pass\", \"4 downtown\", \"trump H\"...).")
    version = serializers.IntegerField(min_value=0, max_value=10**9, help_text="The table's version you saw.")
    seat = serializers.ChoiceField(choices=SEATS, required=False, error_messages=SEAT_MESSAGES,
                                   help_text="Optional: the seat you act for; another than yours is refused (403).")


# --- what goes out ------------------------------------------------------------------------


class TableCreatedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seat = serializers.CharField()
    url = serializers.CharField(help_text="The table's page (the view's invite_url is the link to send to friends).")
    ws = serializers.CharField(help_text="The websocket sending this view after every change.")


class SeatOfferedSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="The same sentence whether or not such a person exists.")
    seat = serializers.CharField()


class TablePlayerSerializer(serializers.Serializer):
    seat = serializers.CharField()
    name = serializers.CharField()
    robot = serializers.CharField()
    standin = serializers.BooleanField()
    open = serializers.BooleanField()


class TableViewSerializer(serializers.Serializer):
    """The engine's view of the caller's seat (GameState.view), or the public view for a
    watcher; variants add fields of their own (contract, ranking, kitty...)."""
    id = serializers.IntegerField()
    rules = serializers.CharField()
    phase = serializers.CharField()
    to_act = serializers.CharField(allow_null=True)
    seat = serializers.CharField(allow_null=True, help_text="Yours; null for a watcher.")
    dealer = serializers.CharField(allow_null=True)
    hand = serializers.ListField(child=serializers.CharField(), help_text="Your cards only.")
    legal = serializers.ListField(child=serializers.CharField(), help_text="Your legal actions when you are to act.")
    trick = serializers.JSONField()
    tricks = serializers.JSONField()
    last_trick = serializers.JSONField(allow_null=True)
    trump = serializers.CharField(allow_null=True)
    trump_card = serializers.CharField(allow_null=True)
    auction = serializers.JSONField()
    open_hands = serializers.JSONField()
    score = serializers.JSONField()
    version = serializers.IntegerField()
    hands_played = serializers.IntegerField()
    last_record = serializers.JSONField(allow_null=True, help_text="The last finished hand's record.")
    players = TablePlayerSerializer(many=True)
    finished = serializers.BooleanField()
    invite_url = serializers.CharField(allow_null=True, help_text="/play/<id>/?invite=...: the invitation link, "
                                                                  "for the table's players and creator; else null.")


class OpenTableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    rules = serializers.JSONField(help_text="The preset name, or {\"name\": preset, ...options}.")
    created_by = serializers.CharField(help_text="Who opened the table.")
    created_at = serializers.DateTimeField()
    players = TablePlayerSerializer(many=True)
    open_seats = serializers.ListField(child=serializers.CharField(),
                                       help_text="The seats you may take: POST {\"seat\": ...} to seats_url.")
    url = serializers.CharField(help_text="The table's page.")
    seats_url = serializers.CharField(help_text="Where to take a seat (no invitation needed at a public table).")


class PlayedHandSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.CharField()
    record = serializers.JSONField(help_text="The game record up to this hand (python -m engine check accepts it).")


class HandsSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    rules = serializers.JSONField()
    hands = PlayedHandSerializer(many=True)


# --- the views ------------------------------------------------------------------------------


INVITE_PARAMETER = OpenApiParameter("invite", str, description="The table's invitation (the link's ?invite=...): "
                                     "a casual table is watched by its players, its creator and whoever holds it.")


def invite_of(request, table_id: int, given=None):
    """The invitation the caller gives (the body's, the query's), else the one their
    session keeps since they opened the table's link."""
    return access.invite_of(request.session, table_id, given or request.query_params.get("invite"))


def view_response(request, table_id: int) -> Response:
    table = selectors.table_with_seats(table_id)
    if table is None:  # gone since the write that answers with it
        raise NotFound(gettext("No such table."))
    return Response(selectors.table_view(request.user, table))


class TablesView(APIView):
    @extend_schema(request=NewTableSerializer,
                   responses={201: TableCreatedSerializer, 400: INVALID, 403: FORBIDDEN, 429: TOO_MANY},
                   summary="Make a casual table; you sit at it, robots at the seats given")
    def post(self, request):
        data = valid_data(NewTableSerializer, request)
        table = tables.create_table(user=request.user, rules=data["rules"], robots=data.get("robots"), seat=data.get("seat"),
                                    timeout_seconds=data.get("timeout_seconds"), public=data.get("public", False))
        seat = access.seat_of(request.user, table)
        body = {"id": table.pk, "seat": seat.seat if seat is not None else None, "url": f"/play/{table.pk}/", "ws": f"/ws/play/{table.pk}/"}
        return Response(body, status=status.HTTP_201_CREATED)


class OpenTablesView(APIView):
    @extend_schema(responses={200: OpenTableSerializer(many=True), 403: FORBIDDEN},
                   summary="Public casual tables still playing with a seat you may take, newest first (at most "
                           f"{selectors.PUBLIC_SHOWN}); not yours, never an evening's")
    def get(self, request):
        user = access.signed_in(request.user)  # 403 for nobody signed in
        rows = [{"id": found.table.pk, "rules": found.table.rules, "created_by": selectors.creator_name(found.table),
                 "created_at": found.table.created_at, "players": selectors.players(found.table),
                 "open_seats": found.seats, "url": f"/play/{found.table.pk}/",
                 "seats_url": f"/api/play/tables/{found.table.pk}/seats/"}
                for found in selectors.open_public_tables(user)]
        return Response(OpenTableSerializer(rows, many=True).data)


class TableView(APIView):
    @extend_schema(responses={200: TableViewSerializer, 403: FORBIDDEN, 404: NOT_FOUND}, parameters=[INVITE_PARAMETER],
                   summary="The caller's view of the table")
    def get(self, request, table_id):
        # One read of the table and its seats serves both the check and the view (pages poll it);
        # the sign-in first, so that nobody anonymous learns which tables exist.
        access.require_login(request.user)
        table = selectors.table_with_seats_or_404(table_id)
        access.require_watcher(request.user, table, invite_of(request, table_id))
        return Response(selectors.table_view(request.user, table))


class SeatsView(APIView):
    @extend_schema(request=SeatRequestSerializer,
                   responses={200: TableViewSerializer, 202: SeatOfferedSerializer, 400: INVALID, 403: FORBIDDEN,
                              404: NOT_FOUND, 409: CONFLICT, 429: TOO_MANY},
                   summary="Take an open seat or the seat offered to you; or, as the creator or organiser, seat a "
                           "robot or offer a seat to a person (202)")
    def post(self, request, table_id):
        data = valid_data(SeatRequestSerializer, request)
        if "robot" in data:
            tables.seat_robot(user=request.user, table_id=table_id, seat=data["seat"], robot=data["robot"])
        elif "username" in data:
            tables.offer_seat(user=request.user, table_id=table_id, seat=data["seat"], username=data["username"])
            detail = gettext("If %(name)s plays here, they were offered seat %(seat)s.") % {
                "name": data["username"], "seat": seat_letter(data["seat"])}
            return Response({"detail": detail, "seat": data["seat"]}, status=status.HTTP_202_ACCEPTED)
        else:
            tables.take_seat(user=request.user, table_id=table_id, seat=data["seat"], invite=invite_of(request, table_id, data.get("invite")))
        return view_response(request, table_id)


class CloseView(APIView):
    @extend_schema(request=None, responses={200: TableViewSerializer, 403: FORBIDDEN, 404: NOT_FOUND, 409: CONFLICT},
                   summary="As its creator, close a casual table before its game is over (it no longer counts "
                           "among your open tables)")
    def post(self, request, table_id):
        tables.close_table(user=request.user, table_id=table_id)
        return view_response(request, table_id)


class ActionsView(APIView):
    @extend_schema(request=ActionRequestSerializer,
                   responses={200: TableViewSerializer, 400: INVALID, 403: FORBIDDEN, 404: NOT_FOUND, 409: CONFLICT},
                   summary="Play a card or make a call from your seat")
    def post(self, request, table_id):
        data = valid_data(ActionRequestSerializer, request)
        view = actions.apply_action(user=request.user, table_id=table_id, action=data["action"], version=data["version"], seat=data.get("seat"))
        return Response(view)


class HandsView(APIView):
    @extend_schema(responses={200: HandsSerializer, 403: FORBIDDEN, 404: NOT_FOUND}, parameters=[INVITE_PARAMETER],
                   summary="The finished hands' records")
    def get(self, request, table_id):
        table = access.hands_table(request.user, table_id, invite_of(request, table_id))
        return Response({"id": table.pk, "rules": table.rules, "hands": selectors.hand_records(table)})
