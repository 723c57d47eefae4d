from django.urls import path

from drive.events.views import events as views

from drive.events.views import audit as views_audit

urlpatterns = [
    path("", views.event_list, name="event-list"),
    path("events/<int:event_id>/", views.event_detail, name="event-detail"),
    path("events/<int:event_id>/register/", views.register, name="event-register"),
    path("events/<int:event_id>/cancel/", views.cancel, name="event-cancel"),
    path("events/<int:event_id>/door/<str:door_code>/", views.door_check_in, name="door-check-in"),
    path("accounts/signup/", views.signup, name="signup"),
    path("me/", views.me, name="me"),
    path("console/", views.console, name="console"),
    path("console/clubs/<int:club_id>/events/new/", views.event_create, name="console-event-create"),
    path("console/events/<int:event_id>/", views.console_event, name="console-event"),
    path("console/events/<int:event_id>/edit/", views.event_edit, name="console-event-edit"),
    path("console/events/<int:event_id>/audit/", views_audit.audit_log, name="console-audit"),
    path("console/events/<int:event_id>/registrations/", views.console_arrivals, name="console-arrivals"),
    path("console/events/<int:event_id>/walk-in/", views.console_walk_in, name="console-walk-in"),
    path("console/events/<int:event_id>/no-shows/", views.console_no_shows, name="console-no-shows"),
    path("console/events/<int:event_id>/publish/", views.console_publish, name="console-publish"),
    path("console/events/<int:event_id>/close-registration/", views.console_close_registration,
         name="console-close-registration"),
    path("console/events/<int:event_id>/door-qr.svg", views.door_qr, name="console-door-qr"),
    path("console/events/<int:event_id>/door-code/", views.console_door_code, name="console-door-code"),
    path("console/registrations/<int:registration_id>/check-in/", views.console_check_in, name="console-check-in"),
    path("console/registrations/<int:registration_id>/no-show/", views.console_no_show, name="console-no-show"),
    path("console/registrations/<int:registration_id>/cancel/", views.console_cancel, name="console-cancel"),
    path("console/registrations/<int:registration_id>/fixed-table/", views.console_fixed_table,
         name="console-fixed-table"),
]
