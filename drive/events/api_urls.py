from django.urls import path

from . import api, api_audit, services

urlpatterns = [
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
        api.registration_action(services.check_in, "The organiser marks the player arrived."),
        name="api-check-in",
    ),
    path(
        "registrations/<int:registration_id>/no-show/",
        api.registration_action(services.mark_no_show, "The organiser marks a registered player as not come."),
        name="api-no-show",
    ),
    path(
        "registrations/<int:registration_id>/cancel/",
        api.registration_action(services.cancel_registration, "Cancel: the player's own, or any as organiser."),
        name="api-cancel",
    ),
    path("registrations/<int:registration_id>/fixed-table/", api.FixedTableView.as_view(), name="api-fixed-table"),
    path("clubs/", api.ClubListView.as_view(), name="api-clubs"),
    path("me/registrations/", api.MyRegistrationsView.as_view(), name="api-my-registrations"),
    path("me/clubs/", api.MyClubsView.as_view(), name="api-my-clubs"),
    path("auth/signup/", api.SignupView.as_view(), name="api-signup"),
    path("auth/token/", api.TokenView.as_view(), name="api-token"),
]
