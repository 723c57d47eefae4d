from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DemoConfig(AppConfig):
    """The demo club and evening (`manage.py load_demo`); it plays an evening through every
    app's services, so it sits on the top floor."""

    name = "drive.demo"
    verbose_name = _("demo")
