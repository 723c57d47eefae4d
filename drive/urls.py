from django.contrib import admin
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from drive.core.favicon import favicon
from drive.health import healthz, livez
from drive.core.limits import bad_request
from drive.core.middleware import not_found, server_error

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("livez", livez, name="livez"),
    path("favicon.ico", favicon, name="favicon"),
    # The online tables' models moved from play to games (issue 21): their old admin
    # addresses still lead to them.
    re_path(r"^admin/play/(?P<model>playtable|playseat|playaction|playhandreview)/(?P<rest>.*)$",
            RedirectView.as_view(url="/admin/games/%(model)s/%(rest)s", permanent=True, query_string=True)),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Split: its start-up script is a file of its own, not inline (the Content-Security-Policy).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("drive.events.urls")),
    path("", include("drive.scoring.urls")),
    path("", include("drive.movements.urls")),
    path("", include("drive.live.urls")),
    path("", include("drive.play.urls")),
    path("", include("drive.seasons.urls")),
    path("", include("drive.backup.urls")),
]

handler400 = bad_request
handler404 = not_found
handler500 = server_error
