"""Clubs, players, drives (events) and registrations."""
import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_door_code():
    # 128 bits: the door QR code must not be guessable from outside the room.
    return secrets.token_urlsafe(16)


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_clubs", verbose_name=_("organisers")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self):
        return self.name


class Player(models.Model):
    class Category(models.TextChoices):
        NONE = "", _("—")
        LADY = "lady", _("lady")
        GENT = "gent", _("gent")

    display_name = models.CharField(_("display name"), max_length=80)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player",
        verbose_name=_("user account"),
    )
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="players", verbose_name=_("club")
    )
    category = models.CharField(_("category"), max_length=8, blank=True, choices=Category.choices)
    language = models.CharField(_("language"), max_length=8, blank=True, choices=settings.LANGUAGES,
                                help_text=_("Emails to the player are written in this language."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["display_name"]

    def __str__(self):
        return self.display_name


class Event(models.Model):
    """One whist drive: an evening of rounds at many tables."""

    class MovementKind(models.TextChoices):
        PROGRESSIVE = "progressive", _("progressive")
        INDIVIDUAL = "individual", _("individual, balanced")
        PAIRS = "pairs", _("fixed pairs")

    class RulesPreset(models.TextChoices):
        DRIVE = "drive", _("drive (each hand scored alone)")
        SHORT = "short", _("short whist to five")
        LONG = "long", _("long whist")

    class TrumpRule(models.TextChoices):
        TURNED_UP = "turned_up", _("turned up (last card)")
        ROTATION = "rotation", _("rotation: hearts, diamonds, spades, clubs")
        ROTATION_NO_TRUMP = "rotation_nt", _("rotation with a no-trump hand")

    class ScoringRule(models.TextChoices):
        TRICKS = "tricks", _("tricks taken")
        OVER_SIX = "over_six", _("tricks over six")

    class Phase(models.TextChoices):
        REGISTRATION = "registration", _("before the evening")
        IN_PROGRESS = "in_progress", _("in progress")
        FINISHED = "finished", _("finished")
        RESULTS_PUBLISHED = "results_published", _("results published")

    class Confirmation(models.TextChoices):
        OPPONENTS = "opponents", _("confirmed by the opponents")
        SINGLE = "single", _("single entry")

    class SitOutScore(models.TextChoices):
        OWN_AVERAGE = "own_average", _("own average per hand so far")
        ROOM_AVERAGE = "room_average", _("room average per hand")

    class ProgressiveConvention(models.TextChoices):
        # The conventions of rule D4b; drive/movements/algorithms/progressive.py says what each does.
        WINNERS_MOVE = "winners_move", _("winners move up and split (progressive)")
        LOSERS_MOVE = "losers_move", _("losers move down and split")
        SEMI_PARTNER = "semi_partner", _("semi-partner: winners stay together")
        MAIDENHEAD = "maidenhead", _("Maidenhead: winning gent up, lady down")
        LADY_UP_GENT_DOWN = "lady_up_gent_down", _("winning lady up, gent down")
        PARTNER = "partner", _("partner drive: the winning pair moves up together")

    class MissedRounds(models.TextChoices):
        # A late arrival or an early leaver misses rounds; a round sat out is not one (rule D5).
        NOT_ELIGIBLE = "not_eligible", _("listed, not eligible for prizes")
        AVERAGE = "average", _("ranked on their average per hand played")

    class TieBreak(models.TextChoices):
        HANDS_WON = "hands_won", _("most hands won, then best second half, then shared")
        SECOND_HALF = "second_half", _("best second half, then shared")
        SHARED = "shared", _("shared")
        LOT = "lot", _("drawn by lot")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events", verbose_name=_("club"))
    title = models.CharField(_("title"), max_length=140)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    starts_at = models.DateTimeField(_("starts at"))
    capacity = models.PositiveIntegerField(_("capacity"), validators=[MinValueValidator(4), MaxValueValidator(2000)])
    registration_opens_at = models.DateTimeField(_("registration opens"), null=True, blank=True)
    registration_closes_at = models.DateTimeField(_("registration closes"), null=True, blank=True)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=8, validators=[MinValueValidator(1), MaxValueValidator(60)])
    hands_per_round = models.PositiveSmallIntegerField(
        _("hands per round"), default=3, validators=[MinValueValidator(1), MaxValueValidator(13)]
    )
    round_minutes = models.PositiveSmallIntegerField(
        _("round length (minutes)"), default=20, validators=[MinValueValidator(1), MaxValueValidator(240)]
    )
    movement_kind = models.CharField(
        _("movement"), max_length=16, choices=MovementKind.choices, default=MovementKind.PROGRESSIVE
    )
    rules_preset = models.CharField(_("rules"), max_length=16, choices=RulesPreset.choices, default=RulesPreset.DRIVE)
    trump_rule = models.CharField(_("trumps"), max_length=16, choices=TrumpRule.choices, default=TrumpRule.TURNED_UP)
    scoring_rule = models.CharField(_("scoring"), max_length=16, choices=ScoringRule.choices, default=ScoringRule.TRICKS)
    tie_break_rule = models.CharField(_("tie-break"), max_length=16, choices=TieBreak.choices, default=TieBreak.HANDS_WON)
    # [{"name": ..., "kind": ...}] in the organiser's order (drive.events.prizes, rule D4).
    prizes = models.JSONField(_("prizes"), default=list, blank=True,
                              help_text=_("Prizes in order, each with its name and kind, e.g. first, second, booby."))
    published = models.BooleanField(_("published"), default=False)
    phase = models.CharField(_("phase"), max_length=20, choices=Phase.choices, default=Phase.REGISTRATION)
    progressive_convention = models.CharField(
        _("progressive convention"), max_length=20, choices=ProgressiveConvention.choices,
        default=ProgressiveConvention.WINNERS_MOVE,
    )
    result_confirmation = models.CharField(
        _("result entry"), max_length=10, choices=Confirmation.choices, default=Confirmation.OPPONENTS
    )
    sit_out_score = models.CharField(
        _("score for a round sat out"), max_length=14, choices=SitOutScore.choices, default=SitOutScore.OWN_AVERAGE
    )
    missed_rounds = models.CharField(
        _("players who arrive late or leave early"), max_length=14, choices=MissedRounds.choices, default=MissedRounds.NOT_ELIGIBLE,
        # A round sat out is not missed: it is credited with an average (rule D5).
        help_text=_("For a player who arrives late or leaves early. A round sat out is not missed: "
                    "it is credited with an average."),
    )
    door_code = models.CharField(_("door code"), max_length=40, default=new_door_code, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("whist drive")
        verbose_name_plural = _("whist drives")
        ordering = ["starts_at", "id"]

    @property
    def is_over(self) -> bool:
        """The evening has been played (finished, or its results published): its record is final."""
        return self.phase in (self.Phase.FINISHED, self.Phase.RESULTS_PUBLISHED)

    def __str__(self):
        return self.title


class Registration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("registered")
        WAITLISTED = "waitlisted", _("waitlisted")
        CANCELLED = "cancelled", _("cancelled")
        CHECKED_IN = "checked_in", _("checked in")
        NO_SHOW = "no_show", _("no-show")

    # Statuses that hold one of the event's places.
    HOLDS_PLACE = (Status.REGISTERED, Status.CHECKED_IN)

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations", verbose_name=_("whist drive"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="registrations", verbose_name=_("player"))
    status = models.CharField(_("status"), max_length=12, choices=Status.choices)
    waitlist_position = models.PositiveIntegerField(_("waitlist position"), null=True, blank=True)
    walk_in = models.BooleanField(_("walk-in"), default=False)
    fixed_table = models.PositiveSmallIntegerField(
        _("fixed table"), null=True, blank=True,
        help_text=_("For a player who should not move (mobility): the movement keeps them at this table."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    registered_at = models.DateTimeField(_("registered at"))
    promoted_at = models.DateTimeField(_("promoted from the waitlist at"), null=True, blank=True)
    promotion_notified_at = models.DateTimeField(_("promotion email sent at"), null=True, blank=True)
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["registered_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="one_registration_per_player"),
            models.UniqueConstraint(
                fields=["event", "waitlist_position"],
                condition=models.Q(status="waitlisted"),
                name="one_player_per_waitlist_position",
            ),
        ]
        indexes = [models.Index(fields=["event", "status"])]

    def __str__(self):
        return f"{self.player} @ {self.event}: {self.status}"


class AuditEntry(models.Model):
    """One organiser write: who, when, what, before and after (after pretix's LogEntry).

    The object is named by its model label and id as text, not a ContentType row,
    so an exported evening imports into another database with its log intact.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit_entries", verbose_name=_("club"))
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.CASCADE, related_name="audit_entries",
        verbose_name=_("whist drive"),
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("by"),
    )
    # The actor's name when it happened: kept if the account goes, and for actors without one.
    actor_label = models.CharField(_("by"), max_length=150, blank=True)
    action = models.CharField(_("action"), max_length=64, db_index=True)
    object_type = models.CharField(_("object type"), max_length=64, blank=True)
    object_id = models.CharField(_("object id"), max_length=64, blank=True)
    object_repr = models.CharField(_("object"), max_length=200, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["event", "-created_at", "-id"])]

    def __str__(self):
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_label} {self.action} {self.object_repr}"
