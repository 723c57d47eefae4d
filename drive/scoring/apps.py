from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "drive.scoring"
    label = "scoring"
    verbose_name = _("Rounds, results and standings")

    def ready(self) -> None:
        from drive.scoring import receivers  # noqa: F401 - listens to the signals of the floors below
        from drive.scoring import tasks  # noqa: F401 - registers the app's Celery tasks in every process
