"""REST API of one player across evenings: a duplicate walk-in merged into the club's player."""
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from drive.core.api_docs import errors
from drive.core.api_input import valid_data
from drive.core.errors import Invalid
from drive.events.access import require_organiser
from drive.events.selectors.events import player_by_id
from drive.seasons.api.serializers import MergedPlayerSerializer, MergePlayersSerializer
from drive.seasons.selectors import seasons as selectors
from drive.seasons.services.players import merge_players


class MergePlayersView(APIView):
    @extend_schema(request=MergePlayersSerializer, responses={200: MergedPlayerSerializer, **errors(400, 403, 404, 409)},
                   operation_id="club_players_merge",
                   description="Merge a walk-in added twice into the club's player: its registrations and evenings "
                               "become that player's (the seasons count them together) and it is removed. 409 when "
                               "both played in the same evening. The club's organisers only.")
    def post(self, request, club_id):
        club = selectors.club_by_id(club_id)
        require_organiser(request.user, club)  # a refusal before a body check
        data = valid_data(MergePlayersSerializer, request)
        duplicate, into = player_by_id(data["duplicate"]), player_by_id(data["into"])
        if duplicate is None or into is None:
            raise Invalid(_("Choose one of the club's players."), field="duplicate" if duplicate is None else "into")
        player = merge_players(actor=request.user, club=club, duplicate=duplicate, into=into)
        return Response({"id": player.pk, "name": player.display_name})
