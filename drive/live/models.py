"""What the room's screen keeps of its own: its link and chime, and the organiser's
announcements."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from drive.events.models import Event

ANNOUNCEMENT_MAX = 200  # two lines at projector size


class Announcement(models.Model):
    """A line the organiser types for the whole room ("Tea is served"). It stays on the
    screen until taken down; taking it down keeps the row (who said what, and when)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="announcements",
                              verbose_name=_("whist drive"))
    text = models.CharField(_("announcement"), max_length=ANNOUNCEMENT_MAX)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("made by"))
    created_at = models.DateTimeField(_("made at"), auto_now_add=True)
    taken_down_at = models.DateTimeField(_("taken down at"), null=True, blank=True)

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["event", "taken_down_at"], name="announcement_on_screen")]

    def __str__(self):
        return self.text


class Screen(models.Model):
    """The event's room screen: its secret link and whether it chimes. Only this floor
    writes it, so it lives here and not on the event. An event has none until the
    organiser makes a link or sets the chime (none reads as no link, no chime)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="screen",
                                 verbose_name=_("whist drive"))
    # No login on the venue computer, so the token is the key.
    token = models.CharField(_("screen link"), max_length=40, unique=True, null=True, blank=True, editable=False)
    chime = models.BooleanField(_("chime at the end of the round"), default=False,
                                help_text=_("The room's screen sounds a chime when the round clock reaches zero."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("room screen")
        verbose_name_plural = _("room screens")

    def __str__(self):
        return str(self.event)
