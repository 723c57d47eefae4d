"""REST API of the organiser's evening console: the evening's state, its moves and the
corrections of hands. Thin: each view reads a selector or calls one service; only the
club's organisers get in (`require_organiser` here, and every service checks again)."""
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from drive.core.api_docs import ERROR
from drive.core.api_input import valid_data, valid_query
from drive.core.errors import Invalid, NotFound
from drive.core.numbers import StrictIntegerField
from drive.events.models import Event

from drive.scoring.services import evening as evening_services
from drive.scoring.services import results as result_services
from drive.scoring.models import HandResult, Round, Table
from drive.scoring.selectors import console as selectors
from drive.events import access

NOT_FOUND = OpenApiResponse(OpenApiTypes.OBJECT, description="No such event, or not visible to the caller")
FORBIDDEN = OpenApiResponse(OpenApiTypes.OBJECT, description="Not logged in, or not an organiser of the event's club")
MAX_NUMBER = 10000  # rounds, tables and hands are small numbers; bigger ones are typos




# --- serializers -----------------------------------------------------------------------------


class RoundStateSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    state = serializers.ChoiceField(choices=Round.State.choices)
    state_display = serializers.CharField()
    started_at = serializers.DateTimeField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True, help_text="When the round's clock runs out.")
    paused = serializers.BooleanField()
    paused_at = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.IntegerField(allow_null=True, help_text="Frozen while paused; null unless playing.")
    closed_at = serializers.DateTimeField(allow_null=True)
    late_tables = serializers.ListField(child=serializers.IntegerField(), help_text="Tables out when it was closed.")


class HandStateSerializer(serializers.Serializer):
    hand_number = serializers.IntegerField()
    status = serializers.CharField(help_text="entered, confirmed, disputed, or missing (nothing entered yet).")
    ns_tricks = serializers.IntegerField(allow_null=True)
    ew_tricks = serializers.IntegerField(allow_null=True)
    disputed_ns_tricks = serializers.IntegerField(allow_null=True,
                                                  help_text="The other side's N-S tricks when disputed.")
    disputed_ew_tricks = serializers.IntegerField(allow_null=True)
    trump = serializers.CharField(allow_blank=True)
    version = serializers.IntegerField(allow_null=True, help_text="Send as `expected_version` with a correction.")
    change_kind = serializers.CharField(allow_blank=True)
    entered_by = serializers.CharField(allow_blank=True)
    confirmed_by = serializers.CharField(allow_blank=True)


class TableStateSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    status = serializers.CharField(help_text="in (every hand confirmed), out, or disputed (the sides disagree).")
    late = serializers.BooleanField()
    confirmed = serializers.IntegerField(help_text="Hands confirmed.")
    online_url = serializers.CharField(
        allow_null=True, help_text="The page of the table's online game when it plays this round online (e.g. "
                                   "\"/play/12/\", to watch it): its hands count as they are played, none is "
                                   "entered on paper (a correction of any hand stays open). Null: played on paper "
                                   "(always null in a round only seated: online tables are dealt when its clock "
                                   "starts).")
    hands = HandStateSerializer(many=True)


class EntrantRefSerializer(serializers.Serializer):
    entrant = serializers.IntegerField(help_text="The entrant's id (as the evening's players and leavers take it).")
    number = serializers.IntegerField(help_text="The entrant's number in the evening's movement.")
    name = serializers.CharField()


class SeatedEntrantSerializer(EntrantRefSerializer):
    seat = serializers.ChoiceField(choices=["N", "E", "S", "W"])


class SeatingTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    N = serializers.CharField(required=False, help_text="The name of the player in the seat.")
    E = serializers.CharField(required=False)
    S = serializers.CharField(required=False)
    W = serializers.CharField(required=False)
    seats = SeatedEntrantSerializer(many=True, help_text="Who sits in each seat, N, E, S, W: id, number and name.")


class SeatingSerializer(serializers.Serializer):
    tables = SeatingTableSerializer(many=True)
    sit_out = serializers.ListField(child=serializers.CharField(), help_text="Names of those sitting out.")
    sit_out_entrants = EntrantRefSerializer(many=True, help_text="Those sitting out, by number.")


