"""The site's URLs and error handlers plus views that fail, for tests/test_error_pages.py."""
from django.db import OperationalError
from django.urls import path

from drive import urls as site

handler400 = site.handler400
handler404 = site.handler404
handler500 = getattr(site, "handler500", "django.views.defaults.server_error")  # Django's own if the site has none


def broken(request):
    raise RuntimeError("a bug")


def database_down(request):
    raise OperationalError("the database is down")


urlpatterns = [path("broken/", broken), path("database-down/", database_down), path("api/broken/", broken),
               *site.urlpatterns]
