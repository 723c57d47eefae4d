from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "drive.scoring"
    label = "scoring"
    verbose_name = _("Rounds, results and standings")

    def ready(self):
        from drive.events.services import registration as registration_services
        from drive.scoring import tasks  # noqa: F401 - registers the app's Celery tasks in every process
        from drive.scoring.services.evening import leave_on_cancellation

        # A player cancelled while the evening runs leaves it: the events app, a floor down,
        # is lent how (it cannot import the evening).
        registration_services.on_leaving_evening(leave_on_cancellation)
