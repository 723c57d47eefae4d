"""The room's screen and its console pages, and their API (under /api/)."""
from django.urls import include, path

from drive.live.api import screen as api
from drive.live.views import screen as views

api_patterns = [
    path("events/<int:event_id>/screen/", api.ScreenView.as_view(), name="api-screen"),
    path("events/<int:event_id>/screen/link/", api.ScreenLinkView.as_view(), name="api-screen-link"),
    path("events/<int:event_id>/announcements/", api.AnnouncementListView.as_view(), name="api-announcements"),
    path("events/<int:event_id>/announcements/<int:announcement_id>/", api.AnnouncementView.as_view(),
         name="api-announcement"),
]

urlpatterns = [
    path("screen/<str:token>/", views.screen, name="screen"),
    path("screen/<str:token>/qr.svg", views.screen_qr, name="screen-qr"),
    path("console/events/<int:event_id>/screen-link/", views.screen_link, name="console-screen-link"),
    path("console/events/<int:event_id>/screen-link/issue/", views.screen_link_issue, name="console-screen-link-issue"),
    path("console/events/<int:event_id>/screen-link/revoke/", views.screen_link_revoke,
         name="console-screen-link-revoke"),
    path("console/events/<int:event_id>/screen-link/chime/", views.screen_chime, name="console-screen-chime"),
    path("console/events/<int:event_id>/announcements/", views.announce, name="console-announce"),
    path("console/events/<int:event_id>/announcements/<int:announcement_id>/take-down/", views.take_down,
         name="console-announcement-take-down"),
    path("api/", include(api_patterns)),
]
