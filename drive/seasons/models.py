"""A club's seasons (leagues across its evenings) and their stored tables."""
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from drive.events.models import Club, Player


class Season(models.Model):
    """A date range of a club's evenings and how they score (drive.seasons.table)."""

    class Score(models.TextChoices):
        PLACING_POINTS = "placing_points", _("points per placing")
        TOTAL = "total", _("the total")
        AVERAGE = "average", _("the average per hand")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=120)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    score = models.CharField(_("an evening scores"), max_length=16, choices=Score.choices,
                             default=Score.PLACING_POINTS)
    placing_points = models.JSONField(_("points per placing"), default=list, blank=True,
                                      help_text=_("Points for 1st, 2nd, 3rd... place, e.g. 10, 8, 6, 5, 4, 3, 2, 1."))
    best_of = models.PositiveIntegerField(_("best evenings counted"), null=True, blank=True,
                                          validators=[MinValueValidator(1)],
                                          help_text=_("Empty: every evening counts."))
    min_evenings = models.PositiveIntegerField(_("evenings to qualify"), default=1,
                                               validators=[MinValueValidator(1)])
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["club", "-starts_on", "id"]

    def __str__(self):
        return self.name


class SeasonTable(models.Model):
    """What the stored table of a season was computed from, and its evenings.

    `source` names every input (the season's rules, each counting evening with its
    results version): a table whose source differs from the rows' now is behind and is
    recomputed before it is shown. Never incremented: each computation replaces it whole.
    """

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="table",
                                  verbose_name=_("season"))
    source = models.JSONField(_("computed from"), default=dict)
    evenings = models.JSONField(_("evenings"), default=list,
                                help_text=_("The evenings that count: event, title and local date."))
    computed_at = models.DateTimeField(_("computed at"))

    class Meta:
        verbose_name = _("season table")
        verbose_name_plural = _("season tables")

    def __str__(self):
        return str(self.season)


class SeasonStanding(models.Model):
    """One row of a season's table, in its order (`position`): qualified rows have a place."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings",
                               verbose_name=_("season"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="season_standings",
                               verbose_name=_("player"))
    position = models.PositiveIntegerField(_("row"))
    place = models.PositiveIntegerField(_("place"), null=True, blank=True)
    evenings = models.PositiveIntegerField(_("evenings played"))
    counted = models.PositiveIntegerField(_("evenings counted"))
    score = models.DecimalField(_("score"), max_digits=14, decimal_places=2)
    qualified = models.BooleanField(_("qualified"))

    class Meta:
        verbose_name = _("season standing")
        verbose_name_plural = _("season standings")
        ordering = ["season", "position"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="one_season_row_per_player"),
            models.UniqueConstraint(fields=["season", "position"], name="one_season_row_per_position"),
        ]

    def __str__(self):
        return f"{self.season} · {self.player}"
