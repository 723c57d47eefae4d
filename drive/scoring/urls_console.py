"""Pages of the organiser's evening console."""
from django.urls import path

from drive.scoring.views import claims
from drive.scoring.views import console as views
from drive.scoring.views import players

EVENING = "console/events/<int:event_id>/evening/"
TABLE = EVENING + "rounds/<int:round_number>/tables/<int:table_number>/"

urlpatterns = [
    path(EVENING, views.evening, name="console-evening"),
    path(EVENING + "live/", views.evening_live, name="console-evening-live"),
    path(EVENING + "moves/<slug:action>/", views.evening_move, name="console-evening-move"),
    path(TABLE, views.table_page, name="console-evening-table"),
    path(TABLE + "claims/<str:seat>/release/", claims.release, name="console-release-claim"),
    path(TABLE + "link/", claims.reissue_link, name="console-reissue-link"),
    path(TABLE + "hands/<int:hand_number>/correct/", views.correct_hand, name="console-correct-hand"),
    path(TABLE + "hands/<int:hand_number>/revoke/", views.revoke_hand, name="console-revoke-hand"),
    path("console/events/<int:event_id>/corrections/", views.corrections, name="console-corrections"),
    path("console/events/<int:event_id>/players/", players.players, name="console-evening-players"),
    path("console/events/<int:event_id>/players/join/<int:registration_id>/", players.join, name="console-evening-join"),
    path("console/events/<int:event_id>/players/leave/<int:entrant_id>/", players.leave, name="console-evening-leave"),
]
