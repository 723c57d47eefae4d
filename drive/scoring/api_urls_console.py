"""REST API of the evening (see the module name for the audience)."""
from django.urls import path

from . import api_claims
from . import api_console as api
from . import api_players
from .selectors.console import MOVES

urlpatterns = [
    path("events/<int:event_id>/evening/", api.EveningView.as_view(), name="api-evening"),
    *(path(f"events/<int:event_id>/evening/{move}/", api.evening_move(move), name=f"api-evening-{move}")
      for move in MOVES),
    path("events/<int:event_id>/tables/<int:number>/claims/", api_claims.TableClaimsView.as_view(),
         name="api-table-claims-console"),
    path("events/<int:event_id>/tables/<int:number>/claims/<str:seat>/", api_claims.TableClaimView.as_view(),
         name="api-table-claim-release"),
    path("events/<int:event_id>/tables/<int:number>/link/", api_claims.TableLinkView.as_view(),
         name="api-table-link"),
    path("events/<int:event_id>/table-links/", api_claims.TableLinksView.as_view(), name="api-table-links"),
    path("events/<int:event_id>/rounds/<int:round_number>/tables/<int:table_number>/", api.RoundTableView.as_view(),
         name="api-round-table"),
    path("events/<int:event_id>/corrections/", api.CorrectionsView.as_view(), name="api-corrections"),
    path("events/<int:event_id>/evening/players/", api_players.EveningPlayersView.as_view(), name="api-evening-players"),
    path("events/<int:event_id>/evening/late-arrivals/", api_players.LateArrivalView.as_view(), name="api-late-arrivals"),
    path("events/<int:event_id>/evening/leavers/", api_players.LeaverView.as_view(), name="api-leavers"),
]
