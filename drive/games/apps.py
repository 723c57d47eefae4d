from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "drive.games"
    label = "games"
    verbose_name = _("Online tables")

    def ready(self) -> None:
        from drive.games import tasks  # noqa: F401 - registers the app's Celery tasks in every process
