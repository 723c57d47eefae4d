"""Online play's own rows: how one person sees the cards. The tables themselves are the
games app's (drive.games.models)."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PlayerDisplay(models.Model):
    """How one person sees the cards (issue 20): a four-colour deck (spades black, hearts
    red, diamonds blue, clubs green) and high contrast. Kept per person, so every device
    they sign in on shows the table the same way; nobody else may change it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_display",
                                verbose_name=_("player"))
    four_colour = models.BooleanField(_("four-colour deck"), default=False,
                                      help_text=_("Spades black, hearts red, diamonds blue, clubs green."))
    high_contrast = models.BooleanField(_("high contrast"), default=False,
                                        help_text=_("Black on white, thicker borders, larger ranks and pips."))
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        verbose_name = _("display preference")
        verbose_name_plural = _("display preferences")

    def __str__(self):
        return f"{self.user_id} display"
