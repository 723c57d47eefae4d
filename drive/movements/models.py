"""The stored movement of an evening and the players it numbers.

The algorithms are pure modules beside this one; these rows keep what they computed,
so the seating of every round can be shown, printed and re-planned.
"""
from django.db import models
from django.utils.translation import gettext_lazy as _

from drive.events.models import Event, Player


class Entrant(models.Model):
    """A player of the evening with their number in the movement (1..V).

    Frozen when the evening starts; a late arrival joins from a later round and a
    leaver stops after one, so earlier rounds never change.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrants", verbose_name=_("whist drive"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries", verbose_name=_("player"))
    number = models.PositiveSmallIntegerField(_("number"))
    joined_round = models.PositiveSmallIntegerField(_("joined in round"), default=1)
    left_after_round = models.PositiveSmallIntegerField(_("left after round"), null=True, blank=True)
    pinned_table = models.PositiveSmallIntegerField(
        _("fixed table"), null=True, blank=True, help_text=_("For a player who should not move (mobility).")
    )

    class Meta:
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="one_entrant_per_number"),
            models.UniqueConstraint(fields=["event", "player"], name="one_entry_per_player"),
        ]

    def __str__(self):
        return f"{self.number}. {self.player}"

    def plays_in(self, round_number):
        left = self.left_after_round
        return self.joined_round <= round_number and (left is None or round_number <= left)


class Movement(models.Model):
    """The plan of an evening: for every round, the tables (N, E, S, W) and who sits out."""

    class Status(models.TextChoices):
        PENDING = "pending", _("being computed")
        READY = "ready", _("ready")
        FAILED = "failed", _("failed")

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="movement", verbose_name=_("whist drive"))
    kind = models.CharField(_("movement"), max_length=16, choices=Event.MovementKind.choices)
    players = models.PositiveSmallIntegerField(_("players"))
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.PENDING)
    plan = models.JSONField(_("plan"), default=dict, blank=True, help_text=_("The rounds as the movement command prints them."))
    quality = models.JSONField(_("quality report"), default=dict, blank=True)
    source = models.CharField(_("construction"), max_length=80, blank=True)
    error = models.TextField(_("error"), blank=True)
    version = models.PositiveIntegerField(_("version"), default=1, help_text=_("Raised by every re-plan."))
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("movement")
        verbose_name_plural = _("movements")

    def __str__(self):
        return f"{self.event}: {self.get_kind_display()} for {self.players}"