class RoundTableHandSerializer(HandStateSerializer):
    fixed_trump = serializers.CharField(allow_null=True,
                                        help_text="The trump the evening's rotation fixes (S, H, D, C or NT); null "
                                                  "when it is turned up (a correction of a missing hand gives it).")


class RoundTableSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round.number")
    round_state = serializers.ChoiceField(source="round.state", choices=Round.State.choices)
    table = serializers.IntegerField(source="table.number")
    status = serializers.CharField(help_text="in (every hand confirmed), out, or disputed (the sides disagree).")
    late = serializers.BooleanField(help_text="Still out when the round was ended.")
    online_url = serializers.CharField(allow_null=True,
                                       help_text="The page of the table's online game when it plays this round "
                                                 "online (e.g. \"/play/12/\"); null: played on paper.")
    seats = SeatedEntrantSerializer(many=True, source="seated")
    hands = RoundTableHandSerializer(many=True, help_text="Every hand, missing ones too, each with the `version` "
                                                          "a correction sends as `expected_version`.")


class MovementStateSerializer(serializers.Serializer):
    status = serializers.CharField(help_text="pending (being worked out), ready or failed.")
    error = serializers.CharField(allow_blank=True)
    requested_at = serializers.DateTimeField()


class LateRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    tables = serializers.ListField(child=serializers.IntegerField())
    still_out = serializers.ListField(child=serializers.IntegerField())


class EveningSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=Event.Phase.choices)
    phase_display = serializers.CharField()
    rounds = serializers.IntegerField()
    hands_per_round = serializers.IntegerField()
    checked_in = serializers.IntegerField(allow_null=True, help_text="Before the start: players checked in.")
    not_arrived = serializers.IntegerField(allow_null=True, help_text="Before the start: registered, not arrived.")
    round = RoundStateSerializer(allow_null=True, help_text="The round in hand; null before the first is seated.")
    moves = serializers.ListField(child=serializers.ChoiceField(choices=[(m, m) for m in selectors.MOVES]),
                                  help_text="The moves that fit the state now.")
    movement = MovementStateSerializer(allow_null=True)
    shown_round = serializers.IntegerField(
        allow_null=True, help_text="The round the tables, their hands and the seating below are of: `?round=N`, "
                                   "else the round in hand (null before the first is seated).")
    shown_round_state = serializers.ChoiceField(choices=[("", ""), *Round.State.choices], allow_blank=True)
    played_rounds = serializers.ListField(child=serializers.IntegerField(),
                                          help_text="The rounds seated so far: the values `?round=` takes.")
    tables_in = serializers.ListField(child=serializers.IntegerField())
    tables_out = serializers.ListField(child=serializers.IntegerField())
    tables_disputed = serializers.ListField(child=serializers.IntegerField())
    tables_online = serializers.ListField(child=serializers.IntegerField(),
                                          help_text="The tables playing the round shown online (each table's "
                                                    "`online_url` is its page).")
    tables = TableStateSerializer(many=True)
    seating = SeatingSerializer()
    late_rounds = LateRoundSerializer(many=True)


class EveningQuerySerializer(serializers.Serializer):
    round = StrictIntegerField(required=False, min_value=1, max_value=MAX_NUMBER,
                               help_text="Show this round's tables, hands (with their versions, for "
                                         "`expected_version`) and seating; 404 if it has not been seated.")


ROUND_PARAMETER = OpenApiParameter("round", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False,
                                   description=EveningQuerySerializer().fields["round"].help_text or "")


class ConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField()
    tables_out = serializers.ListField(child=serializers.IntegerField(), required=False,
                                       help_text="Ending a round: the tables not in yet.")
    stored = serializers.DictField(required=False, help_text="A correction: the hand as stored now.")


CONFLICT = OpenApiResponse(ConflictSerializer,
                           description="The move does not fit the evening's state; `detail` says why",
                           examples=[OpenApiExample("tables out", value={
                               "detail": "Tables not in yet (still playing, or a hand disputed): 2, 5. Wait for the deadline or end the round anyway.",
                               "code": "conflict", "tables_out": [2, 5]})])


class RoundMoveSerializer(serializers.Serializer):
    round = serializers.IntegerField(required=False, min_value=1, max_value=MAX_NUMBER,
                                     help_text="The round the caller saw: refused (409) if the evening moved on.")


