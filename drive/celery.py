"""The Celery app. Tasks take ids, call a service and are safe to run twice."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "drive.settings")

# DjangoTask gives .delay_on_commit(): a task is only sent once its data is committed.
app = Celery("drive", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
