"""A club's seasons (leagues across its evenings) and their stored tables."""
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from drive.events.models import Club, Event, Player


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


class GradeBook(models.Model):
    """The one row the grade's computations lock in turn (drive.seasons.services.grades)."""

    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    # The evenings the stored ratings rest on: fewer graded evenings than this (an event
    # deleted, its graded evening with it) means the ratings are no longer to be trusted.
    evenings = models.PositiveIntegerField(_("evenings rated"), default=0)

    class Meta:
        verbose_name = _("grade book")
        verbose_name_plural = _("grade books")


class GradedEvening(models.Model):
    """An evening the stored grades have rated, with what they read of it: its start and
    results version (a correction raises it) order it and tell when it changed. `average`
    is the field's mean mu once it was rated (drive.seasons.grade.average)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="grading",
                                 verbose_name=_("whist drive"))
    starts_at = models.DateTimeField(_("starts at"))
    results_version = models.PositiveIntegerField(_("results version"))
    hands = models.PositiveIntegerField(_("hands rated"))
    average = models.FloatField(_("the field's mean"))

    class Meta:
        verbose_name = _("graded evening")
        verbose_name_plural = _("graded evenings")
        ordering = ["starts_at", "event_id"]

    def __str__(self):
        return str(self.event)


class GradePoint(models.Model):
    """A player's rating after an evening they played rated hands in: the grade's history,
    and where a recomputation from that evening on starts again."""

    evening = models.ForeignKey(GradedEvening, on_delete=models.CASCADE, related_name="points",
                                verbose_name=_("evening"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="grade_points",
                               verbose_name=_("player"))
    mu = models.FloatField("mu")
    sigma = models.FloatField("sigma")
    hands = models.PositiveIntegerField(_("hands"))

    class Meta:
        verbose_name = _("grade after an evening")
        verbose_name_plural = _("grades after each evening")
        constraints = [models.UniqueConstraint(fields=["evening", "player"], name="one_grade_point_per_evening")]

    def __str__(self):
        return f"{self.player} · {self.evening}"


class PlayerGrade(models.Model):
    """A player's rating now, after every rated hand (drive.seasons.grade): the last of
    their grade points."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="grade", verbose_name=_("player"))
    mu = models.FloatField("mu")
    sigma = models.FloatField("sigma")
    hands = models.PositiveIntegerField(_("hands"))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("grade")
        verbose_name_plural = _("grades")

    def __str__(self):
        return str(self.player)
