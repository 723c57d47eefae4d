from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayConfig(AppConfig):
    name = "drive.play"
    label = "play"
    verbose_name = _("Online play")

    def ready(self):
        from drive.play import tasks  # noqa: F401 - registers the app's Celery tasks in every process
        from drive.play.selectors.evening import online_table_url, online_table_urls
        from drive.play.services import evening
        from drive.scoring.selectors import online as online_tables
        from drive.scoring.services import online

        # The evening, a floor down, is lent what a round's start and close do to its
        # online tables (it cannot import them).
        online.on_round_started(evening.open_round_tables)
        online.on_round_closing(evening.finish_round_tables)
        online.on_clock_resumed(evening.resume_round_tables)
        # ...and which of its tables play online: they take no paper result.
        online_tables.on_online_table(online_table_url)
        online_tables.on_online_round(online_table_urls)  # a round's tables at once (the console's grid)
