"""REST API for the evening's players: late arrivals and leavers."""
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from drive.core.api_docs import ERROR
from drive.core.api_input import valid_data
from drive.events.access import visible_event
from drive.events.models import Registration
from drive.events.access import require_organiser
from drive.movements.models import Entrant

from drive.scoring.services import evening as evening_services
from drive.scoring.selectors.console import evening_players


class EveningEntrantSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.display_name")

    class Meta:
        model = Entrant
        fields = ["id", "number", "name", "joined_round", "left_after_round", "pinned_table"]


class EveningPlayersSerializer(serializers.Serializer):
    entrants = EveningEntrantSerializer(many=True)
    late_arrivals = serializers.ListField(child=serializers.DictField(), help_text="Checked in, not yet playing.")


class LateArrivalSerializer(serializers.Serializer):
    registration = serializers.IntegerField(help_text="A checked-in registration of this event.")


class LeaverSerializer(serializers.Serializer):
    entrant = serializers.IntegerField()


class EveningPlayersView(APIView):
    @extend_schema(responses={200: EveningPlayersSerializer, 403: ERROR, 404: ERROR})
    def get(self, request, event_id):
        event = visible_event(request.user, event_id)
        require_organiser(request.user, event.club)
        data = evening_players(event)
        late = [{"registration": r.pk, "name": r.player.display_name} for r in data["late_arrivals"]]
        return Response({"entrants": EveningEntrantSerializer(data["entrants"], many=True).data, "late_arrivals": late})


def organiser_request(request, event_id, serializer_class):
    """The event (organisers only, checked before anything is looked up) and the valid body."""
    event = visible_event(request.user, event_id)
    require_organiser(request.user, event.club)
    return event, valid_data(serializer_class, request)


class LateArrivalView(APIView):
    @extend_schema(request=LateArrivalSerializer, responses={201: EveningEntrantSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR})
    def post(self, request, event_id):
        event, data = organiser_request(request, event_id, LateArrivalSerializer)
        registration = get_object_or_404(Registration, pk=data["registration"], event=event)
        entrant = evening_services.add_late_arrival(actor=request.user, event=event, registration=registration)
        return Response(EveningEntrantSerializer(entrant).data, status=201)


class LeaverView(APIView):
    @extend_schema(request=LeaverSerializer, responses={200: EveningEntrantSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR})
    def post(self, request, event_id):
        event, data = organiser_request(request, event_id, LeaverSerializer)
        entrant = get_object_or_404(Entrant, pk=data["entrant"], event=event)
        entrant = evening_services.remove_leaver(actor=request.user, event=event, entrant=entrant)
        return Response(EveningEntrantSerializer(entrant).data)
