"""REST API of an evening's online tables: which tables play online (the organiser sets
it), and every online table of the evening with its players and hand-history links."""
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from drive.core.api_input import valid_data
from drive.events.access import require_login
from drive.events.selectors.events import visible_events
from drive.scoring.models import OnlineTables
from drive.scoring.selectors.online_tables import evening_tables
from drive.scoring.services import online_tables as evening

FORBIDDEN = OpenApiResponse(OpenApiTypes.OBJECT, description="Not logged in, or not an organiser of the club")
NOT_FOUND = OpenApiResponse(OpenApiTypes.OBJECT, description="No such event (or not one you may see)")
INVALID = OpenApiResponse(OpenApiTypes.OBJECT, description="Field messages")
CONFLICT = OpenApiResponse(OpenApiTypes.OBJECT, description="{\"detail\", \"tables\"}: the evening is over, or a "
                                                            "round is being played at tables the change would switch")


class OnlineTablesSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=OnlineTables.Mode.choices,
                                   help_text="\"paper\", \"online\", or \"mixed\" (the tables listed online).")
    tables = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=evening.MAX_TABLE_NUMBER),
                                   required=False, max_length=500,
                                   help_text="The tables played online when mixed: [1, 3].")
    robot = serializers.ChoiceField(choices=evening.ROBOT_KINDS, required=False,
                                    help_text="The robot playing a seat with no player or no account (rules).")


class OnlineSeatSerializer(serializers.Serializer):
    seat = serializers.CharField()
    name = serializers.CharField()
    robot = serializers.CharField()
    standin = serializers.BooleanField()


class OnlineTableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    phase = serializers.CharField()
    over = serializers.BooleanField(help_text="Every hand of the round is played.")
    round_closed = serializers.BooleanField(help_text="The round is closed: the hands are shown to everyone.")
    seconds_left = serializers.IntegerField(allow_null=True, help_text="The round's clock, while it is played.")
    seats = OnlineSeatSerializer(many=True)
    finished_by_robots = serializers.ListField(child=serializers.IntegerField(),
                                               help_text="Hands robots finished at the round's deadline.")
    url = serializers.CharField()
    hands_url = serializers.CharField(help_text="The hand-history page.")


class EveningTablesSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    mode = serializers.CharField()
    tables = serializers.ListField(child=serializers.IntegerField())
    robot = serializers.CharField()
    online = OnlineTableSerializer(many=True)


class EveningTablesView(APIView):
    def _event(self, request, event_id):
        require_login(request.user)
        return get_object_or_404(visible_events(request.user), pk=event_id)

    @extend_schema(responses={200: EveningTablesSerializer, 403: FORBIDDEN, 404: NOT_FOUND},
                   summary="How the evening's tables play, and its online tables round by round")
    def get(self, request, event_id):
        return Response(evening_tables(event=self._event(request, event_id)))

    @extend_schema(request=OnlineTablesSerializer,
                   responses={200: EveningTablesSerializer, 400: INVALID, 403: FORBIDDEN, 404: NOT_FOUND,
                              409: CONFLICT},
                   summary="The organiser sets which tables play online: all, none, or the tables listed")
    def put(self, request, event_id):
        event = self._event(request, event_id)
        data = valid_data(OnlineTablesSerializer, request)
        evening.set_online_tables(actor=request.user, event=event, mode=data["mode"], tables=data.get("tables"),
                                  robot=data.get("robot"))
        return Response(evening_tables(event=event))
