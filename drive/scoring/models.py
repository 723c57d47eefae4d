"""The evening as it is played: rounds on the clock, tables, seats, hand results, standings."""
import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

from drive.events.models import Event
from drive.movements.models import Entrant


def new_table_token():
    # 192 bits: the table card's QR code is the only key to its entry page.
    return secrets.token_urlsafe(24)


class Round(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", _("not started")
        SEATED = "seated", _("seating published")
        PLAYING = "playing", _("playing")
        CLOSED = "closed", _("closed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="evening_rounds", verbose_name=_("whist drive"))
    number = models.PositiveSmallIntegerField(_("round"))
    state = models.CharField(_("state"), max_length=8, choices=State.choices, default=State.PENDING)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    late_tables = models.JSONField(_("tables out at the deadline"), default=list, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="one_round_per_number")]

    def __str__(self):
        return f"{self.event} · {self.number}"


class Table(models.Model):
    """A table of the room, with the token its printed card opens."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tables", verbose_name=_("whist drive"))
    number = models.PositiveSmallIntegerField(_("table"))
    token = models.CharField(max_length=64, unique=True, default=new_table_token, editable=False)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="one_table_per_number")]

    def __str__(self):
        return f"{self.event} · {self.number}"


class Seat(models.Model):
    """Where an entrant sits in a round; a sit-out has no table."""

    class Position(models.TextChoices):
        N = "N", _("North")
        E = "E", _("East")
        S = "S", _("South")
        W = "W", _("West")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats", verbose_name=_("round"))
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table"))
    position = models.CharField(_("seat"), max_length=1, choices=Position.choices, blank=True)
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="seats", verbose_name=_("entrant"))

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["round", "entrant"], name="one_seat_per_entrant_per_round"),
            models.UniqueConstraint(
                fields=["round", "table", "position"], condition=models.Q(table__isnull=False), name="one_player_per_seat"
            ),
        ]

    @property
    def side(self):
        return "NS" if self.position in ("N", "S") else "EW"


class SeatClaim(models.Model):
    """A phone's hold on one seat of a table for one round (seats belong to people).

    The phone proves it with the secret the server gave it (only its SHA-256 is kept);
    a claim made signed in by the player seated there is also bound to that account.
    Released by deleting the row; the next round needs a new claim.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seat_claims", verbose_name=_("round"))
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_claims", verbose_name=_("table"))
    position = models.CharField(_("seat"), max_length=1, choices=Seat.Position.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="seat_claims", verbose_name=_("signed-in user"))
    secret_hash = models.CharField(max_length=64, unique=True, editable=False)
    claimed_at = models.DateTimeField(_("claimed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("seat claim")
        verbose_name_plural = _("seat claims")
        ordering = ["round", "table", "position"]
        constraints = [models.UniqueConstraint(fields=["round", "table", "position"], name="one_claim_per_seat")]

    def __str__(self):
        return f"{self.table} · {self.round.number} · {self.position}"


class HandResult(models.Model):
    """Tricks of one hand at one table; E-W took 13 minus N-S.

    With confirmation by opponents, the other side's matching entry confirms it and a
    different one marks it disputed for the organiser. Every change keeps its history.
    """

    class Status(models.TextChoices):
        ENTERED = "entered", _("entered")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")

    class Trump(models.TextChoices):
        SPADES = "S", _("spades")
        HEARTS = "H", _("hearts")
        DIAMONDS = "D", _("diamonds")
        CLUBS = "C", pgettext_lazy("suit", "clubs")  # not the clubs people belong to
        NO_TRUMP = "NT", _("no trump")

    class ChangeKind(models.TextChoices):
        ENTRY = "entry", _("entry")
        CORRECTION = "correction", _("correction")
        REVOKE = "revoke", _("revoke penalty")
        ADJUSTED = "adjusted", _("adjusted score")
        # Online tables only: robots played the hand out at the round's deadline (drive.play).
        ROBOTS = "robots", _("finished by robots")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="results", verbose_name=_("round"))
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="results", verbose_name=_("table"))
    hand_number = models.PositiveSmallIntegerField(_("hand"))
    ns_tricks = models.PositiveSmallIntegerField(_("N-S tricks"), validators=[MaxValueValidator(13)])
    trump = models.CharField(_("trump"), max_length=2, choices=Trump.choices, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ENTERED)
    entered_by = models.CharField(_("entered by seat"), max_length=1, blank=True)
    confirmed_by = models.CharField(_("confirmed by seat"), max_length=1, blank=True)
    disputed_ns_tricks = models.PositiveSmallIntegerField(_("disputed N-S tricks"), null=True, blank=True)
    change_kind = models.CharField(_("kind of change"), max_length=10, choices=ChangeKind.choices, default=ChangeKind.ENTRY)
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(verbose_name=_("history of a hand result"))

    class Meta:
        verbose_name = _("hand result")
        verbose_name_plural = _("hand results")
        ordering = ["round", "table", "hand_number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table", "hand_number"], name="one_result_per_hand"),
            models.CheckConstraint(condition=models.Q(ns_tricks__lte=13), name="ns_tricks_at_most_13"),
        ]

    @property
    def ew_tricks(self):
        return 13 - self.ns_tricks


