"""REST API for a table's phones: the round at the table, its seats, hands and results,
and the entry of a hand.

No login, as on the entry page: the token of the table card's QR code opens the table,
and a phone enters hands only from the seat it claimed (`POST .../claims/` answers a
secret once; the phone sends it back in the `X-Seat-Claim` header). Thin: reads come
from `selectors.table`, claims from `claims`, the entry is `results.submit_result`.
"""
from django.utils.translation import gettext_lazy as _
from drf_spectacular.authentication import TokenScheme
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import TokenAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from drive.core.numbers import StrictIntegerField

from drive.scoring.services import claims

from drive.scoring.services import results
from drive.scoring.models import HandResult, Seat
from drive.scoring.selectors import table as selectors

HAND_STATUSES = [("missing", _("not entered")), *HandResult.Status.choices]
TRICKS_MESSAGE = _("Tricks for N-S must be a whole number from 0 to 13.")
# The suit a player reports (labels of their own: the schema's enum is then this field's alone).
TRUMP_ENTRY = [("S", "♠ spades"), ("H", "♥ hearts"), ("D", "♦ diamonds"), ("C", "♣ clubs"),
               ("NT", "no trump (only where the rotation fixes it)")]


# --- what comes in ------------------------------------------------------------------------


class TableClaimRequestSerializer(serializers.Serializer):
    seat = serializers.ChoiceField(choices=Seat.Position.choices, help_text="The seat this phone's player sits in: N, E, S or W.",
                                   error_messages={"invalid_choice": _("Seat must be N, E, S or W.")})


class TableEntryRequestSerializer(serializers.Serializer):
    seat = serializers.ChoiceField(
        choices=Seat.Position.choices, required=False,
        help_text="Optional: the seat the phone believes it holds. The entry is always the claim's seat; "
                  "a different seat here is refused (403).",
        error_messages={"invalid_choice": _("Seat must be N, E, S or W.")})
    hand_number = serializers.IntegerField(help_text="A hand of the round at the table, from 1.")
    ns_tricks = StrictIntegerField(  # ASCII digits: int() would take "٧" and " 7"
        min_value=0, max_value=13, help_text="Tricks North-South took; East-West took 13 minus that.",
        error_messages={key: TRICKS_MESSAGE for key in ("invalid", "min_value", "max_value", "max_string_length")},
    )
    trump = serializers.ChoiceField(
        choices=TRUMP_ENTRY, required=False, allow_null=True, allow_blank=True,
        help_text="The suit turned up for trumps. Leave it out when the evening's rotation fixes the trump.",
    )
    version = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=10**6,
        help_text="To change your side's unconfirmed entry, or its count of a disputed hand: the hand's version "
                  "you saw (from GET).",
    )


# --- what goes out ------------------------------------------------------------------------


class TableEntryHandSerializer(serializers.Serializer):
    hand_number = serializers.IntegerField()
    trump = serializers.CharField(help_text="S, H, D, C or NT; empty while a turned-up trump is not entered.")
    trump_fixed = serializers.BooleanField(help_text="The evening's rotation fixes this hand's trump.")
    status = serializers.ChoiceField(choices=HAND_STATUSES)
    ns_tricks = serializers.IntegerField(allow_null=True)
    ew_tricks = serializers.IntegerField(allow_null=True)
    entered_by = serializers.CharField(help_text="Seat that entered it.")
    confirmed_by = serializers.CharField(help_text="Seat of the opponents who confirmed or disputed it.")
    disputed_ns_tricks = serializers.IntegerField(allow_null=True, help_text="The opponents' count, when disputed.")
    disputed_ew_tricks = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField(help_text="0 before the first entry; raised by every change.")


class TableEntrySeatSerializer(serializers.Serializer):
    position = serializers.CharField(help_text="N, E, S or W.")
    side = serializers.CharField(help_text="NS or EW.")
    number = serializers.IntegerField(help_text="The player's number in the evening's movement.")
    name = serializers.CharField()
    partner = serializers.CharField()


class TableEntryRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    state = serializers.CharField()


class TableEntryEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    phase = serializers.CharField()
    rounds = serializers.IntegerField()
    hands_per_round = serializers.IntegerField()
    trump_rule = serializers.CharField()
    confirmation = serializers.CharField(help_text="opponents: the other side confirms; single: one entry counts.")


