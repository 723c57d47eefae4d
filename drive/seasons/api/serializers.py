from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from drive.core.names import validate_name
from drive.seasons.models import Season
from drive.seasons.services.seasons import MOST_EVENINGS, MOST_PLACES

SCORE_HELP = ("How an evening scores: the points of the player's place (placing_points; players tied for a place "
              "share the points of the places they fill, averaged), the published total (total), or the total "
              "per hand played (average).")


class PointsField(serializers.ListField):
    """A list of whole numbers; a wrong item is a message of the field, not of the item."""

    child = serializers.IntegerField()

    def to_internal_value(self, data):
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError as exc:
            if isinstance(exc.detail, dict):
                raise serializers.ValidationError([_("Give the points as a list of whole numbers.")]) from exc
            raise


class SeasonWriteSerializer(serializers.Serializer):
    """The settings of a season. Their rules (the end not before the start, the points
    non-negative and non-increasing...) are the service's, answered as field messages."""

    name = serializers.CharField(max_length=120, validators=[validate_name])
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(help_text="The last day of the season, included.")
    score = serializers.ChoiceField(choices=Season.Score.choices, help_text=SCORE_HELP)
    placing_points = PointsField(
        required=False, max_length=MOST_PLACES,
        help_text="Points for 1st, 2nd, 3rd... place (0 beyond the list): non-empty, non-negative and "
                  "non-increasing. Required for placing_points only.")
    best_of = serializers.IntegerField(required=False, allow_null=True, max_value=MOST_EVENINGS,
                                       help_text="The best this many evenings of a player count; null: every "
                                                 "evening counts.")
    min_evenings = serializers.IntegerField(required=False, max_value=MOST_EVENINGS,
                                            help_text="Evenings a player needs to qualify for a place (default 1).")


class SeasonSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField(help_text="The season's public page.")

    class Meta:
        model = Season
        fields = ["id", "url", "club", "name", "starts_on", "ends_on", "score", "placing_points", "best_of",
                  "min_evenings", "created_at", "updated_at"]
        read_only_fields = fields

    def get_url(self, season) -> str:
        return reverse("season-page", args=[season.pk])


class SeasonEveningSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    title = serializers.CharField()
    date = serializers.DateField(help_text="The local date of its start (the site's time zone).")


class SeasonRowSerializer(serializers.Serializer):
    place = serializers.IntegerField(allow_null=True, help_text="null for a player not qualified.")
    player_id = serializers.IntegerField(help_text="The player record: the same person across evenings.")
    name = serializers.CharField()
    evenings = serializers.IntegerField(help_text="Evenings played in the season.")
    counted = serializers.IntegerField(help_text="Evenings in the score (at most best_of).")
    score = serializers.CharField(help_text="A decimal with two places, rounded half up.")
    qualified = serializers.BooleanField(help_text="evenings >= min_evenings.")


class SeasonTableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    evenings = SeasonEveningSerializer(many=True)
    rows = SeasonRowSerializer(many=True)


class MergePlayersSerializer(serializers.Serializer):
    duplicate = serializers.IntegerField(min_value=1, max_value=2 ** 31 - 1,
                                         help_text="The walk-in (a player without an account) to merge and remove.")
    into = serializers.IntegerField(min_value=1, max_value=2 ** 31 - 1,
                                    help_text="The club's player who keeps both records' evenings.")


class MergedPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
