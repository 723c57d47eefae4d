from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "drive.seasons"
    label = "seasons"
    verbose_name = _("Seasons")

    def ready(self):
        from drive.scoring.signals import results_changed
        from drive.seasons import tasks  # noqa: F401 - registers the app's Celery tasks in every process
        from drive.seasons.services import grades
        from drive.seasons.services.follow import evening_results_changed

        # The evening (a floor down) says when published results go out or change: the
        # tables of the seasons it counts in follow.
        results_changed.connect(evening_results_changed, dispatch_uid="seasons.follow-results")
        # ... and so do the players' grades (every published evening, any club).
        results_changed.connect(grades.evening_results_changed, dispatch_uid="seasons.grades-follow-results")