class TableEntryMoveSerializer(serializers.Serializer):
    name = serializers.CharField()
    number = serializers.IntegerField(help_text="The player's number in the evening's movement.")
    from_position = serializers.CharField()
    table = serializers.IntegerField(allow_null=True, help_text="Next round's table; null when sitting out or gone.")
    position = serializers.CharField()
    sits_out = serializers.BooleanField()
    left = serializers.BooleanField(help_text="Left the evening.")


class TableEntryArrivalSerializer(serializers.Serializer):
    position = serializers.CharField()
    name = serializers.CharField()
    number = serializers.IntegerField(help_text="The player's number in the evening's movement.")


class TableEntryNextRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    started = serializers.BooleanField()
    moves = TableEntryMoveSerializer(many=True, help_text="Where each of this table's players goes.")
    here = TableEntryArrivalSerializer(many=True, help_text="Who sits at this table next round.")


class TableClaimSerializer(serializers.Serializer):
    seat = serializers.CharField(help_text="N, E, S or W.")
    claim = serializers.CharField(help_text="The seat-claim secret: send it as the X-Seat-Claim header with every "
                                            "entry of this round. Shown only in this answer; keep it.")
    round = serializers.IntegerField(help_text="The round the claim is for; the next round needs a new claim.")
    signed_in = serializers.BooleanField(help_text="Bound to the signed-in player seated there.")


class TableEntryStateSerializer(serializers.Serializer):
    event = TableEntryEventSerializer()
    table = serializers.IntegerField()
    round = TableEntryRoundSerializer(allow_null=True)
    stage = serializers.ChoiceField(choices=list(selectors.STAGE_MESSAGES))
    stage_message = serializers.CharField()
    open = serializers.BooleanField(help_text="Results may be entered now.")
    online_url = serializers.CharField(allow_null=True, help_text="The table plays this round online (its page): "
                                                                  "its hands count as played, none is entered here.")
    locked = serializers.BooleanField(help_text="Every hand is confirmed: only the organiser may change them.")
    disputed = serializers.BooleanField()
    seats = TableEntrySeatSerializer(many=True)
    hands = TableEntryHandSerializer(many=True)
    next_round = TableEntryNextRoundSerializer(allow_null=True, help_text="Between rounds, once the next is seated.")
    claimed = serializers.ListField(child=serializers.CharField(),
                                    help_text="Seats of the round shown that a phone has claimed.")
    you = serializers.CharField(allow_null=True, help_text="The seat this phone holds (from X-Seat-Claim), or null.")


class TableEntryOutcomeSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=list(selectors.OUTCOME_MESSAGES))
    message = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    hand = TableEntryHandSerializer()


class TableEntryStoredHandSerializer(serializers.Serializer):
    hand_number = serializers.IntegerField()
    ns_tricks = serializers.IntegerField()
    ew_tricks = serializers.IntegerField()
    trump = serializers.CharField()
    status = serializers.CharField()
    version = serializers.IntegerField()


class TableEntryConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField()
    url = serializers.CharField(required=False, help_text="The table plays this round online: its page.")
    stored = TableEntryStoredHandSerializer(required=False, help_text="The hand as it is stored, when there is one.")


NO_TABLE = OpenApiResponse(OpenApiTypes.OBJECT, description="No table has this token, or its evening is not running")
CLAIM_HEADER = OpenApiParameter(
    "X-Seat-Claim", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="The secret `POST /api/tables/{token}/claims/` gave this phone: the seat it enters from.")
NO_CLAIM = OpenApiResponse(OpenApiTypes.OBJECT, description="No valid seat claim (none sent, forged, another "
                                                            "table's or round's, released), or `seat` is not the "
                                                            "claim's seat.")


def _claim_header(request):
    return request.headers.get("X-Seat-Claim")


class OptionalTokenAuthentication(TokenAuthentication):
    """A valid API token binds the claim to its player; a stale or mistyped one is no login
    (the phone claims anonymously) rather than a 401 in the way of a seat."""

    def authenticate(self, request):
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            return None


class OptionalTokenScheme(TokenScheme):
    """The same token in the schema, under a name of its own (a second class may not share one)."""

    # by its dotted path, as TokenScheme names its own (drf-spectacular imports either)
    target_class = f"{OptionalTokenAuthentication.__module__}.{OptionalTokenAuthentication.__qualname__}"
    name = "tokenAuthOptional"
    priority = 1