class EndRoundSerializer(RoundMoveSerializer):
    force = serializers.BooleanField(default=False, help_text="End even with tables still out (they are flagged).")


class CorrectionSerializer(serializers.Serializer):
    KINDS = [HandResult.ChangeKind.CORRECTION, HandResult.ChangeKind.ADJUSTED, HandResult.ChangeKind.REVOKE]

    round = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER)
    table = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER)
    hand_number = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER)
    ns_tricks = StrictIntegerField(required=False, min_value=0, max_value=13,
                                   help_text="Required unless `kind` is revoke.")
    reason = serializers.CharField(max_length=100)  # the history keeps 100 characters
    kind = serializers.ChoiceField(choices=[(k, k) for k in KINDS], default=HandResult.ChangeKind.CORRECTION)
    trump = serializers.ChoiceField(choices=["S", "H", "D", "C"], required=False, allow_blank=True,
                                    help_text="The suit turned up, for a hand not entered yet.")
    offending_side = serializers.ChoiceField(choices=["NS", "EW"], required=False,
                                             help_text="With kind revoke: the side that revoked (rule L8).")
    expected_version = serializers.IntegerField(required=False, min_value=0, max_value=2**31 - 1,
                                                help_text="The version seen (a hand's `version` in the evening's "
                                                          "state, `?round=N`, or its round's table): refused (409) "
                                                          "if the hand changed since.")

    def validate(self, data):
        if data.get("kind") == HandResult.ChangeKind.REVOKE:
            if "offending_side" not in data:
                raise serializers.ValidationError(
                    {"offending_side": [gettext_lazy("Say which side revoked: NS or EW.")]})
        elif "ns_tricks" not in data:
            raise serializers.ValidationError({"ns_tricks": [gettext_lazy("Give the tricks N-S took.")]})
        return data


class HandResultSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number")
    table = serializers.IntegerField(source="table.number")
    ew_tricks = serializers.IntegerField()

    class Meta:
        model = HandResult
        fields = ["round", "table", "hand_number", "ns_tricks", "ew_tricks", "trump", "status", "change_kind",
                  "version", "updated_at"]


class HistoryEntrySerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    user = serializers.CharField(allow_blank=True, help_text="The organiser who changed it; blank for the table.")
    seat = serializers.CharField(allow_blank=True, help_text="The table's seat that entered it, when from the table.")
    kind = serializers.CharField(help_text="entry, correction, revoke or adjusted.")
    status = serializers.CharField(help_text="entered, confirmed or disputed.")
    changed = serializers.BooleanField(help_text="A value changed or the organiser acted.")
    old_ns_tricks = serializers.IntegerField(allow_null=True)
    new_ns_tricks = serializers.IntegerField()
    disputed_ns_tricks = serializers.IntegerField(allow_null=True)
    old_trump = serializers.CharField(allow_blank=True)
    new_trump = serializers.CharField(allow_blank=True)
    reason = serializers.CharField(allow_blank=True)
    version = serializers.IntegerField()


class ChangedHandSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    hand_number = serializers.IntegerField()
    ns_tricks = serializers.IntegerField()
    status = serializers.CharField(help_text="entered, confirmed or disputed.")
    version = serializers.IntegerField()
    last_change = serializers.DateTimeField()
    history = HistoryEntrySerializer(many=True)


# --- views ---------------------------------------------------------------------------------------


def seated_round_number(event, number):
    """`number` when that round of the event has been seated (None stays None), else 404."""
    if number is not None and selectors.played_round(event, number) is None:
        raise NotFound(_("That round has not been played."))
    return number


class EveningView(APIView):
    @extend_schema(responses={200: EveningSerializer, 400: ERROR, 403: FORBIDDEN, 404: NOT_FOUND},
                   operation_id="evening_state", parameters=[ROUND_PARAMETER],
                   description="The evening as the organiser's console shows it: phase, the round in hand with its "
                               "clock, and the tables in/out/disputed with their hands and the seating of the round "
                               "in hand, or of any round seated so far with `?round=N`.")
    def get(self, request, event_id):
        event = access.organised_event(request.user, event_id)
        number = seated_round_number(event, valid_query(EveningQuerySerializer, request).get("round"))
        return Response(EveningSerializer(selectors.evening_state(event, round_number=number)).data)


