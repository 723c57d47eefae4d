from django.urls import include, path

urlpatterns = [
    path("", include("drive.scoring.urls_table")),
    path("", include("drive.scoring.urls_console")),
    path("", include("drive.scoring.urls_results")),
]
