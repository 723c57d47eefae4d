from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayConfig(AppConfig):
    name = "drive.play"
    label = "play"
    verbose_name = _("Online play")
