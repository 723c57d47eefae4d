"""REST API of the organiser's seat claims and table links: who holds which seat of a
table, freeing a seat, the tables' links (as the table cards print them) and a new link
for a table. Organisers only (checked again by every service)."""
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from drive.core.api_docs import ERROR
from drive.core.api_input import valid_query
from drive.core.numbers import StrictIntegerField

from drive.scoring.api.console import FORBIDDEN, MAX_NUMBER, NOT_FOUND, seated_round_number
from drive.scoring.models import Table
from drive.scoring.selectors import claims as selectors
from drive.scoring.selectors import table as table_selectors
from drive.scoring.services import claims
from drive.events.access import organised_event

NO_CLAIM = OpenApiResponse(OpenApiTypes.OBJECT, description="No such event or table, or nobody claimed that seat")


class SeatClaimSerializer(serializers.Serializer):
    seat = serializers.CharField(help_text="N, E, S or W.")
    player = serializers.CharField(help_text="Who sits there this round.")
    claimed = serializers.BooleanField()
    by = serializers.ChoiceField(choices=[("", "nobody"), ("user", "a signed-in player"), ("phone", "a phone")])
    user = serializers.CharField(help_text="The signed-in player's name, when `by` is user.")
    claimed_at = serializers.DateTimeField(allow_null=True)


class TableClaimsSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True, help_text="The round the table's phones claim seats for.")
    seats = SeatClaimSerializer(many=True)


class TableLinkSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    url = serializers.URLField(help_text="The table's new entry page; the old link answers 404 from now on.")


class TableLinkEntrySerializer(serializers.Serializer):
    table = serializers.IntegerField()
    token = serializers.CharField(help_text="The table's secret: whoever has it enters results for the table.")
    url = serializers.URLField(help_text="The table's entry page, for the players' phones.")
    qr_target = serializers.URLField(help_text="What the table card's QR code opens: the entry page.")
    api = serializers.URLField(help_text="The phones' API of the table (`GET /api/tables/{token}/` and below).")


class TableLinksQuerySerializer(serializers.Serializer):
    round = StrictIntegerField(required=False, min_value=1, max_value=MAX_NUMBER,
                               help_text="Only the tables seated in this round; 404 if it has not been seated.")


def _table(request, event_id, number):
    event = organised_event(request.user, event_id)
    return get_object_or_404(Table.objects.select_related("event__club"), event=event, number=number)


class TableClaimsView(APIView):
    @extend_schema(responses={200: TableClaimsSerializer, 403: FORBIDDEN, 404: NOT_FOUND},
                   operation_id="console_table_claims_list",
                   description="The seats of a table in the round its phones claim for, and who claimed each.")
    def get(self, request, event_id, number):
        return Response(TableClaimsSerializer(selectors.table_claims(_table(request, event_id, number))).data)


class TableClaimView(APIView):
    @extend_schema(responses={204: None, 403: FORBIDDEN, 404: NO_CLAIM}, operation_id="console_table_claim_release",
                   description="Free a seat: its claim stops counting at once and the seat may be claimed again.")
    def delete(self, request, event_id, number, seat):
        claims.release_claim(actor=request.user, table=_table(request, event_id, number), position=seat)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TableLinksView(APIView):
    @extend_schema(responses={200: TableLinkEntrySerializer(many=True), 400: ERROR, 403: FORBIDDEN, 404: NOT_FOUND},
                   operation_id="console_table_links_list",
                   parameters=[OpenApiParameter("round", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False,
                                                description=TableLinksQuerySerializer().fields["round"].help_text or "")],
                   description="The tables' links, as the table cards print them: each table's number, token, entry "
                               "page (the QR code's target) and API; with `?round=N` the tables seated in that round. "
                               "Organisers of the event only: the links are the tables' keys.")
    def get(self, request, event_id):
        event = organised_event(request.user, event_id)
        number = seated_round_number(event, valid_query(TableLinksQuerySerializer, request).get("round"))
        round_ = event.evening_rounds.get(number=number) if number is not None else None
        links = []
        for link in table_selectors.table_links(event, round_):
            url = request.build_absolute_uri(reverse("table-entry", args=[link["token"]]))
            links.append({**link, "url": url, "qr_target": url,
                          "api": request.build_absolute_uri(reverse("api-table", args=[link["token"]]))})
        return Response(TableLinkEntrySerializer(links, many=True).data)


class TableLinkView(APIView):
    @extend_schema(request=None, responses={200: TableLinkSerializer, 403: FORBIDDEN, 404: NOT_FOUND},
                   operation_id="console_table_link_reissue",
                   description="A new link (and QR code) for a table: the old one stops at once and the table's "
                               "seat claims are released, so its phones claim their seats again.")
    def post(self, request, event_id, number):
        table = claims.reissue_table_link(actor=request.user, table=_table(request, event_id, number))
        url = request.build_absolute_uri(reverse("table-entry", args=[table.token]))
        return Response(TableLinkSerializer({"table": table.number, "url": url}).data)
