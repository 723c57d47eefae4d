from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MovementsConfig(AppConfig):
    name = "drive.movements"
    label = "movements"
    verbose_name = _("Movements")
