"""REST API of the seasons. Thin: each view reads through the selectors and calls one service."""
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from drive.core.api_docs import errors
from drive.core.api_input import valid_data
from drive.events.access import require_organiser
from drive.seasons.api.serializers import SeasonSerializer, SeasonTableSerializer, SeasonWriteSerializer
from drive.seasons.selectors import seasons as selectors
from drive.seasons.services import seasons as services
from drive.seasons.services.table import fresh_table


class ClubSeasonsView(APIView):
    @extend_schema(request=SeasonWriteSerializer, responses={201: SeasonSerializer, **errors(400, 403, 404)},
                   operation_id="club_seasons_create",
                   description="A new season of the club (its organisers only). Its table follows by itself.")
    def post(self, request, club_id):
        club = selectors.club_by_id(club_id)
        require_organiser(request.user, club)  # a refusal before a body check
        data = valid_data(SeasonWriteSerializer, request)
        season = services.create_season(actor=request.user, club=club, **data)
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


class SeasonDetailView(APIView):
    @extend_schema(responses={200: SeasonSerializer, **errors(403, 404)}, description="A season's settings.")
    def get(self, request, season_id):
        return Response(SeasonSerializer(selectors.season_by_id(season_id)).data)

    @extend_schema(request=SeasonWriteSerializer, responses={200: SeasonSerializer, **errors(400, 403, 404)},
                   description="Change any of the season's settings (its club's organisers only).")
    def patch(self, request, season_id):
        season = selectors.season_by_id(season_id)
        require_organiser(request.user, season.club)
        data = valid_data(SeasonWriteSerializer, request, partial=True)
        season = services.update_season(actor=request.user, season=season, **data)
        return Response(SeasonSerializer(season).data)

    @extend_schema(request=None, responses={204: None, **errors(403, 404)},
                   description="Remove the season and its table; its evenings stay as they are.")
    def delete(self, request, season_id):
        season = selectors.season_by_id(season_id)
        services.delete_season(actor=request.user, season=season)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeasonTableView(APIView):
    @extend_schema(responses={200: SeasonTableSerializer, **errors(403, 404)},
                   description="The season's table, for everyone: qualified rows first by score (places 1, 2, 2, "
                               "4...), then the others without a place.")
    def get(self, request, season_id):
        season = selectors.season_by_id(season_id)
        fresh_table(season=season)
        return Response(selectors.season_table(season))
