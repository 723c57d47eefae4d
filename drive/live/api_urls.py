from django.urls import path

from drive.live.api import screen as api

urlpatterns = [
    path("events/<int:event_id>/screen/", api.ScreenView.as_view(), name="api-screen"),
    path("events/<int:event_id>/screen/link/", api.ScreenLinkView.as_view(), name="api-screen-link"),
    path("events/<int:event_id>/announcements/", api.AnnouncementListView.as_view(), name="api-announcements"),
    path("events/<int:event_id>/announcements/<int:announcement_id>/", api.AnnouncementView.as_view(),
         name="api-announcement"),
]
