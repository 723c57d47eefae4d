"""The events app's pages and its API (under /api/)."""
from django.urls import include, path

from drive.events.api import audit as api_audit
from drive.events.api import events as api
from drive.events.services import events as services
from drive.events.services import registration as registration_services
from drive.events.services import arrivals as arrival_services
from drive.events.views import audit as views_audit
from drive.events.views import events as views

api_patterns = [
    path("events/", api.EventListView.as_view(), name="api-events"),
    path("events/<int:event_id>/", api.EventDetailView.as_view(), name="api-event"),
    path("events/<int:event_id>/registration/", api.MyRegistrationView.as_view(), name="api-my-registration"),
    path("events/<int:event_id>/check-in/", api.SelfCheckInView.as_view(), name="api-self-check-in"),
    path("events/<int:event_id>/registrations/", api.EventRegistrationsView.as_view(), name="api-registrations"),
    path("events/<int:event_id>/walk-ins/", api.WalkInView.as_view(), name="api-walk-ins"),
    path("events/<int:event_id>/no-shows/", api.NoShowsView.as_view(), name="api-no-shows"),
    path("events/<int:event_id>/audit/", api_audit.EventAuditView.as_view(), name="api-event-audit"),
    path(
        "events/<int:event_id>/publish/",
        api.event_action(services.open_registration, "Publish the event and open its registration."),
        name="api-publish",
    ),
    path(
        "events/<int:event_id>/close-registration/",
        api.event_action(services.close_registration, "Stop new registrations now."),
        name="api-close-registration",
    ),
    path(
        "events/<int:event_id>/door-code/",
        api.event_action(services.reissue_door_code, "A new door code: the old one stops checking anyone in at once."),
        name="api-door-code",
    ),
    path(
        "registrations/<int:registration_id>/check-in/",
        api.registration_action(arrival_services.check_in, "The organiser marks the player arrived."),
        name="api-check-in",
    ),
    path(
        "registrations/<int:registration_id>/no-show/",
        api.registration_action(arrival_services.mark_no_show, "The organiser marks a registered player as not come."),
        name="api-no-show",
    ),
    path(
        "registrations/<int:registration_id>/cancel/",
        api.registration_action(registration_services.cancel_registration, "Cancel: the player's own, or any as organiser."),
        name="api-cancel",
    ),
    path("registrations/<int:registration_id>/fixed-table/", api.FixedTableView.as_view(), name="api-fixed-table"),
    path("clubs/", api.ClubListView.as_view(), name="api-clubs"),
    path("clubs/<int:club_id>/players/", api.ClubPlayersView.as_view(), name="api-club-players"),
    path("me/registrations/", api.MyRegistrationsView.as_view(), name="api-my-registrations"),
    path("me/clubs/", api.MyClubsView.as_view(), name="api-my-clubs"),
    path("auth/signup/", api.SignupView.as_view(), name="api-signup"),
    path("auth/token/", api.TokenView.as_view(), name="api-token"),
]

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
    path("console/events/<int:event_id>/walk-in/players/", views.walk_in_matches, name="console-walk-in-matches"),
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
    path("api/", include(api_patterns)),
]
