"""GET /api/players/<id>/history/: one player across evenings, and their whist grade.
Thin: the permission (drive.seasons.access), the freshness (a service), then the selectors."""
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from drive.core.api_docs import errors
from drive.seasons import access
from drive.seasons.selectors import history as selectors
from drive.seasons.services.history import fresh_history


class HistoryEveningSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    title = serializers.CharField()
    date = serializers.DateField(help_text="The local date of its start (the site's time zone).")
    place = serializers.IntegerField(help_text="The player's place in the published results.")
    of = serializers.IntegerField(help_text="The number of players placed that evening.")
    total = serializers.DecimalField(max_digits=7, decimal_places=2)
    hands_played = serializers.IntegerField()


class GradeSerializer(serializers.Serializer):
    value = serializers.FloatField(
        allow_null=True,
        help_text="The share of tricks (per cent, one decimal) the player's side would expect with an average "
                  "partner against average opponents: 50 is average, higher is better. null before a rated hand.")
    provisional = serializers.BooleanField(help_text="Fewer than 60 hands rated so far.")
    hands = serializers.IntegerField(help_text="The hands the grade rests on (robots' hands left out).")


class PlayerHistorySerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    evenings = HistoryEveningSerializer(many=True, help_text="Every published evening of the player, newest first.")
    grade = GradeSerializer()


class PlayerHistoryView(APIView):
    @extend_schema(responses={200: PlayerHistorySerializer, **errors(403, 404)}, operation_id="player_history",
                   description="A player's published evenings (newest first) and whist grade. The player and the "
                               "organisers of their clubs only.")
    def get(self, request, player_id):
        player = access.history_player(request.user, player_id)
        fresh_history(player=player, seasons=False)
        return Response(PlayerHistorySerializer(selectors.history(player)).data)
