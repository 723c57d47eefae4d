from django.urls import include, path

urlpatterns = [
    path("", include("drive.scoring.api_urls_table")),
    path("", include("drive.scoring.api_urls_console")),
    path("", include("drive.scoring.api_urls_results")),
]
