from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "drive.scoring"
    label = "scoring"
    verbose_name = _("Rounds, results and standings")

    def ready(self):
        from drive.events import services as event_services

        from .evening import leave_on_cancellation

        event_services.on_leaving_evening(leave_on_cancellation)
