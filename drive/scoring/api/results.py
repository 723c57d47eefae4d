"""REST API of the evening for everyone: standings, published results, the player's evening.

Read-only and thin: the selectors in selectors.results do the reading, the events app
decides who may see an event.
"""
import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from drive.core.api_docs import errors
from drive.events.models import Event
from drive.events.access import require_login
from drive.events.prizes import PrizeKind
from drive.events.api.serializers import PrizesField
from drive.scoring.services.freshness import fresh_standings
from drive.events.access import visible_event

from drive.scoring.access import players_event, results_event
from drive.scoring.selectors import results as selectors

# --- serializers ---------------------------------------------------------------------------


class EventHeadSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    club = serializers.CharField(source="club.name")
    starts_at = serializers.DateTimeField()
    phase = serializers.CharField()
    rounds = serializers.IntegerField()
    hands_per_round = serializers.IntegerField()
    scoring_rule = serializers.CharField()
    sit_out_score = serializers.CharField()
    tie_break_rule = serializers.CharField()
    missed_rounds = serializers.ChoiceField(
        choices=Event.MissedRounds.choices,
        help_text="Players who arrive late or leave early: listed but not eligible for prizes (not_eligible), "
                  "or everyone ranked on their average per hand played (average).")
    prizes = PrizesField(help_text="The prizes the organiser listed, in order: {name, kind}.")


class StandingLineSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="The place is shared with another entrant.")
    number = serializers.IntegerField(help_text="The entrant's number in the movement.")
    name = serializers.CharField()
    category = serializers.CharField()
    total = serializers.DecimalField(max_digits=7, decimal_places=2)
    hands_played = serializers.IntegerField()
    hands_won = serializers.IntegerField()
    sit_out_hands = serializers.IntegerField(help_text="Hands sat out, credited with an average (rule D5).")
    first_half = serializers.DecimalField(max_digits=7, decimal_places=2)
    second_half = serializers.DecimalField(max_digits=7, decimal_places=2)
    average = serializers.DecimalField(max_digits=7, decimal_places=2,
                                       help_text="Total per hand played or credited; the ranking under the "
                                                 "event's missed_rounds rule 'average'.")
    missed_rounds = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Rounds the room played without this player (arrived late or left early). A round sat out "
                  "is not missed: see sit_out_hands.")
    eligible = serializers.BooleanField(help_text="May win an overall prize under the event's missed_rounds rule.")
    prizes = serializers.ListField(child=serializers.CharField())


class AwardSerializer(serializers.Serializer):
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=PrizeKind.choices)
    category = serializers.CharField(help_text="lady or gent for a ladies' or gents' prize, else empty.")
    shared = serializers.BooleanField()
    winners = serializers.SerializerMethodField()

    def get_winners(self, award) -> list[int]:
        return [line.number for line in award.winners]


class StandingsSerializer(serializers.Serializer):
    event = EventHeadSerializer()
    computed_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField(help_text="The results version these standings were computed from.")
    updating = serializers.BooleanField(
        help_text="Behind the latest results: a recomputation is on its way (never for final standings, "
                  "which are recomputed before they are shown).")
    awaiting_confirmation = serializers.IntegerField(
        source="awaiting",
        help_text="While the evening is in progress the standings count confirmed hands only: this many hands "
                  "entered by one side wait for the other side's confirmation (0 once the evening has finished, "
                  "when an undisputed entry counts).")
    lines = StandingLineSerializer(many=True)
    prizes = AwardSerializer(many=True)


class HandSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    hand = serializers.IntegerField()
    table = serializers.IntegerField()
    seat = serializers.CharField()
    tricks = serializers.IntegerField(help_text="Tricks of the entrant's partnership.")
    score = serializers.IntegerField()
    trump = serializers.CharField()
    status = serializers.CharField()
    counted = serializers.BooleanField(help_text="False while the hand is disputed.")


class ResultLineSerializer(StandingLineSerializer):
    sat_out_rounds = serializers.ListField(child=serializers.IntegerField())
    sit_out_credit = serializers.DecimalField(max_digits=7, decimal_places=2)
    hands = HandSerializer(many=True)


class CorrectionSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    hand = serializers.IntegerField()
    kind = serializers.CharField()
    by = serializers.CharField()
    at = serializers.DateTimeField()
    old_ns_tricks = serializers.IntegerField(allow_null=True)
    old_status = serializers.CharField()
    old_disputed_ns_tricks = serializers.IntegerField(allow_null=True)
    new_ns_tricks = serializers.IntegerField()
    reason = serializers.CharField()


class ResultsCorrectionsSerializer(serializers.Serializer):
    event = EventHeadSerializer()
    published = serializers.BooleanField()
    corrections = CorrectionSerializer(many=True)


class ResultsSerializer(serializers.Serializer):
    event = EventHeadSerializer()
    published = serializers.BooleanField()
    computed_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField(help_text="The results version these standings were computed from.")
    lines = ResultLineSerializer(many=True)
    prizes = AwardSerializer(many=True)
    corrections = CorrectionSerializer(many=True)


class EntrantSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The entrant's id in the evening.")
    number = serializers.IntegerField(help_text="The entrant's number in the evening's movement.")
    name = serializers.CharField(source="player.display_name")


class SeatViewSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round.number")
    round_state = serializers.CharField(source="round.state")
    sat_out = serializers.BooleanField()
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.CharField(source="position")
    partner = EntrantSerializer(allow_null=True)
    opponents = EntrantSerializer(many=True)
    trumps = serializers.SerializerMethodField()

    def get_trumps(self, view) -> list[str]:
        """The trump of each hand when a rotation fixes it (rule D2): S, H, D, C or NT."""
        return [code for _hand, code in view.trumps]


class MyHandSerializer(serializers.Serializer):
    hand = serializers.IntegerField()
    tricks = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    status = serializers.SerializerMethodField()
    counted = serializers.BooleanField()

    def get_status(self, cell) -> str:
        return cell["result"].status if cell["result"] else ""


class MyRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round.number")
    sat_out = serializers.BooleanField()
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.CharField(source="position")
    points = serializers.IntegerField()
    credit = serializers.DecimalField(max_digits=7, decimal_places=2, allow_null=True)
    hands = MyHandSerializer(many=True)


class PrizeWonSerializer(serializers.Serializer):
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=PrizeKind.choices)
    shared = serializers.BooleanField()


class MyEveningSerializer(serializers.Serializer):
    event = serializers.IntegerField(source="event.pk")
    entrant = EntrantSerializer()
    now = SeatViewSerializer(allow_null=True, help_text="This round: in play, or the last one played.")
    next = SeatViewSerializer(allow_null=True, help_text="The next round, once it is seated.")
    rounds = MyRoundSerializer(many=True)
    hands_played = serializers.IntegerField()
    hands_won = serializers.IntegerField()
    credit = serializers.DecimalField(max_digits=7, decimal_places=2, help_text="Sit-out average credited (rule D5).")
    total = serializers.DecimalField(max_digits=7, decimal_places=2)
    place = serializers.IntegerField(source="standing.place", allow_null=True, default=None)
    shared = serializers.BooleanField(source="standing.shared", allow_null=True, default=None)
    entrants = serializers.IntegerField()
    final = serializers.BooleanField(help_text="The results are published: the place and total are final.")
    prizes_won = PrizeWonSerializer(many=True, help_text="The prizes the caller won, once the results are published.")


# --- documents (shared with the JSON export) -----------------------------------------------------


def standings_document(event):
    return StandingsSerializer({"event": event, **selectors.standings(event, fresh_standings(event=event))}).data


def results_document(event):
    data = selectors.results_of(event, fresh_standings(event=event))
    return ResultsSerializer({**data, "published": event.phase == event.Phase.RESULTS_PUBLISHED}).data


def corrections_document(event):
    return ResultsCorrectionsSerializer({"event": event, "published": event.phase == event.Phase.RESULTS_PUBLISHED,
                                         "corrections": selectors.corrections(event)}).data


# --- views ------------------------------------------------------------------------------


def results_json(request, event_id):
    """The same document as GET /api/events/<id>/results/, as a file to download."""
    event = results_event(request.user, event_id)
    response = HttpResponse(json.dumps(results_document(event), cls=DjangoJSONEncoder, ensure_ascii=False, indent=1),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{selectors.export_filename(event, "json")}"'
    return response


class StandingsView(APIView):
    @extend_schema(responses={200: StandingsSerializer, **errors(403, 404)}, operation_id="event_standings",
                   description="The live standings (stored by the standings task), with the prizes they give.")
    def get(self, request, event_id):
        return Response(standings_document(visible_event(request.user, event_id)))


class ResultsView(APIView):
    @extend_schema(responses={200: ResultsSerializer, **errors(403, 404)}, operation_id="event_results",
                   description="Every entrant's hands and totals, the prizes and the corrections. "
                               "Before publication only the club's organisers may read it (403).")
    def get(self, request, event_id):
        return Response(results_document(results_event(request.user, event_id)))


class ResultsCorrectionsView(APIView):
    @extend_schema(responses={200: ResultsCorrectionsSerializer, **errors(403, 404)},
                   operation_id="event_results_corrections",
                   description="The organiser's corrections to hand results, oldest first (who, when, the N-S "
                               "tricks before and after, why): the second export of the results, beside the "
                               "standings. Readable when the results are: before publication, by the club's "
                               "organisers only (403).")
    def get(self, request, event_id):
        return Response(corrections_document(results_event(request.user, event_id)))


class MyEveningView(APIView):
    @extend_schema(responses={200: MyEveningSerializer, **errors(403, 404)}, operation_id="my_evening",
                   description="The caller's evening: where they sit, with whom, their hands so far, total and place. "
                               "403 without a login, 404 when the caller does not play in the event.")
    def get(self, request, event_id):
        require_login(request.user)
        event, entrant = players_event(request.user, event_id)
        fresh = fresh_standings(event=event)  # the player's place: asked for again when behind
        return Response(MyEveningSerializer({"event": event, **selectors.my_evening(event, entrant, fresh)}).data)
