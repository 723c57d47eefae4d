"""REST API of a person's display preference (issue 20): GET and PUT
/api/play/display/, the signed-in caller's own only. Thin: the service decides."""
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from drive.core.api_input import valid_data
from drive.games import access
from drive.play.api.tables import FORBIDDEN, INVALID
from drive.play.selectors.display import display_of
from drive.play.services.display import set_display


class DisplaySerializer(serializers.Serializer):
    four_colour = serializers.BooleanField(help_text="A four-colour deck: spades black, hearts red, diamonds blue, "
                                                     "clubs green.")
    high_contrast = serializers.BooleanField(help_text="High contrast: black on white, thicker borders, larger "
                                                       "ranks and pips, unplayable cards striped.")


class DisplayChangeSerializer(serializers.Serializer):
    four_colour = serializers.BooleanField(required=False, help_text="Left out: unchanged.")
    high_contrast = serializers.BooleanField(required=False, help_text="Left out: unchanged.")


class DisplayView(APIView):
    @extend_schema(responses={200: DisplaySerializer, 403: FORBIDDEN},
                   summary="Your display preference for the cards (the table and the hand history)")
    def get(self, request):
        user = access.signed_in(request.user)
        return Response(display_of(user=user))

    @extend_schema(request=DisplayChangeSerializer, responses={200: DisplaySerializer, 400: INVALID, 403: FORBIDDEN},
                   summary="Set your display preference: a four-colour deck, high contrast")
    def put(self, request):
        access.signed_in(request.user)
        data = valid_data(DisplayChangeSerializer, request)
        return Response(set_display(actor=request.user, four_colour=data.get("four_colour"),
                                    high_contrast=data.get("high_contrast")))