class Standing(models.Model):
    """One line of the standings, recomputed from the hand results (never incremented)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings", verbose_name=_("whist drive"))
    entrant = models.OneToOneField(Entrant, on_delete=models.CASCADE, related_name="standing", verbose_name=_("entrant"))
    place = models.PositiveSmallIntegerField(_("place"))
    shared = models.BooleanField(_("shared place"), default=False)
    total = models.DecimalField(_("total"), max_digits=7, decimal_places=2)
    hands_played = models.PositiveSmallIntegerField(_("hands played"))
    hands_won = models.PositiveSmallIntegerField(_("hands won"))
    sit_out_hands = models.PositiveSmallIntegerField(_("hands sat out"), default=0)
    first_half = models.DecimalField(_("first half"), max_digits=7, decimal_places=2, default=0)
    second_half = models.DecimalField(_("second half"), max_digits=7, decimal_places=2, default=0)
    # Per hand counted (played, or sat out and credited): the ranking under the event's
    # "average" rule for missed rounds.
    # Defaults in the database too: a line written by other means than the ORM stays valid.
    average = models.DecimalField(_("average per hand"), max_digits=7, decimal_places=2, default=0, db_default=0)
    # Rounds played by the room in which the entrant had no seat: arrived late or left early.
    missed_rounds = models.JSONField(_("missed rounds"), default=list, db_default=models.Value([], models.JSONField()),
                                     blank=True)
    computed_at = models.DateTimeField(_("computed at"))

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        ordering = ["event", "place", "entrant__number"]



class StandingsState(models.Model):
    """Which results the stored standings of an event were computed from.

    Every change that can move the standings (a result, a correction, seats, entrants)
    raises `results_version` in its own transaction; a recomputation records the version
    it read as `computed_version`. Behind means stale: a read or the periodic sweep asks
    for a recomputation, and what is shown as final is recomputed first.
    """

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="standings_state",
                                 verbose_name=_("whist drive"))
    results_version = models.PositiveIntegerField(_("results version"), default=0)
    computed_version = models.PositiveIntegerField(_("version of the standings"), default=0)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    # Entered hands the computed standings leave out until the other side confirms them.
    awaiting_confirmation = models.PositiveIntegerField(_("hands awaiting confirmation"), default=0, db_default=0)

    class Meta:
        verbose_name = _("standings version")
        verbose_name_plural = _("standings versions")

    @property
    def stale(self):
        return self.computed_version < self.results_version


class OnlineTables(models.Model):
    """Which of an evening's tables are played online (hosted by drive.play) rather than on
    paper: all, none, or the tables listed. Read when a round starts; the organiser changes
    it between rounds (a table in play keeps its way of playing)."""

    class Mode(models.TextChoices):
        PAPER = "paper", _("on paper")
        ONLINE = "online", _("online")
        MIXED = "mixed", _("mixed: the tables listed online")

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="online_tables",
                                 verbose_name=_("whist drive"))
    mode = models.CharField(_("tables"), max_length=8, choices=Mode.choices, default=Mode.PAPER)
    tables = models.JSONField(_("tables played online"), default=list, blank=True,
                              help_text=_("Numbers of the tables played online when the evening is mixed."))
    robot = models.CharField(_("robot for an empty seat"), max_length=8, default="rules")
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("online tables")
        verbose_name_plural = _("online tables")

    def is_online(self, table_number: int) -> bool:
        return self.mode == self.Mode.ONLINE or (self.mode == self.Mode.MIXED and table_number in self.tables)
