from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BackupConfig(AppConfig):
    """Export and import of whole events; reads every app, so it sits on the top floor."""

    name = "drive.backup"
    verbose_name = _("backup")
