from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from drive.core.accounts import Account
from drive.core.names import validate_name

from drive.events.models import Club, Event, Player, Registration
from drive.events.prizes import MOST, NAME_MAX, PrizeKind, from_legacy
from drive.events.services.events import EVENT_FIELDS
from drive.events.services.accounts import password_problems


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug"]


class ClubCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, validators=[validate_name])
    slug = serializers.SlugField(max_length=60, required=False, allow_blank=True,
                                 help_text="The club's short name in addresses; made from the name when left out.")
    organisers = serializers.ListField(
        child=serializers.CharField(max_length=150), required=False, max_length=50,
        help_text="Usernames of the club's organisers besides the caller, who organises it too.")


class ClubDetailSerializer(ClubSerializer):
    organisers: serializers.SlugRelatedField[Account] = serializers.SlugRelatedField(
        many=True, read_only=True, slug_field="username")

    class Meta(ClubSerializer.Meta):
        fields = [*ClubSerializer.Meta.fields, "organisers"]


class PrizeSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=NAME_MAX)
    kind = serializers.ChoiceField(choices=PrizeKind.choices,
                                   help_text="Who it goes to (rule D4): the highest total (overall), the highest "
                                             "lady or gent, the best first half (half_time), or the lowest (booby).")


class PrizesField(serializers.ListField):
    """The prizes in the organiser's order; a row stored before kinds existed reads with
    the kind it was given then (drive.events.prizes.from_legacy)."""

    child = PrizeSerializer()

    def to_representation(self, data):
        return super().to_representation(from_legacy(data))


class EventSerializer(serializers.ModelSerializer):
    """An event as the public sees it, with its places ("17/32") and waitlist length."""

    club = ClubSerializer(read_only=True)
    places_taken = serializers.IntegerField(read_only=True, source="taken")
    waitlisted = serializers.IntegerField(read_only=True)
    checked_in = serializers.IntegerField(read_only=True)
    prizes = PrizesField(read_only=True)

    class Meta:
        model = Event
        fields = ["id", "club", *EVENT_FIELDS, "places_taken", "waitlisted", "checked_in"]


class EventWriteSerializer(serializers.ModelSerializer):
    prizes = PrizesField(required=False, max_length=MOST)

    class Meta:
        model = Event
        fields = EVENT_FIELDS


class EventCreateSerializer(EventWriteSerializer):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())

    class Meta(EventWriteSerializer.Meta):
        fields = ["club", *EVENT_FIELDS]


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "display_name", "category"]


class RegistrationSerializer(serializers.ModelSerializer):
    player = PlayerSerializer(read_only=True)
    event: serializers.PrimaryKeyRelatedField[Event] = serializers.PrimaryKeyRelatedField(read_only=True)

    class Meta:
        model = Registration
        fields = [
            "id", "event", "player", "status", "waitlist_position", "walk_in", "fixed_table",
            "registered_at", "promoted_at", "cancelled_at", "checked_in_at",
        ]
        read_only_fields = fields


class FixedTableSerializer(serializers.Serializer):
    # The range is checked by the service: it knows how many tables the event can have.
    table = serializers.IntegerField(
        allow_null=True,
        help_text="The table the player keeps all evening (1 to capacity // 4), or null to clear it.",
    )


class SelfCheckInSerializer(serializers.Serializer):
    door_code = serializers.CharField(max_length=64)


class SelfCheckInResultSerializer(serializers.Serializer):
    already_checked_in = serializers.BooleanField()
    registration = RegistrationSerializer()


class WalkInSerializer(serializers.Serializer):
    display_name = serializers.CharField(max_length=80, validators=[validate_name], required=False,
                                         help_text="A new player's name (required without `player`).")
    category = serializers.ChoiceField(choices=Player.Category.choices, required=False, default="")
    player = serializers.IntegerField(required=False, min_value=1, max_value=2 ** 31 - 1,
                                      help_text="One of the club's players (found by name: GET "
                                                "/api/clubs/<id>/players/?q=...), checked in as themselves, so "
                                                "their evenings count together; `display_name` is then not used.")

    def validate(self, attrs):
        if "player" not in attrs and not attrs.get("display_name"):
            raise serializers.ValidationError({"display_name": [_("Enter the player's name.")]})
        return attrs


class PlayerMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The player record: give it as a walk-in's `player`.")
    name = serializers.CharField()
    category = serializers.CharField()
    account = serializers.BooleanField(help_text="The player of an account; else a walk-in.")
    evenings = serializers.IntegerField(help_text="The club's evenings they were checked in at.")
    last_seen = serializers.DateTimeField(allow_null=True, help_text="The start of the latest of them.")


class CountSerializer(serializers.Serializer):
    count = serializers.IntegerField()


class SignupSerializer(serializers.Serializer):
    username = serializers.RegexField(r"^[\w.@+-]+\Z", max_length=150)
    # Kept as typed, as the sign-up page and the token endpoint keep it: trimmed here, a
    # password with a space at either end could never log in again.
    password = serializers.CharField(write_only=True, max_length=128, trim_whitespace=False,
                                     help_text="Checked by the site's password rules (length, common, numeric, "
                                               "like the username).")
    email = serializers.EmailField(required=False, allow_blank=True)
    display_name = serializers.CharField(max_length=80, validators=[validate_name])

    def validate_username(self, value):
        # Stored NFKC-normalised (as create_user does): check the name as it will be saved,
        # since normalising can lengthen it (one character may become 18) or add spaces.
        User = get_user_model()
        value = User.normalize_username(value)
        validate_name(value)
        field = User._meta.get_field(User.USERNAME_FIELD)
        try:
            if isinstance(field, models.Field):  # the username is a column, not a relation
                field.run_validators(value)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(list(exc.messages)) from exc
        if User.objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError(_("This username is taken."))
        return value

    def validate_password(self, value):
        # A field check, so a weak password is reported with the other fields' messages.
        problems = password_problems(password=value, username=self.initial_data.get("username"),
                                     email=self.initial_data.get("email"))
        if problems:
            raise serializers.ValidationError(problems)
        return value


class TokenOnlySerializer(serializers.Serializer):
    token = serializers.CharField()


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    player = PlayerSerializer()
