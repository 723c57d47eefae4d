"""Online tables: the game lives in the engine's record, the seats say who plays each
hand, and the action log is what idempotency and the hand history read.

Moved here from drive.play (issue 21): the rows stay in the play_* tables they were
created in (`db_table`), so an existing database keeps its games."""
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from drive.events.models import Event

INVITE_BYTES = 18  # 24 URL-safe characters: the link cannot be guessed


def new_invite() -> str:
    return secrets.token_urlsafe(INVITE_BYTES)


SEATS = [("N", _("North")), ("E", _("East")), ("S", _("South")), ("W", _("West"))]


class PlayTable(models.Model):
    """One game of one variant. `record` is `GameState.record()`; `version` rises by one
    with every applied change (an action, a deal, a seat filled), so a client that saw
    version v sends it back with its action."""

    class Phase(models.TextChoices):
        DEAL = "deal", _("deal")
        AUCTION = "auction", _("auction")
        EXCHANGE = "exchange", _("exchange")
        PLAY = "play", _("play")
        SCORED = "scored", _("scored")
        OVER = "over", _("over")

    rules = models.JSONField(_("rules"), help_text=_("A preset name, or {\"name\": preset, ...options}."))
    record = models.JSONField(_("game record"), default=dict)
    version = models.PositiveIntegerField(_("version"), default=0)
    phase = models.CharField(_("phase"), max_length=8, choices=Phase.choices, default=Phase.DEAL)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)
    timeout_seconds = models.PositiveIntegerField(_("seconds before a robot stands in"), default=45)
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.CASCADE, related_name="play_tables",
                              verbose_name=_("whist drive"))
    round_number = models.PositiveIntegerField(_("round"), null=True, blank=True)
    table_number = models.PositiveIntegerField(_("table"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    invite = models.CharField(_("invitation"), max_length=32, default=new_invite, editable=False,
                              help_text=_("The secret of the table's invitation link (/play/<id>/?invite=...)."))
    former_seats = models.JSONField(_("seats left"), default=dict, blank=True,
                                    help_text=_("The seat each person who left one played: they have seen its "
                                                "cards, so they may sit again only there."))
    public = models.BooleanField(_("public"), default=False,
                                 help_text=_("Anyone signed in may take an open seat without the invite link."))
    clock_stopped = models.BooleanField(_("round clock stopped"), default=False,
                                        help_text=_("An evening's table whose round clock the organiser has "
                                                    "paused: its robots wait and nobody is silent."))

    class Meta:
        db_table = "play_playtable"
        verbose_name = _("online table")
        verbose_name_plural = _("online tables")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["finished_at", "changed_at"], name="play_table_running")]

    def __str__(self):
        return f"#{self.pk} {self.rules if isinstance(self.rules, str) else self.rules.get('name')}"


class PlaySeat(models.Model):
    """Who plays a seat: a person, a robot, or nobody yet (open for an invited player).
    `standin`: a robot plays for a silent person until they are back."""

    class Robot(models.TextChoices):
        NONE = "", _("no robot")
        RANDOM = "random", _("random robot")
        RULES = "rules", _("rules robot")
        STRONG = "strong", _("strong robot")

    table = models.ForeignKey(PlayTable, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(_("seat"), max_length=1, choices=SEATS)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="play_seats", verbose_name=_("player"))
    robot = models.CharField(_("robot"), max_length=8, choices=Robot.choices, default="", blank=True)
    standin = models.BooleanField(_("robot stands in"), default=False)
    last_seen = models.DateTimeField(_("last seen"), null=True, blank=True)
    offered_to = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="play_offers", verbose_name=_("offered to"),
                                   help_text=_("A person asked to take this seat: they sit only once they accept."))

    class Meta:
        db_table = "play_playseat"
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "seat"]
        constraints = [models.UniqueConstraint(fields=["table", "seat"], name="play_seat_once")]

    def __str__(self):
        return f"{self.table_id} {self.seat}"

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.robot

    @property
    def played_by_robot(self) -> bool:
        return bool(self.robot) or (self.standin and self.user_id is not None)


class PlayAction(models.Model):
    """An applied change: `version` is the table's version it produced."""

    table = models.ForeignKey(PlayTable, on_delete=models.CASCADE, related_name="actions")
    version = models.PositiveIntegerField(_("version"))
    seat = models.CharField(_("seat"), max_length=1, choices=SEATS)
    action = models.CharField(_("action"), max_length=64)
    by_robot = models.BooleanField(_("by a robot"), default=False)
    created_at = models.DateTimeField(_("played at"), auto_now_add=True)

    class Meta:
        db_table = "play_playaction"
        verbose_name = _("action")
        verbose_name_plural = _("actions")
        ordering = ["table", "version"]
        constraints = [models.UniqueConstraint(fields=["table", "version"], name="play_action_once")]

    def __str__(self):
        return f"{self.table_id} v{self.version} {self.seat} {self.action}"


class PlayHandReview(models.Model):
    """The double-dummy review of one finished hand (engine.analysis), computed once by a
    worker and kept: the hand history only reads it. `review` is None where no review
    applies (two or three hands in play)."""

    table = models.ForeignKey(PlayTable, on_delete=models.CASCADE, related_name="reviews")
    hand = models.PositiveIntegerField(_("hand"))
    review = models.JSONField(_("review"), null=True, blank=True)
    created_at = models.DateTimeField(_("reviewed at"), auto_now_add=True)

    class Meta:
        db_table = "play_playhandreview"
        verbose_name = _("hand review")
        verbose_name_plural = _("hand reviews")
        ordering = ["table", "hand"]
        constraints = [models.UniqueConstraint(fields=["table", "hand"], name="play_review_once")]

    def __str__(self):
        return f"{self.table_id} hand {self.hand}"