MOVE_DOCS = {
    "start": "Start the evening: fix the players checked in, close registration, work out the movement.",
    "start-round": "Start the clock of the seated round.",
    "pause": "Pause the round clock.",
    "resume": "Resume the round clock (the pause does not count).",
    "end-round": "End the round: early only when every table is in, unless `force`; refused (409) with "
                 "`tables_out` otherwise. The next round is seated, or after the last the evening is finished.",
    "publish-results": "Publish the results of a finished evening.",
    "retry-movement": "Work the movement out again after it failed (the evening's state says `movement.status` "
                      "failed); refused (409) when it has not failed.",
}


def evening_move(action):
    """One view per move, so each has its own documented operation."""
    body = None
    if action in selectors.ROUND_MOVES:
        body = EndRoundSerializer if action == "end-round" else RoundMoveSerializer

    class EveningMoveView(APIView):
        @extend_schema(request=body, operation_id=f"evening_{action.replace('-', '_')}", description=MOVE_DOCS[action],
                       responses={200: EveningSerializer, 400: ERROR, 403: FORBIDDEN, 404: NOT_FOUND, 409: CONFLICT})
        def post(self, request, event_id):
            event = access.organised_event(request.user, event_id)
            data = valid_data(body, request) if body else {}
            evening_services.evening_move(actor=request.user, event=event, action=action,
                                          force=data.get("force", False), shown_round=data.get("round"))
            event.refresh_from_db()
            return Response(EveningSerializer(selectors.evening_state(event)).data)

    EveningMoveView.__name__ = "Evening" + action.title().replace("-", "") + "View"
    return EveningMoveView.as_view()


class RoundTableView(APIView):
    @extend_schema(responses={200: RoundTableSerializer, 403: FORBIDDEN, 404: NOT_FOUND},
                   operation_id="round_table_retrieve",
                   description="One table in any round seated so far, as the console's table page shows it: who "
                               "sits where and every hand with its result, trump and version (for "
                               "`expected_version` in a correction). 404 for a round not seated or no such table.")
    def get(self, request, event_id, round_number, table_number):
        event = access.organised_event(request.user, event_id)
        data = selectors.table_hands(event, round_number, table_number)
        if data is None:
            raise NotFound(_("No such table in a played round."))
        return Response(RoundTableSerializer(data).data)


class CorrectionsView(APIView):
    @extend_schema(responses={200: ChangedHandSerializer(many=True), 403: FORBIDDEN, 404: NOT_FOUND},
                   operation_id="corrections_list",
                   description="Every hand changed after its first entry, latest change first, with its history: "
                               "who, when, the N-S tricks before and after, and why.")
    def get(self, request, event_id):
        event = access.organised_event(request.user, event_id)
        return Response(ChangedHandSerializer(selectors.correction_history(event), many=True).data)

    @extend_schema(request=CorrectionSerializer, operation_id="corrections_create",
                   description="Correct any hand of a played round with a reason (kept in its history). Kinds: "
                               "correction, adjusted (an adjusted score) and revoke (rule L8: three tricks from "
                               "`offending_side` to the other side).",
                   responses={200: HandResultSerializer, 400: ERROR, 403: FORBIDDEN, 404: NOT_FOUND, 409: CONFLICT})
    def post(self, request, event_id):
        event = access.organised_event(request.user, event_id)
        data = valid_data(CorrectionSerializer, request)
        table = Table.objects.filter(event=event, number=data["table"]).first()
        if table is None:
            raise Invalid(_("No such table."), field="table")
        common = dict(actor=request.user, table=table, round_number=data["round"], hand_number=data["hand_number"],
                      reason=data["reason"])
        if data["kind"] == HandResult.ChangeKind.REVOKE:
            result = result_services.apply_revoke_penalty(offending_side=data["offending_side"], expected_version=data.get("expected_version"),
                                  **common)
        else:
            result = result_services.correct_result(
                ns_tricks=data["ns_tricks"], trump=data.get("trump") or None, kind=data["kind"],
                expected_version=data.get("expected_version"), **common)
        return Response(HandResultSerializer(result).data)
