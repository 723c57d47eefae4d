from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "drive.events"
    label = "events"
    verbose_name = _("Events and registration")

    def ready(self):
        from drive.events import tasks  # noqa: F401 - registers the app's Celery tasks in every process