class TableView(APIView):
    authentication_classes = []  # the token in the URL is the key: no login, no CSRF
    permission_classes = [AllowAny]

    @extend_schema(responses={200: TableEntryStateSerializer, 404: NO_TABLE}, operation_id="table_retrieve",
                   description="The table's current round: seats and partners, each hand with its trump and result, "
                               "and between rounds where everyone goes next.")
    @extend_schema(parameters=[CLAIM_HEADER])
    def get(self, request, token):
        table = selectors.table_for_token(token)
        you = selectors.phone_claim(table, secret=_claim_header(request))
        state = selectors.table_state(table, viewer=you.position if you else None)
        return Response(TableEntryStateSerializer({**state, "you": you.position if you else None}).data)


class TableClaimsView(APIView):
    """Who are you? A phone claims its seat for the round: one phone a seat, one seat a phone."""

    # Signed in with an API token, the claim is bound to the player seated there (the
    # pages do it with the session); a browser session is not used here, so no CSRF.
    authentication_classes = [OptionalTokenAuthentication]
    permission_classes = [AllowAny]

    @extend_schema(
        request=TableClaimRequestSerializer, parameters=[CLAIM_HEADER],
        responses={
            201: OpenApiResponse(TableClaimSerializer, description="Claimed: the secret is in `claim`."),
            200: OpenApiResponse(TableClaimSerializer, description="This phone (or player) already held it."),
            400: OpenApiResponse(OpenApiTypes.OBJECT, description="Field messages, e.g. {\"seat\": [...]}"),
            404: NO_TABLE,
            409: OpenApiResponse(TableEntryConflictSerializer, description="Another phone holds that seat, this "
                                                                          "phone holds another, or no round is on."),
        },
        operation_id="table_claim_create",
        description="Claim a seat of the table for the round it is on. Anonymous phones get a secret to send as "
                    "`X-Seat-Claim` with their entries; a player signed in and seated there gets one bound to them.",
    )
    def post(self, request, token):
        table = selectors.table_for_token(token)
        serializer = TableClaimRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        claim, secret, created = claims.claim_seat(table=table, position=serializer.validated_data["seat"],
                                                   user=request.user, secret=_claim_header(request))
        body = {"seat": claim.position, "claim": secret, "round": claim.round.number, "signed_in": bool(claim.user_id)}
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(TableClaimSerializer(body).data, status=code)

    @extend_schema(
        request=None, parameters=[CLAIM_HEADER],
        responses={204: None, 403: NO_CLAIM, 404: NO_TABLE,
                   409: OpenApiResponse(TableEntryConflictSerializer, description="The seat has entered hands: "
                                                                                 "the organiser frees it.")},
        operation_id="table_claim_destroy",
        description="Not you? Give up this phone's seat, while it has entered and confirmed nothing this round.",
    )
    def delete(self, request, token):
        table = selectors.table_for_token(token)
        claims.give_up_claim(table=table, secret=_claim_header(request), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TableResultsView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(
        request=TableEntryRequestSerializer, parameters=[CLAIM_HEADER],
        responses={
            201: OpenApiResponse(TableEntryOutcomeSerializer, description="The hand's first entry."),
            200: OpenApiResponse(TableEntryOutcomeSerializer, description="Confirmed, disputed, changed, counted again "
                                                                          "(recounted), settled or unchanged."),
            400: OpenApiResponse(OpenApiTypes.OBJECT, description="Field messages, e.g. {\"ns_tricks\": [...]}"),
            403: NO_CLAIM,
            404: NO_TABLE,
            409: OpenApiResponse(TableEntryConflictSerializer,
                                 description="Not possible now (no round open, the table played online, round locked, hand confirmed, or "
                                             "a side's changed count without the version seen), with the stored "
                                             "hand."),
        },
        operation_id="table_result_enter",
        description="One hand's tricks from the seat this phone claimed (`X-Seat-Claim`). The opponents' matching "
                    "entry confirms it; a partner's does not. The same entry twice changes nothing. A disputed hand "
                    "may be entered again: once both sides' counts agree it is confirmed (`settled`), with no "
                    "organiser needed.",
    )
    def post(self, request, token):
        table = selectors.table_for_token(token)
        serializer = TableEntryRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        result, outcome = results.submit_result(table=table, claim=_claim_header(request), seat=data.get("seat"),
                                                hand_number=data["hand_number"],
                                                ns_tricks=data["ns_tricks"], trump=data.get("trump") or None,
                                                expected_version=data.get("version"))
        created = outcome == "created" or (outcome == "confirmed" and result.version == 1)
        body = {"outcome": outcome, "message": selectors.OUTCOME_MESSAGES[outcome], "round": result.round.number,
                "table": table.number, "hand": selectors.hand_state(table, result)}
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(TableEntryOutcomeSerializer(body).data, status=code)
