"""The whist-drive service: the Django project and its domain apps."""
from drive.celery import app as celery_app

__all__ = ["celery_app"]
